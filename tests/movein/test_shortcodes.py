"""shortcodes.py: Hugo's shortcodes in a post's body converted as docs/moving-in.md's table says
(highlight, figure, the embeds as plain links, ref and relref, the escaped form, details, param,
themes' callouts), every other one never shown as written: a pair keeps its text, a single one is
hidden in an HTML comment (as written only in code), reported with its line of the file."""

import time
from pathlib import Path

import pytest
from django.utils.html import strip_tags

from portfolio.content.markdown import render
from portfolio.movein import shortcodes
from portfolio.movein.convert import MISSING, Context
from portfolio.movein.posts import Post

BODY_LINE = 5  # the body starts on the file's 5th line: a warning at its first line says 5
DROPPED = "has no equivalent here: its tags dropped, its text kept"


def post_of(rel, body="", draft=False):
    return Post(rel=rel, path=Path(rel), name=Path(rel).stem, fields={}, body=body, body_line=BODY_LINE,
                draft=draft)  # fmt: skip


@pytest.fixture
def context():
    """The moved posts a body may link to: one published post, one draft."""
    found = Context()
    found.add_names(post_of("content/posts/other.md"), "other", Path("content"))
    found.add_names(post_of("content/posts/wip.md", draft=True), "wip", Path("content"))
    return found


def convert(body, context):
    """(converted body, [(file line, warning)]) of a real Post."""
    post = post_of("content/posts/this.md", body)
    return shortcodes.convert(post, body, context), post.warnings


@pytest.mark.parametrize(
    "written, link",
    [
        ("{{< youtube w7Ft2ymGmfc >}}", "[Video on YouTube](https://www.youtube.com/watch?v=w7Ft2ymGmfc)"),
        ('{{< youtube id="w7Ft" title="My [talk]" >}}', "[My (talk)](https://www.youtube.com/watch?v=w7Ft)"),
        ("{{< vimeo 146022717 >}}", "[Video on Vimeo](https://vimeo.com/146022717)"),
        ("{{< vimeo_simple 48912912 >}}", "[Video on Vimeo](https://vimeo.com/48912912)"),
        ('{{< tweet user="SanDiegoZoo" id="1453110110599868418" >}}',
         "[Post by @SanDiegoZoo on X](https://x.com/SanDiegoZoo/status/1453110110599868418)"),
        ("{{< twitter_simple 1085870671291310081 >}}", "[Post on X](https://x.com/i/status/1085870671291310081)"),
        ("{{< x user=hugo id=1 >}}", "[Post by @hugo on X](https://x.com/hugo/status/1)"),
        ("{{< twitter hugo 1 >}}", "[Post by @hugo on X](https://x.com/hugo/status/1)"),
        ("{{< gist spf13 7896402 >}}", "[Gist spf13/7896402](https://gist.github.com/spf13/7896402)"),
        ('{{< gist spf13 7896402 "img.html" >}}',
         "[Gist spf13/7896402 (img.html)](https://gist.github.com/spf13/7896402)"),
        ("{{< instagram BWNjjyYFxVx >}}", "[Post on Instagram](https://www.instagram.com/p/BWNjjyYFxVx/)"),
        ("{{< youtube a/b?c >}}", "[Video on YouTube](https://www.youtube.com/watch?v=a%2Fb%3Fc)"),
    ],
)  # fmt: skip
def test_an_embed_becomes_a_plain_link(context, written, link):
    # the site's pages load nothing from other sites: no frame, no script
    assert convert(f"Watch:\n\n{written}\n\nDone.", context) == (f"Watch:\n\n{link}\n\nDone.", [])


@pytest.mark.parametrize("written", ["{{< gist spf13 >}}", "{{< youtube >}}", "{{< tweet >}}"])
def test_an_embed_missing_what_it_shows_is_hidden_and_reported(context, written):
    name = written.split()[1]
    warning = f"shortcode {{{{< {name} ...}}}} without what it shows: hidden in an HTML comment"
    assert convert(written, context) == (f"<!-- {written} -->", [(BODY_LINE, warning)])


def test_highlight_becomes_a_fenced_code_block_on_its_own_lines(context):
    body = 'Code: {{< highlight go "linenos=table" >}}\nfunc main() {}\n{{< /highlight >}} after'
    assert convert(body, context) == ("Code: \n```go\nfunc main() {}\n``` after", [])


