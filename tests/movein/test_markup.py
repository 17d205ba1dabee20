"""markup.py, the helpers every body conversion stands on: what is code (fences, code spans, and
what only the renderer tells: indented blocks, fences in lists and quotes) and what is prose, code
fences that hold any code, link text, and pairs found in linear time; anchors.py's headings' ids
settled and the links to them pointed at the new ones."""

import re
import time
from types import SimpleNamespace

import pytest

from portfolio.movein import anchors, markup

SHOUT = str.upper  # a change anyone can see: every converted part comes out in capitals


def test_only_prose_is_changed_code_spans_and_fences_are_not():
    text = "a `b` c\n```py\nd\n```\ne ~~~\n~~~\nf\n~~~\ng"
    assert markup.outside_code(text, SHOUT) == "A `b` C\n```py\nd\n```\nE ~~~\n~~~\nf\n~~~\nG"


@pytest.mark.parametrize(
    "text, expected",
    [
        ("", ""),
        ("x\n```\nopen to the end", "X\n```\nopen to the end"),  # an unclosed fence runs to the end
        ("``a` b", "``A` B"),  # backticks never closed are text, as written
        ("a ``b ` c`` d", "A ``b ` c`` D"),  # a span closes at a run of as many backticks
        ("~~~\n```\n~~~\nx", "~~~\n```\n~~~\nX"),  # a fence closes at its own character only
        ("````\n```\n````\nx", "````\n```\n````\nX"),  # ... and at as many of them or more
        ("```\ncode\n   ```\nx", "```\ncode\n   ```\nX"),  # up to 3 spaces before a closing fence
        ("café `naïve` Ünï", "CAFÉ `naïve` ÜNÏ"),
    ],
)
def test_outside_code_edges(text, expected):
    assert markup.outside_code(text, SHOUT) == expected


def test_a_fence_indented_four_spaces_does_not_close_the_block():
    # CommonMark: a closing fence has at most 3 spaces before it; one with 4 is a line of the code,
    # so what follows is still code and must not be converted.
    text = "```\ncode\n    ```\nstill code\n```\nprose"
    assert markup.outside_code(text, SHOUT) == "```\ncode\n    ```\nstill code\n```\nPROSE"


def test_backticks_with_a_backtick_after_them_open_no_fence():
    # CommonMark: a backtick fence's info string has no backtick: "```a``` b" is a code span in a
    # paragraph, and the rest of the body is prose, not a block of code never closed.
    text = "```a``` b\nc"
    assert markup.outside_code(text, SHOUT) == "```a``` B\nC"


def test_prose_parts_cover_every_character_that_is_not_code():
    text = "one `two` three\n```\nfour\n```\nfive"
    parts = list(markup.prose_parts(text))
    assert [text[start:end] for start, end in parts] == ["one ", " three", "five"]
    # the code, its fence lines and their newlines are the only characters no part holds
    covered = {i for start, end in parts for i in range(start, end)}
    assert "".join(c for i, c in enumerate(text) if i not in covered) == "`two`\n```\nfour\n```\n"


def test_code_spans():
    assert markup.code_spans("`a` ``b`` ` c ``") == [(0, 3), (4, 9)]  # the last ` never closes
    assert markup.code_spans("no code") == []


def test_code_spans_of_every_length_never_closed_take_linear_time():
    text = "".join("`" * n + " x " for n in range(1, 3_000))
    start = time.perf_counter()
    assert markup.code_spans(text) == []
    assert time.perf_counter() - start < 1


def test_fenced_code_is_longer_than_any_run_of_backticks_inside():
    assert markup.fenced("x\n") == "```\nx\n```"
    assert markup.fenced("```\ninner\n```", "md") == "````md\n```\ninner\n```\n````"
    assert markup.fenced("\n\nkept\n\n") == "```\nkept\n```"  # blank lines around the code go


def test_link_text_cannot_end_the_link():
    assert markup.link_text(" a [b]\n  c ") == "a (b) c"


def test_substitute_pairs_keeps_what_lies_outside_and_an_unclosed_opening():
    opening, closing = re.compile(r"<<"), re.compile(r">>")
    text = "a<<b>>c<<d>>e<<unclosed"
    replaced = markup.substitute_pairs(text, opening, closing, lambda o, between, c: between.upper())
    assert replaced == "aBcDe<<unclosed"


def test_lazy_pairs_stop_at_the_first_opening_never_closed_in_linear_time():
    opening, closing = re.compile(r"<<"), re.compile(r">>")
    start = time.perf_counter()
    assert list(markup.lazy_pairs("<<" * 200_000, opening, closing)) == []
    assert time.perf_counter() - start < 1


def test_lines():
    lines = markup.Lines("a\nb\nc")
    assert [lines.line(at) for at in (0, 1, 2, 4)] == [0, 0, 1, 2]
    assert [lines.start(line) for line in (0, 1, 2, 9)] == [0, 2, 4, 4]
    assert markup.Lines("").start(3) == 0


def test_a_long_run_of_backticks_is_read_as_a_fence_or_not_in_linear_time():
    start = time.perf_counter()
    assert markup.outside_code("`" * 200_000 + "a`\nx", SHOUT).endswith("\nX")
    assert time.perf_counter() - start < 1


