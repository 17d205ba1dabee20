"""axe-core's WCAG 2.0 and 2.1 A and AA rules on the pages of the site's other languages, as
deployed (nginx with deploy/nginx.conf), at 360 and 1280 px, light and dark: a right-to-left
page, a CJK one, a language's lists and tags, its standalone page, and an English page showing
the offer of its French version. Not one violation."""

import json

import pytest

from tests.export.conftest import start_nginx
from tests.export.test_accessibility_browser import AXE, RUN_AXE, TAGS
from tests.pages.test_browser import prefer, viewport
from tests.tools import missing_tool

from .content import add_languages
from .test_offer import reading, shown

PAGES = ["/fr/", "/fr/articles", "/fr/tags", "/fr/tags/introduction", "/fr/about", "/fr/stack",
         "/fa/articles/first-post", "/fa/projects/alpha-one", "/ja/articles/first-post", "/fr/no-such-page",
         "/articles/first-post"]  # fmt: skip


@pytest.mark.browser
def test_no_page_of_another_language_has_an_accessibility_violation(
    site, content_dir, background, tmp_path, chromium
):
    if not AXE.exists():
        missing_tool("axe-core is not installed in tests/hosts (make test installs it with npm)")
    add_languages(content_dir)
    site()
    base = start_nginx(tmp_path / "site", background, tmp_path)
    axe = AXE.read_text()
    driver = chromium()
    driver.set_script_timeout(60)
    reading(driver, "fr-FR,fr;q=0.9")  # the English page offers its French version
    found = {}
    for width in [360, 1280]:
        viewport(driver, width)
        for scheme in ["light", "dark"]:
            prefer(driver, scheme)
            for path in PAGES:
                driver.get(base + path)
                if path == "/articles/first-post":
                    assert shown(driver) == ["fr", "Lire cette page en français", "/fr/articles/first-post"]
                driver.execute_script(axe)
                violations = driver.execute_async_script(RUN_AXE, TAGS)
                if violations:
                    found[f"{path} at {width}px, {scheme}"] = violations
    assert found == {}, json.dumps(found, indent=1, ensure_ascii=False)