def test_highlighted_code_keeps_shortcodes_written_in_it_as_written(context):
    body = "{{< highlight md >}}\n```\n{{</* youtube x */>}}\n```\n{{< /highlight >}}"
    assert convert(body, context) == ("````md\n```\n{{< youtube x >}}\n```\n````", [])


def test_a_highlight_never_closed_is_kept_and_reported(context):
    body = "Intro.\n{{< highlight go >}}\nfunc\n"
    assert convert(body, context) == (
        body, [(BODY_LINE + 1, "{{< highlight >}} without its {{< /highlight >}}: kept as written")]
    )  # fmt: skip


def test_figure_becomes_the_image_then_its_caption_in_italics(context):
    body = '{{< figure src="a.png" alt="Alt" caption="A **bold** one" >}}'
    assert convert(body, context) == ("![Alt](a.png)\n\n*A **bold** one*", [])


def test_figure_with_a_link_and_an_html_caption(context):
    body = '{{< figure src="/i/a.png" link="https://x.org" title="A <b>[bold]</b> one" >}}'
    assert convert(body, context) == (
        "[![A (bold) one](/i/a.png)](https://x.org)\n\n*A <b>[bold]</b> one*",
        [],
    )


def test_figure_without_src_is_hidden_and_reported_once(context):
    body = "{{< figure caption=x >}}"
    assert convert(body, context) == (
        f"<!-- {body} -->",
        [(BODY_LINE, "shortcode {{< figure ...}} without src: hidden in an HTML comment")],
    )


def test_ref_and_relref_become_links_to_the_converted_article(context):
    body = '[a]({{< ref "other.md" >}}) [b]({{< relref path="/posts/other#part" >}}) [c]({{% ref other %}})'
    assert convert(body, context) == ("[a](other.md) [b](other.md#part) [c](other.md)", [])


def test_a_ref_to_nothing_or_to_a_draft_keeps_its_text_with_a_warning_at_its_line(context):
    body = 'Intro.\n[gone]({{< ref "gone.md" >}})\n[wip]({{< relref "wip" >}})\n'
    converted, warnings = convert(body, context)
    assert converted == f"Intro.\n[gone]({MISSING})\n[wip]({MISSING})\n"
    assert warnings == [
        (BODY_LINE + 1, "{{< ref 'gone.md' >}}: no moved post or page is that one: a link to it keeps only "
                        "its text"),
        (BODY_LINE + 2, "{{< relref 'wip' >}}: it is a draft (content/posts/wip.md): a link would "
                        "publish its address: a link to it keeps only its text"),
    ]  # fmt: skip


def test_an_escaped_shortcode_is_shown_as_hugo_shows_it(context):
    body = "Write {{</* notice info */>}} or {{%/* x */%}}.\n"
    assert convert(body, context) == ("Write {{< notice info >}} or {{% x %}}.\n", [])


def test_an_inline_shortcode_is_left_out_with_its_template(context):
    body = "a {{< time.inline >}}{{ now }}{{< /time.inline >}} b {{< c.inline />}} d"
    converted, warnings = convert(body, context)
    assert converted == "a  b  d"
    assert [message for _, message in warnings] == [
        "inline shortcode {{< time.inline >}} (a template of the old theme's) left out",
        "inline shortcode {{< c.inline >}} (a template of the old theme's) left out",
    ]


def test_shortcodes_in_code_are_still_read_as_hugo_reads_them(context):
    # Hugo renders shortcodes in fenced code and code spans too (hence its `{{</* */>}}`); one with
    # nothing to become stays as written there, where a comment would be shown as text
    body = "```\n{{< youtube abc >}}\n```\n`{{< box >}}`"
    assert convert(body, context) == (
        "```\n[Video on YouTube](https://www.youtube.com/watch?v=abc)\n```\n`{{< box >}}`",
        [(BODY_LINE + 3, "shortcode {{< box ...}} has no equivalent here: kept as written (in code)")],
    )


@pytest.mark.parametrize(
    "body",
    [
        "Intro.\n\n```\n{{% notice tip %}}\nx\n{{% /notice %}}\n```\n",
        "Intro.\n\n    {{< details >}}\n    x\n    {{< /details >}}\n",  # indented code
        "- a list\n\n  ~~~\n  {% x %} {{< x >}} {{< /x >}}\n  ~~~\n",  # fenced in a list item
    ],
)
def test_what_is_never_converted_in_code(context, body):
    converted, warnings = convert(body, context)
    assert converted == body
    assert warnings and all(message.endswith("kept as written (in code)") for _, message in warnings)


