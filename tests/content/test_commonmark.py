"""Bodies are CommonMark with GitHub's additions (portfolio/content/markdown.py): every example of
the CommonMark 0.31.2 spec (commonmark/spec-0.31.2.json, with its licence) renders as the spec
says, once the site's documented additions are taken out of the HTML; then the additions
themselves: GFM tables, strikethrough, task lists and alerts, fence attributes, code kept exactly,
and bodies that nest without end refused in time."""

import html
import json
import re
import time
from pathlib import Path

import pytest

from portfolio.content.markdown import RenderFailed, render

SPEC = json.loads((Path(__file__).parent / "commonmark" / "spec-0.31.2.json").read_text(encoding="utf-8"))
HIGHLIGHTED = re.compile(
    r'<div class="highlight"><pre tabindex="0"><span></span><code([^>]*)>(.*?)</code></pre></div>\n', re.S
)
# As the spec's own test runner says: whitespace between block tags is not significant.
EMPTY_BLOCK = re.compile(r"<(blockquote|ul|ol|li)>\n</\1>")


def plain_code(found):
    text = html.unescape(re.sub(r"<[^>]+>", "", found[2]))
    escaped = text.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;").replace('"', "&quot;")
    return f"<pre><code{found[1]}>{escaped}</code></pre>\n"


def without_additions(written):
    """The HTML less what content-format.md documents the site adds: Pygments' highlighting (and
    its wrapper), heading ids and their `#` link, `tabindex` on <pre>."""
    written = HIGHLIGHTED.sub(plain_code, written)
    written = re.sub(r"(<h[1-6]) id=\"[^\"]*\"", r"\1", written)
    written = written.replace('<a class="headerlink" href="#', "\0").replace('<pre tabindex="0"', "<pre")
    written = re.sub(r"\0[^\"]*\" title=\"Link to this section\">#</a>", "", written)
    return EMPTY_BLOCK.sub(r"<\1></\1>", written)


@pytest.mark.parametrize("example", SPEC, ids=[f"{e['example']}-{e['section']}" for e in SPEC])
def test_every_commonmark_example(example):
    expected = EMPTY_BLOCK.sub(r"<\1></\1>", example["html"])
    assert without_additions(render(example["markdown"]).html) == expected


def test_the_spec_is_whole():
    assert len(SPEC) == 652 and SPEC[-1]["section"] == "Textual content"


def test_the_additions_are_what_the_normalisation_takes_out():
    written = render("## Title\n\n```py\nx = '<a>'\n```\n").html
    assert written.startswith('<h2 id="title">Title<a class="headerlink" href="#title"')
    assert '<div class="highlight"><pre tabindex="0"><span></span><code class="language-py">' in written
    assert (
        without_additions(written)
        == "<h2>Title</h2>\n<pre><code class=\"language-py\">x = '&lt;a&gt;'\n</code></pre>\n"
    )


# --- how other generators' posts are written ---------------------------------------------------


def test_a_fenced_block_inside_a_list_item_is_code():
    written = render(
        "1. Install:\n\n   ```bash\n   hugo new site MyFreshWebsite --format yaml\n   ```\n2. Run.\n"
    ).html
    assert written.startswith('<ol>\n<li>\n<p>Install:</p>\n<div class="highlight">')
    assert 'class="language-bash"' in written and "<li>\n<p>Run.</p>" in written


def test_two_space_nested_lists_and_a_list_right_after_a_paragraph():
    written = render("Steps:\n- one\n  - inner\n- two\n").html
    assert (
        written == "<p>Steps:</p>\n<ul>\n<li>one\n<ul>\n<li>inner</li>\n</ul>\n</li>\n<li>two</li>\n</ul>\n"
    )


def test_gfm_tables_align_with_an_attribute_and_strikethrough_is_del():
    written = render("| a | b | c |\n|:--|:-:|--:|\n| 1 | ~~2~~ | 3 |\n").html
    assert '<th align="left">a</th>\n<th align="center">b</th>\n<th align="right">c</th>' in written
    assert '<td align="center"><del>2</del></td>' in written and "style=" not in written


def test_task_lists_are_disabled_checkboxes_whose_state_is_said_in_words():
    written = render("- [ ] to do\n- [x] done\n").html
    assert written.count('type="checkbox"') == 2 and written.count("disabled") == 2
    assert written.count("checked") == 1 and "[x]" not in written and "[ ]" not in written
    assert written.count('aria-hidden="true"') == 2
    assert '<span class="visually-hidden">Done: </span>done' in written


@pytest.mark.parametrize("kind", ["NOTE", "TIP", "IMPORTANT", "WARNING", "CAUTION"])
def test_github_alerts_are_callouts_with_their_label(kind):
    written = render(f"> [!{kind}]\n> Mind the *gap*.\n").html
    label = kind.capitalize()
    assert written == (
        f'<div class="markdown-alert markdown-alert-{kind.lower()}">\n'
        f'<p class="markdown-alert-title">{label}</p>\n<p>Mind the <em>gap</em>.</p>\n</div>\n'
    )


