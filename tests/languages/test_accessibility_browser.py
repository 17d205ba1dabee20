"""axe-core's WCAG 2.0 and 2.1 A and AA rules on the pages of the site's other languages, as
deployed (nginx with deploy/nginx.conf), at 360 and 1280 px, light and dark: a right-to-left
page, a CJK one, a language's lists and tags, its standalone page, and an English page showing
the offer of its French version. Not one violation."""

import json

import pytest

from tests.export.conftest import start_nginx
from tests.export.test_accessibility_browser import violations

from .content import add_languages
from .test_offer import reading, shown

PAGES = ["/fr/", "/fr/articles", "/fr/tags", "/fr/tags/introduction", "/fr/about", "/fr/stack",
         "/fa/articles/first-post", "/fa/projects/alpha-one", "/ja/articles/first-post", "/fr/no-such-page",
         "/articles/first-post"]  # fmt: skip


@pytest.mark.browser
def test_no_page_of_another_language_has_an_accessibility_violation(
    site, content_dir, background, tmp_path, chromium
):
    def on_page(path):
        if path == "/articles/first-post":
            assert shown(driver) == ["fr", "Lire cette page en français", "/fr/articles/first-post"]

    add_languages(content_dir)
    site()
    driver = chromium()
    reading(driver, "fr-FR,fr;q=0.9")  # the English page offers its French version
    found = violations(driver, start_nginx(tmp_path / "site", background, tmp_path), PAGES, on_page)
    assert found == {}, json.dumps(found, indent=1, ensure_ascii=False)
