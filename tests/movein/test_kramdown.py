"""kramdown.py: a Jekyll body's kramdown attribute lists and extensions, each converted or dropped
with a warning at its line of the post, and nothing else of the text touched."""

from pathlib import Path

import pytest

from portfolio.movein import kramdown
from portfolio.movein.posts import Post

BODY_LINE = 5  # the body starts on the file's 5th line: a warning at its first line says 5


def convert(body):
    """(converted body, [(file line, warning)]) of a real Post."""
    post = Post(rel="_posts/2020-01-01-x.md", path=Path("x.md"), name="x", fields={}, body=body,
                body_line=BODY_LINE)  # fmt: skip
    return kramdown.convert(post, body, body), post.warnings


@pytest.mark.parametrize(
    "written, alert",
    [
        ("notice--info", "NOTE"), ("notice", "NOTE"), ("note", "NOTE"), ("notice--primary", "NOTE"),
        ("tip", "TIP"), ("notice--success", "TIP"), ("important", "IMPORTANT"),
        ("notice--warning", "WARNING"), ("warning", "WARNING"), ("notice--danger", "CAUTION"),
        ("danger", "CAUTION"), ("caution", "CAUTION"), ("Notice--Warning", "WARNING"),
    ],
)  # fmt: skip
def test_a_callout_class_after_a_paragraph_makes_it_an_alert(written, alert):
    body, warnings = convert(f"Intro.\n\nMind the\nstep.\n{{: .{written}}}\n\nAfter.\n")
    assert body == f"Intro.\n\n> [!{alert}]\n> Mind the\n> step.\n\nAfter.\n"
    message = f"kramdown {{:.{written}}}: the paragraph is a {alert.lower()} callout"
    assert warnings == [(BODY_LINE + 4, message)]


def test_a_callout_class_with_no_paragraph_before_it_is_dropped():
    # after a heading or a blank line there is no paragraph to make an alert of
    body, warnings = convert("# Title\n{: .notice--info}\n\n{: .tip}\n")
    assert body == "# Title\n\n"
    assert warnings == [
        (BODY_LINE + 1, "kramdown attribute list {:.notice--info} has no equivalent here: dropped"),
        (BODY_LINE + 3, "kramdown attribute list {:.tip} has no equivalent here: dropped"),
    ]


def test_the_toc_list_item_and_its_marker_are_dropped():
    body, warnings = convert("Before.\n\n* TOC\n{:toc}\n\nAfter.\n")
    assert body == "Before.\n\n\nAfter.\n"
    assert warnings == [(BODY_LINE + 3, "kramdown {:toc} dropped: this site makes its own contents")]


def test_a_toc_marker_after_a_longer_list_drops_the_marker_only():
    # a list of more than one item is the author's, not kramdown's placeholder
    body, _ = convert("- one\n- two\n{:toc}\n")
    assert body == "- one\n- two\n"


@pytest.mark.parametrize(
    "written, kept",
    [
        ('[x](y){:target="_blank"} and on\n', "[x](y) and on\n"),
        ("# Heading {#id}\n{: #anchor}\n", "# Heading {#id}\n"),
        ("Text {:.class} here.\n", "Text  here.\n"),
        ('{::options parse_block_html="true" /}\nText.\n', "\nText.\n"),
        ("a {:x} b {:y\n", "a  b {:y\n"),  # one never closed on its line is text
        ("a {::x} b {::y /} c\n", "a {::x} b  c\n"),  # an extension ends with `/}`
    ],
)
def test_other_attribute_lists_and_extensions_are_dropped_with_a_warning(written, kept):
    body, warnings = convert(written)
    assert body == kept
    assert len(warnings) == 1 and warnings[0][0] is not None
    assert "dropped" in warnings[0][1]


def test_a_comment_is_dropped_however_many_lines_it_spans():
    # its closing `{:/comment}` is no attribute list: taken for one, it was dropped alone and the
    # note to oneself was published
    body, warnings = convert("Kept.\n{::comment}\nA note to\nmyself.\n{:/comment}\nKept too.\n")
    assert body == "Kept.\n\nKept too.\n"
    assert warnings == [(BODY_LINE + 1, "kramdown {::comment} dropped")]


def test_a_comment_in_a_line_with_its_short_closing():
    body, warnings = convert("Shown {::comment}not shown{:/} shown.\n")
    assert body == "Shown  shown.\n"
    assert warnings == [(BODY_LINE, "kramdown {::comment} dropped")]


def test_an_unclosed_comment_is_kept_as_written():
    # nothing says where it ends: dropping the rest of the post would lose it
    text = "Kept.\n{::comment}\nnever closed\n"
    assert convert(text)[0] == text


def test_each_warning_names_its_own_line_when_one_text_repeats():
    body, warnings = convert("[a](b){: .x}\n\n[c](d){: .x}\n")
    assert body == "[a](b)\n\n[c](d)\n"
    assert [line for line, _ in warnings] == [BODY_LINE, BODY_LINE + 2]


@pytest.mark.parametrize(
    "text",
    [
        "```\nText.\n{: .notice--info}\n{:toc}\n```\n",
        "~~~ruby\n{: .x}\n~~~\n",
        "```\n    ```\n{: .still-code}\n```\n",  # a fence indented 4 spaces is code: it closes nothing
        "Plain prose, no kramdown.\n",
        "",
        "Ünïcode paragraph, 日本語.\n",
    ],
)
def test_what_is_not_kramdown_is_left_as_written(text):
    assert convert(text) == (text, [])


def test_an_attribute_list_in_a_code_span_is_code_left_alone():
    # an article about kramdown shows its syntax in code spans: the text there is what it shows
    text = "Write `{: .notice--info}` after a paragraph, or `{::options /}`.\n"
    assert convert(text) == (text, [])


def test_a_comment_in_fenced_code_is_code_left_alone():
    text = "```\n{::comment}\nshown as code\n{:/comment}\n```\n"
    assert convert(text) == (text, [])


def test_crlf_lines_still_make_an_alert():
    # decode() normalises line endings, but a body given with CRLF keeps the same meaning
    body, warnings = convert("Mind it.\r\n{: .notice--warning}\r\n")
    assert body.startswith("> [!WARNING]\n> Mind it.")
    assert warnings and warnings[0][0] == BODY_LINE + 1