def test_a_single_shortcode_is_hidden_in_a_comment_at_its_line(context):
    body = "One.\n\n{{< Theme/Box >}}\n\nSee {{% icon mail %}} here.\n"
    assert convert(body, context) == (
        "One.\n\n<!-- {{< Theme/Box >}} -->\n\nSee <!-- {{% icon mail %}} --> here.\n",
        [(BODY_LINE + 2, "shortcode {{< Theme/Box ...}} has no equivalent here: hidden in an HTML comment"),
         (BODY_LINE + 4, "shortcode {{% icon ...}} has no equivalent here: hidden in an HTML comment")],
    )  # fmt: skip


def test_a_hidden_shortcode_opening_a_line_goes_to_its_end(context):
    # `<!-- x --> **a**` on a line of its own is an HTML block: its asterisks would be shown
    body = "{{< icon github >}} My **code**\n- {{< icon x >}} item\n"
    converted, _ = convert(body, context)
    assert converted == "My **code** <!-- {{< icon github >}} -->\n- item <!-- {{< icon x >}} -->\n"
    assert strip_tags(render(converted).html).split() == ["My", "code", "item"]


def test_a_comment_can_hold_any_shortcode(context):
    body = 'Text {{< x a="-->" b="\n\n" >}} more'
    converted, _ = convert(body, context)
    assert converted == 'Text <!-- {{< x a="--&gt;" b="\n" >}} --> more'
    assert strip_tags(render(converted).html).split() == ["Text", "more"]


def test_any_other_pair_keeps_its_text_without_its_tags(context):
    body = "One.\n\n{{< columns >}}\nLeft **side**.\n{{< /columns >}}\nTwo {{% mark %}}hi{{% /mark %}}.\n"
    assert convert(body, context) == (
        "One.\n\n\nLeft **side**.\n\nTwo hi.\n",
        [(BODY_LINE + 2, f"shortcode {{{{< columns ...}}}} {DROPPED}"),
         (BODY_LINE + 5, f"shortcode {{{{% mark ...}}}} {DROPPED}")],
    )  # fmt: skip


def test_pairs_of_one_name_nest_and_an_unclosed_one_is_a_single_one(context):
    body = "{{< box >}}a {{< box >}}b{{< /box >}} c{{< /box >}} {{< box >}} d"
    converted, warnings = convert(body, context)
    assert converted == "a b c <!-- {{< box >}} --> d"
    assert len(warnings) == 3


def test_a_callout_never_closed_is_a_single_shortcode(context):
    assert convert("{{< notice tip >}}\nText.", context) == (
        "<!-- {{< notice tip >}} -->\nText.",
        [(BODY_LINE, "shortcode {{< notice ...}} has no equivalent here: hidden in an HTML comment")],
    )


def test_a_closing_with_no_opening_is_hidden(context):
    assert convert("a {{< /gone >}}", context) == (
        "a <!-- {{< /gone >}} -->",
        [(BODY_LINE, "shortcode {{< /gone ...}} has no equivalent here: hidden in an HTML comment")],
    )


def test_details_becomes_the_html_element_its_inside_still_markdown(context):
    body = (
        'Before.\n{{< details summary="The *long* story" open=true >}}\nIt was **bold**.\n{{< /details >}}\n'
        "After."
    )
    converted, warnings = convert(body, context)
    assert converted == (
        "Before.\n\n<details open>\n<summary>The *long* story</summary>\n\nIt was **bold**.\n\n</details>\n\n"
        "After."
    )
    assert warnings == []
    assert render(converted).html == (
        "<p>Before.</p>\n<details open>\n<summary>The *long* story</summary>\n"
        "<p>It was <strong>bold</strong>.</p>\n</details>\n<p>After.</p>\n"
    )


def test_details_with_no_summary_is_titled_as_hugo_titles_it(context):
    converted, _ = convert("{{< details >}}{{< /details >}}", context)
    assert converted == "<details>\n<summary>Details</summary>\n</details>"


