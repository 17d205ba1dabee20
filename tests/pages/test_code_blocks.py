"""Every code block of a body is focusable (portfolio/content/code_blocks.py): a block that
scrolls sideways must be reachable by keyboard. axe-core checks the pages themselves
(tests/export/test_accessibility_browser.py)."""

import re


def test_every_pre_of_a_body_can_be_focused(get):
    for path in ["/articles/unicode-post", "/projects/alpha-one", "/developers"]:
        _, body = get(path)
        blocks = re.findall(r"<pre\b[^>]*>", body)
        assert blocks and all('tabindex="0"' in tag for tag in blocks), (path, blocks)
