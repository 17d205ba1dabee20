"""kramdown.py: a Jekyll body's kramdown attribute lists and extensions, each converted or dropped
with a warning at its line of the post, and nothing else of the text touched; its headings' ids
(anchors.py) and definition lists (deflists.py), as the site then renders them."""

from pathlib import Path

import pytest

from portfolio.content import markdown
from portfolio.movein import anchors, kramdown
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
        ("Text.\n{: #anchor}\n", "Text.\n"),  # an id for a paragraph: no link can follow it
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


def moved(body):
    """(the body as the move writes it: kramdown converted, its headings' ids settled and its own
    links pointed at them; the HTML the site renders of it; the warnings)."""
    converted, warnings = convert(body)
    settled, ids = anchors.settle(converted)
    written = anchors.relink(settled, lambda path: ids if not path else None)
    return written, markdown.render(written).html, warnings


def test_a_heading_id_is_taken_out_and_the_links_to_it_follow_the_id_the_site_gives():
    # The site renders `{#install}` as text, the heading's id made of all of it: the attribute
    # block goes, and every link of the post to #install goes where the heading now is.
    body = (
        'See [how](#install).\n\n## Install it {#install}\n\nAgain: [here](#install "Install"), '
        '[there][ref], <a href="#install">raw</a>.\n\n[ref]: #install\n'
    )
    written, html, warnings = moved(body)
    assert written == (
        'See [how](#install-it).\n\n## Install it\n\nAgain: [here](#install-it "Install"), '
        '[there][ref], <a href="#install-it">raw</a>.\n\n[ref]: #install-it\n'
    )
    assert '<h2 id="install-it">Install it<a class="headerlink"' in html
    assert html.count('href="#install-it"') == 5  # 4 links and the heading's own
    assert warnings == []


def test_repeated_headings_get_the_ids_the_site_numbers_them_with():
    body = "## Setup {#linux}\n\n## Setup {#macos}\n\n## Setup\n\n[a](#linux), [b](#macos), [c](#setup)\n"
    written, html, _ = moved(body)
    assert written.endswith("[a](#setup), [b](#setup_1), [c](#setup)\n")
    assert '<h2 id="setup">' in html and '<h2 id="setup_1">' in html and '<h2 id="setup_2">' in html


def test_ids_that_trade_places_are_each_pointed_once():
    body = "## Install {#setup}\n\n## Setup {#install}\n\n[a](#setup) [b](#install)\n"
    assert moved(body)[0].endswith("[a](#install) [b](#setup)\n")


@pytest.mark.parametrize(
    "body, heading",
    [
        ("## Wiring it up\n{: #wiring}\n\n[w](#wiring)\n", "## Wiring it up\n\n"),  # the line after
        ("Wiring it up\n------------\n{: #wiring}\n\n[w](#wiring)\n", "Wiring it up\n------------\n\n"),
        ("Intro.\n\n{: #wiring}\n## Wiring it up\n\n[w](#wiring)\n", "Intro.\n\n## Wiring it up\n\n"),
        ("> ## Wiring it up {#wiring}\n\n[w](#wiring)\n", "> ## Wiring it up\n\n"),  # in a quote
    ],
)
def test_an_attribute_list_gives_its_id_to_the_heading_next_to_it(body, heading):
    written, html, warnings = moved(body)
    assert written == heading + "[w](#wiring-it-up)\n"
    assert 'id="wiring-it-up"' in html and warnings == []


def test_what_else_an_attribute_list_gives_a_heading_is_dropped_with_a_warning():
    written, html, warnings = moved('Text.\n\n## Wiring\n{: #wire .wide data-x="1"}\n\n[w](#wire)\n')
    assert written == "Text.\n\n## Wiring\n\n[w](#wiring)\n"
    assert warnings == [
        (BODY_LINE + 3, 'kramdown attribute list {:#wire .wide data-x="1"}: .wide data-x="1" dropped '
         "(the heading keeps its id)"),
    ]  # fmt: skip


@pytest.mark.parametrize(
    "text",
    [
        "## Heading {#id} ##\n",  # kramdown's id ends the text: this one it showed as text
        "## Heading{#id}\n",  # ... after a space
        "## Heading {.wide}\n",  # classes are for an attribute list, not the heading's line
        "## Heading \\{#id}\n",
        "## The `{#id}` syntax\n",
        "```\n## Heading {#id}\n```\n",
        "Code:\n\n    ## Heading {#id}\n",
        "- ```\n  ## Heading {#id}\n  ```\n",
    ],
)
def test_what_kramdown_read_as_no_heading_id_is_left_as_written(text):
    assert convert(text) == (text, [])


@pytest.mark.parametrize(
    "text",
    [
        "Ruby:\n\n    h = {:a => 1}\n    {: .x}\n    {::comment}\n    *[HTML]: H\n",  # an indented block
        "- item\n\n  ```ruby\n  {:b => 2}\n  ```\n",  # a fence in a list item
        "> ```\n> {:c => 3}\n> ```\n",  # and in a quote
    ],
)
def test_code_the_site_renders_as_code_is_never_converted(text):
    # Ruby's symbols are kramdown's attribute lists: in code they were dropped from the code
    assert convert(text) == (text, [])