@pytest.mark.parametrize(
    "body, callout",
    [
        ('{{% notice warning "Mind the blade" %}}\nUnplug it.\n{{% /notice %}}',
         "> [!WARNING]\n> **Mind the blade**\n>\n> Unplug it."),
        ("{{% notice style=tip title=Hint %}}\nUnplug it.\n{{% /notice %}}",
         "> [!TIP]\n> **Hint**\n>\n> Unplug it."),
        ('{{< admonition type=danger title="Hot" open=false >}}\nUnplug it.\n{{< /admonition >}}',
         "> [!CAUTION]\n> **Hot**\n>\n> Unplug it."),
        ("{{< admonition abstract >}}\nUnplug it.\n{{< /admonition >}}", "> [!NOTE]\n> Unplug it."),
        ('{{% alert title="Note" color="info" %}}\nUnplug it.\n{{% /alert %}}',
         "> [!NOTE]\n> **Note**\n>\n> Unplug it."),
        ('{{< callout type="error" >}}\nUnplug it.\n{{< /callout >}}', "> [!CAUTION]\n> Unplug it."),
        ("{{< hint important >}}Unplug it.{{< /hint >}}", "> [!IMPORTANT]\n> Unplug it."),
    ],
)  # fmt: skip
def test_a_themes_callout_becomes_an_alert(context, body, callout):
    assert convert(f"Intro.\n{body}\nAfter.", context) == (f"Intro.\n\n{callout}\n\nAfter.", [])


def test_a_callout_keeps_its_paragraphs_and_what_it_holds_converted(context):
    body = "{{< notice tip >}}\nOne.\n\n{{< youtube abc >}}\n{{< /notice >}}\n"
    converted, _ = convert(body, context)
    assert converted == "> [!TIP]\n> One.\n>\n> [Video on YouTube](https://www.youtube.com/watch?v=abc)\n"
    assert 'class="markdown-alert markdown-alert-tip"' in render(converted).html


@pytest.mark.parametrize(
    "written, value",
    [
        ('{{< param "colour" >}}', "teal"),  # the page's own
        ("{{< param colour >}}", "teal"),
        ("{{% param shop.Name %}}", "Sawdust & Co"),  # dotted, in any case
        ("{{< param name=size >}}", "12"),  # the page's `params`
        ("{{< param enabled >}}", "false"),
        ("{{< param motto >}}", "Measure twice"),  # the site's
    ],
)
def test_param_becomes_the_pages_value_else_the_sites(context, written, value):
    post = post_of("content/posts/this.md", written)
    post.fields = {
        "Colour": "teal",
        "shop": {"name": "Sawdust & Co"},
        "params": {"size": 12},
        "enabled": False,
    }
    site = {"motto": "Measure twice", "colour": "grey"}
    assert shortcodes.convert(post, written, context, site) == value and post.warnings == []


def test_param_naming_nothing_is_hidden(context):
    body = "{{< param missing >}} {{< param shop >}}"
    post = post_of("content/posts/this.md", body)
    post.fields = {"shop": {"name": "x"}}  # a mapping: nothing Hugo would print as text
    assert (
        shortcodes.convert(post, body, context, {})
        == "<!-- {{< param missing >}} --> <!-- {{< param shop >}} -->"
    )
    assert [message for _, message in post.warnings] == [
        "shortcode {{< param ...}} names no value of the page's front matter nor of the site's params: "
        "hidden in an HTML comment"
    ] * 2


@pytest.mark.parametrize(
    "body",
    [
        "",
        "No shortcode, {{ a Go template }} and {< braces >}.\n",
        "{{< never closed\n",
        "Ünïcode 日本語 {{<\n",
    ],
)
def test_what_is_no_shortcode_is_kept_byte_for_byte(context, body):
    assert convert(body, context) == (body, [])


def test_arguments_positional_and_named_with_their_quotes_removed():
    assert shortcodes.arguments('a "b c" `d e` \'f\' Key="say \\"hi\\"" n=1') == (
        ["a", "b c", "d e", "f"], {"key": 'say "hi"', "n": "1"},
    )  # fmt: skip


def test_unclosed_shortcodes_take_linear_time(context):
    body = "{{< z " * 50_000 + "{{</* y " * 50_000 + "{{< highlight go >}}\n" * 20_000
    start = time.perf_counter()
    converted, _ = convert(body, context)
    assert converted.replace("<!-- ", "").replace(" -->", "") == body  # one shortcode, to the first >}}
    assert time.perf_counter() - start < 2
