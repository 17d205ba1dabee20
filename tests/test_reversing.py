"""reverse_slug() is reverse() from a per-route template: it must answer exactly as reverse()."""

import pytest
from django.test import override_settings
from django.urls import NoReverseMatch, reverse, set_script_prefix

from portfolio.reversing import reverse_slug

ROUTES = ["pages:article", "pages:project", "pages:sitemap", "api:article-json", "pages:static"]


@pytest.mark.parametrize("name", ROUTES)
@pytest.mark.parametrize("slug", ["alpha-one", "beta_two", "X9", "a.b", "dir/file.css"])
def test_answers_as_reverse_does(name, slug):
    try:
        expected = reverse(name, args=[slug])
    except NoReverseMatch:
        with pytest.raises(NoReverseMatch):
            reverse_slug(name, slug)
    else:
        assert reverse_slug(name, slug) == expected


def test_follows_the_urlconf_and_the_script_prefix():
    assert reverse_slug("pages:article", "one") == "/articles/one"
    with override_settings(ROOT_URLCONF="contact.service_urls"), pytest.raises(NoReverseMatch):
        reverse_slug("pages:article", "one")
    set_script_prefix("/sub/")
    try:
        assert reverse_slug("pages:article", "two") == "/sub/articles/two"
    finally:
        set_script_prefix("/")
    assert reverse_slug("pages:article", "three") == "/articles/three"