def test_an_abbreviation_is_dropped_with_a_warning_and_the_word_stays():
    body, warnings = convert("The HTML spec.\n\n*[HTML]: HyperText Markup Language\n*[W3C]:\n")
    assert body == "The HTML spec.\n\n"
    assert warnings == [
        (BODY_LINE + 2, "kramdown abbreviation *[HTML] dropped: HTML stays as written, without its "
         "expansion ('HyperText Markup Language')"),
        (BODY_LINE + 3, "kramdown abbreviation *[W3C] dropped: W3C stays as written, without its "
         "expansion ('')"),
    ]  # fmt: skip


@pytest.mark.parametrize(
    "text",
    ["Emphasis *[HTML]: text*.\n", "```\n*[HTML]: kept\n```\n", "    *[HTML]: code\n", "`*[HTML]: x`\n"],
)
def test_what_is_no_abbreviation_is_left_as_written(text):
    assert convert(text) == (text, [])


@pytest.mark.parametrize(
    "written, expected, rendered",
    [
        # A tight list of plain text: HTML as kramdown wrote it.
        ("Term\n: Definition\n", "<dl>\n<dt>Term</dt>\n<dd>Definition</dd>\n</dl>\n",
         "<dl>\n<dt>Term</dt>\n<dd>Definition</dd>\n</dl>"),
        ("Apple\nPomme\n: A fruit.\n: A company.\n\nPear\n: Another.\n",
         "<dl>\n<dt>Apple</dt>\n<dt>Pomme</dt>\n<dd>A fruit.</dd>\n<dd>A company.</dd>\n<dt>Pear</dt>\n"
         "<dd>Another.</dd>\n</dl>\n",
         "<dt>Pomme</dt>\n<dd>A fruit.</dd>\n<dd>A company.</dd>\n<dt>Pear</dt>"),
        # A blank line before a definition makes it a paragraph; markdown stays markdown, between
        # blank lines; its next lines are taken out of their indentation (a block in it stays one).
        ("Term\n\n: Definition\n", "<dl>\n<dt>Term</dt>\n<dd>\n\nDefinition\n\n</dd>\n</dl>\n",
         "<dd>\n<p>Definition</p>\n</dd>"),
        ("Term\n: A *fine*\n  definition, [linked](https://example.org).\n\n  More.\n\n      code\n\n"
         "After.\n",
         "<dl>\n<dt>Term</dt>\n<dd>\n\nA *fine*\ndefinition, [linked](https://example.org).\n\nMore.\n\n"
         "    code\n\n</dd>\n</dl>\n\nAfter.\n",
         '<dd>\n<p>A <em>fine</em>\ndefinition, <a href="https://example.org">linked</a>.</p>\n<p>More.</p>\n'
         '<div class="highlight"><pre tabindex="0"><span></span><code>code\n</code></pre></div>\n</dd>\n'
         "</dl>\n<p>After.</p>"),
        ("`--verbose`\n2. *two*\n: Says more.\n",
         "<dl>\n<dt>\n\n`--verbose`\n\n</dt>\n<dt>\n\n2\\. *two*\n\n</dt>\n<dd>Says more.</dd>\n</dl>\n",
         "<dt>\n<p><code>--verbose</code></p>\n</dt>\n<dt>\n<p>2. <em>two</em></p>\n</dt>"),
        ("Term\n: Definition\nits lazy line\n# Next\n",
         "<dl>\n<dt>Term</dt>\n<dd>\n\nDefinition\nits lazy line\n\n</dd>\n</dl>\n\n# Next\n",
         "<dd>\n<p>Definition\nits lazy line</p>\n</dd>\n</dl>\n<h1"),
    ],
)  # fmt: skip
def test_a_definition_list_is_the_html_list_it_was(written, expected, rendered):
    body, html, warnings = moved(written)
    assert body == expected
    assert rendered in html
    assert warnings == []


@pytest.mark.parametrize(
    "text",
    [
        "```\nTerm\n: Definition\n```\n",
        "    Term\n    : Definition\n",
        "\n: No term before it\n",
        "Term\n:No space\n",
        "Term\n    : Indented: the paragraph's text\n",
    ],
)
def test_what_is_no_definition_list_is_left_as_written(text):
    assert convert(text) == (text, [])


@pytest.mark.parametrize("text", ["> Term\n> : Definition\n", "- Term\n  : Definition\n"])
def test_a_definition_list_in_a_quote_or_a_list_is_left_with_a_warning(text):
    body, warnings = convert("Intro.\n\n" + text)
    assert body == "Intro.\n\n" + text
    assert warnings == [
        (BODY_LINE + 3, "a definition list in a quote or a list item: left as written (move it out of it, "
         "and it becomes one)"),
    ]  # fmt: skip