def test_a_quote_that_is_no_alert_stays_a_quote():
    assert render("> [!NOPE]\n> text\n").html.startswith("<blockquote>")


def test_raw_html_passes_untouched():
    raw = '<details><summary>More</summary>\n\n*inside*\n\n</details>\n\n<span class="x">a</span>\n'
    written = render(raw).html
    assert "<details><summary>More</summary>" in written and '<span class="x">a</span>' in written
    assert "<em>inside</em>" in written


def test_an_email_autolink():
    assert render("<someone@example.com>\n").html == (
        '<p><a href="mailto:someone@example.com">someone@example.com</a></p>\n'
    )


def test_the_code_text_is_exact_and_its_language_a_class():
    code = "\n\tindented\twith tabs\n\n"
    written = render(f"```python extra words\n{code}```\n").html
    assert '<code class="language-python">' in written
    inner = re.search(r"<code[^>]*>(.*)</code>", written, re.S)[1]
    assert html.unescape(re.sub(r"<[^>]+>", "", inner)) == code


def test_an_unknown_language_is_plain_text_with_its_class():
    written = render("```no-such-language\n<b>x</b>\n```\n").html
    assert '<code class="language-no-such-language">&lt;b&gt;x&lt;/b&gt;\n</code>' in written


# --- fence attributes ----------------------------------------------------------------------------


def marked_lines(written):
    inner = re.search(r"<code[^>]*>(.*)</code>", written, re.S)[1]
    # A marked line's closing </span> comes after its line break, before the next line.
    lines = [re.sub(r"^(</span>)+", "", line) for line in inner.split("\n")]
    return [number for number, line in enumerate(lines, 1) if line.startswith('<span class="hll">')]


def test_hugo_marks_lines_and_its_line_numbers_are_accepted():
    code = "".join(f"line{n} = {n}\n" for n in range(1, 8))
    written = render(f'```go {{linenos=true,hl_lines=[2,"5-6"]}}\n{code}```\n').html
    assert marked_lines(written) == [2, 5, 6] and 'class="language-go"' in written
    assert "linenos" not in written


def test_expressive_code_names_the_file_and_marks_lines():
    code = "".join(f"const a{n} = {n};\n" for n in range(1, 6))
    written = render(f'```ts title="src/x.ts" {{2-4}}\n{code}```\n').html
    assert written.startswith(
        '<figure class="code">\n<figcaption>src/x.ts</figcaption>\n<div class="highlight">'
    )
    assert marked_lines(written) == [2, 3, 4] and written.endswith("</figure>\n")


def test_a_title_is_escaped_and_other_attributes_are_dropped():
    written = render('```js title="<b>&x" showLineNumbers\nx\n```\n').html
    assert "<figcaption>&lt;b&gt;&amp;x</figcaption>" in written and "showLineNumbers" not in written


# --- ids readers link to -------------------------------------------------------------------------


def test_heading_ids_keep_their_form():
    written = render("## Café au lait!\n\n## Café au lait!\n\n## `code` and *em*\n\n## ???\n\n## Main\n").html
    ids = re.findall(r'<h2 id="([^"]*)"', written)
    assert ids == ["café-au-lait", "café-au-lait_1", "code-and-em", "_1", "main-section"]


def test_footnote_ids_keep_their_form():
    written = render("One[^b] and two[^a], again[^b].\n\n[^a]: First.\n[^b]: Second.\n").html
    assert '<sup id="fnref:b"><a class="footnote-ref" href="#fn:b">1</a></sup>' in written
    assert '<sup id="fnref2:b"><a class="footnote-ref" href="#fn:b">1</a></sup>' in written
    assert '<sup id="fnref:a"><a class="footnote-ref" href="#fn:a">2</a></sup>' in written
    assert written.index('<li id="fn:b">') < written.index('<li id="fn:a">')
    assert 'href="#fnref2:b" title="Jump back to footnote 1 in the text"' in written


def test_contents_list_the_second_level_headings():
    body = "## One\n\ntext\n\n### Inner\n\n## Two `x`\n\n## Three &amp; more\n"
    assert render(body).contents == [
        {"id": "one", "name": "One"},
        {"id": "two-x", "name": "Two x"},
        {"id": "three-more", "name": "Three & more"},
    ]
    assert render("## One\n\n## Two\n").contents == []


# --- no slow input -------------------------------------------------------------------------------


@pytest.mark.parametrize("unit", ["[", "*", "> ", "- ", "<a href=x ", "$a ", "[a](", "**a "])
def test_a_body_nested_or_repeated_without_end_renders_or_is_refused_in_time(unit):
    started = time.process_time()
    try:
        render(unit * 20_000 + "\n")
    except RenderFailed as exc:
        assert "nested" in str(exc)
    assert time.process_time() - started < 5


def test_deep_nesting_is_refused_not_cut():
    with pytest.raises(RenderFailed, match="nested more than 50 levels"):
        render("> " * 60 + "lost?\n")
    assert "kept" in render("> " * 10 + "kept\n").html
