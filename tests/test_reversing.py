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


@pytest.mark.django_db
def test_items_loaded_by_a_query_know_their_address_as_reverse_gives_it(imported):
    from portfolio.content.models import Article, Project

    for model, route in ((Project, "pages:project"), (Article, "pages:article")):
        items = list(model.objects.all())
        assert items and all(item.address == reverse(route, args=[item.slug]) for item in items)
        assert [item.get_absolute_url() for item in items] == [item.address for item in items]
        assert model(slug="made-here").get_absolute_url() == reverse(route, args=["made-here"])
    assert Article.objects.published().values_list("slug", flat=True)[0] in {a.slug for a in items}
    for article in Article.objects.published().with_neighbours():
        for side in ("older", "newer"):
            slug = getattr(article, f"{side}_slug")
            expected = slug and reverse("pages:article", args=[slug])
            assert getattr(article, f"{side}_address", None) == expected
    set_script_prefix("/sub/")
    try:
        assert Article.objects.published().first().get_absolute_url().startswith("/sub/articles/")
    finally:
        set_script_prefix("/")