def test_code_lines_are_the_renderers_own():
    # an indented block, a fence in a list item and in a quote: code that no fence at a line's
    # start tells
    text = "a\n\n    code\n\n- item\n\n  ```\n  in the item\n  ```\n> ```\n> quoted\n> ```\nb"
    assert markup.code_lines(text) == {2, 6, 7, 8, 9, 10, 11}
    assert markup.outside_code(text, SHOUT) == (
        "A\n\n    code\n\n- ITEM\n\n  ```\n  in the item\n  ```\n> ```\n> quoted\n> ```\nB"
    )
    assert markup.outside_code("a `b` c", SHOUT) == "A `b` C"  # code spans too


def test_settle_reads_the_id_the_renderer_gives_each_marked_heading():
    body = f"# Title{anchors.mark('top')}\n\nSetext{anchors.mark('s')}\n===\n\nText{anchors.mark('lost')}\n"
    settled, ids = anchors.settle(body)
    assert settled == "# Title\n\nSetext\n===\n\nText\n"  # no mark left, on a heading or not
    assert ids == {"top": "title", "s": "setext"}
    assert anchors.settle("## Same\n") == ("## Same\n", {})
    assert anchors.settle(f"## Same{anchors.mark('same')}\n") == ("## Same\n", {})  # nothing to point


def test_relink_points_the_links_to_old_ids_and_leaves_code_alone():
    ids = {"": {"old": "new", "été": "summer"}, "other.md": {"far": "away"}}
    body = (
        "[a](#old) [b](<#old>) [c](#%C3%A9t%C3%A9) [d](other.md#far) [e](other.md#near) [f](third.md#far)\n"
        "`[g](#old)`\n\n    [h](#old)\n\n```\n[i](#old)\n```\n[j]: #old\n<a href='#old'>k</a> ![l](#old)\n"
    )
    assert anchors.relink(body, ids.get) == (
        "[a](#new) [b](<#new>) [c](#summer) [d](other.md#away) [e](other.md#near) [f](third.md#far)\n"
        "`[g](#old)`\n\n    [h](#old)\n\n```\n[i](#old)\n```\n[j]: #new\n<a href='#new'>k</a> ![l](#old)\n"
    )
    assert anchors.relink("[a](#old)\n", lambda path: None) == "[a](#old)\n"


@pytest.mark.parametrize(
    "text",
    [
        "## " + "{.a" * 100_000 + "}x\n",  # blocks never closed as attributes
        "## x " + "{#a " * 100_000 + "}\n",
        "## x {" + ".a" * 200_000 + "!}\n",  # one that does not end as one: never split another way
    ],
)
def test_heading_attributes_are_read_in_linear_time(text):
    post = SimpleNamespace(warn=lambda *args: None)
    start = time.perf_counter()
    anchors.heading_attributes(post, text, text, anchors.GOLDMARK)
    assert time.perf_counter() - start < 3


@pytest.mark.parametrize(
    "text, expected",
    [
        ("a\n\n    code\n\nb", "A\n\n    code\n\nB"),  # indented code
        ("a\n    lazy line\nb", "A\n    LAZY LINE\nB"),  # a paragraph's line, not code
        ("- item\n\n  ```\n  code\n  ```\n- b", "- ITEM\n\n  ```\n  code\n  ```\n- B"),  # in a list
        ("> ~~~\n> code\n> ~~~\nb", "> ~~~\n> code\n> ~~~\nB"),  # in a quote
    ],
)
def test_code_blocks_are_what_the_sites_renderer_reads_as_code(text, expected):
    assert markup.outside_code(text, SHOUT) == expected


def test_code_in_a_text():
    text = "a `b`\n\n    c\n\nd"
    code = markup.Code(text)
    assert [at in code for at in (0, 3, 9, 14)] == [False, True, True, False]


def test_an_alert_of_a_kind_the_site_has_none_of_is_a_note():
    assert markup.alert("abstract", "", "a\n\nb\n") == "> [!NOTE]\n> a\n>\n> b"
    assert markup.alert("Danger", "Hot [pan]", "x") == "> [!CAUTION]\n> **Hot (pan)**\n>\n> x"


def test_hidden_texts_are_comments_and_never_open_a_line_with_text_after_them():
    hidden = markup.Hidden()
    text = f"{hidden('a')} b\n> - {hidden('c')}\n{hidden('d')}{hidden('e')} f \x019\x01"
    assert hidden.place(text) == "b <!-- a -->\n> - <!-- c -->\nf \x019\x01 <!-- d --><!-- e -->"


def test_hidden_texts_alone_on_a_paragraphs_line_keep_the_paragraph_whole():
    from portfolio.content.markdown import render

    hidden = markup.Hidden()
    text = (
        f"Para before.\n{hidden('a')}\n{hidden('b')}\nPara after.\n\n"
        f"> A quote.\n> {hidden('c')}\n> Its second line.\n\n"
        f"{hidden('d')}\nA paragraph it opens.\n\n- item\n  {hidden('e')}\n- {hidden('f')}\n"
    )
    placed = hidden.place(text)
    assert placed == (
        "Para before. <!-- a --> <!-- b -->\nPara after.\n\n"
        "> A quote. <!-- c -->\n> Its second line.\n\n"
        "<!-- d -->\nA paragraph it opens.\n\n- item <!-- e -->\n- <!-- f -->\n"
    )
    html = render(placed).html
    assert "<p>Para before. <!-- a --> <!-- b -->\nPara after.</p>" in html
    assert "<p>A quote. <!-- c -->\nIts second line.</p>" in html
