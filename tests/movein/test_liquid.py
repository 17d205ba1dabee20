"""liquid.py: the Liquid of a Jekyll post's body converted as docs/moving-in.md's table says
(`highlight`, `raw`, `post_url`, `link`, the site's base URL), every other tag hidden in an HTML
comment (as written only in code) and reported with its line of the file."""

import time
from pathlib import Path

import pytest
from django.utils.html import strip_tags

from portfolio.content.markdown import render
from portfolio.movein import liquid
from portfolio.movein.convert import MISSING, Context
from portfolio.movein.posts import Post

BODY_LINE = 5  # the body starts on the file's 5th line: a warning at its first line says 5
HIDDEN = "has no equivalent here: hidden in an HTML comment"


def post_of(rel, body="", draft=False):
    name = Path(rel).stem.split("-", 3)[-1]  # Jekyll's name: the file's without its date
    return Post(rel=rel, path=Path(rel), name=name, fields={}, body=body, body_line=BODY_LINE, draft=draft)


@pytest.fixture
def context():
    """The moved posts a body may link to: one published post, one draft."""
    found = Context()
    found.add_names(post_of("_posts/2019-01-01-other.md"), "other", None)
    found.add_names(post_of("_drafts/wip.md", draft=True), "wip", None)
    return found


def convert(body, context):
    """(converted body, [(file line, warning)]) of a real Post."""
    post = post_of("_posts/2020-01-01-this.md", body)
    return liquid.convert(post, body, context), post.warnings


def test_highlight_becomes_a_fenced_code_block(context):
    body = "Code:\n{% highlight ruby linenos %}\nputs 1\n{% endhighlight %}\nAfter.\n"
    assert convert(body, context) == ("Code:\n```ruby\nputs 1\n```\nAfter.\n", [])


def test_liquid_in_raw_inside_highlight_is_the_code_verbatim(context):
    body = "{% highlight liquid %}{% raw %}{{ content }} {% if x %}{% endraw %}{% endhighlight %}"
    assert convert(body, context) == ("```liquid\n{{ content }} {% if x %}\n```", [])


def test_highlighted_code_holding_a_fence_gets_a_longer_one(context):
    body = "{%- highlight md -%}\n```\nx\n```\n{%- endhighlight -%}"
    assert convert(body, context) == ("````md\n```\nx\n```\n````", [])


def test_raw_is_its_text_as_written(context):
    body = "{% raw %}{{ site.baseurl }} and {% include x.html %}{% endraw %}"
    assert convert(body, context) == ("{{ site.baseurl }} and {% include x.html %}", [])


def test_a_comment_is_dropped(context):
    assert convert("{% comment %}draft notes{% endcomment %}\nKept.\n", context) == ("Kept.\n", [])


def test_the_site_url_becomes_the_path_alone(context):
    body = (
        "![a]({{ site.baseurl }}/a.png) [b]({{site.url}}/b/) {{ '/c.pdf' | relative_url }} "
        '{{ "/d" | absolute_url }}'
    )
    assert convert(body, context) == ("![a](/a.png) [b](/b/) /c.pdf /d", [])


def test_post_url_and_link_become_links_to_the_converted_article(context):
    body = "[o]({% post_url 2019-01-01-other %}) [p]({% link _posts/2019-01-01-other.md %})"
    assert convert(body, context) == ("[o](other.md) [p](other.md)", [])


def test_a_link_to_nothing_or_to_a_draft_keeps_its_text_with_a_warning_at_its_line(context):
    body = "Intro.\n\n[gone]({% post_url 2000-01-01-gone %})\n[wip]({% post_url wip %})\n"
    converted, warnings = convert(body, context)
    assert converted == f"Intro.\n\n[gone]({MISSING})\n[wip]({MISSING})\n"  # references.py keeps the text
    assert warnings == [
        (BODY_LINE + 2, "{% post_url 2000-01-01-gone %}: no moved post or page is that one: "
                        "a link to it keeps only its text"),
        (BODY_LINE + 3, "{% post_url wip %}: it is a draft (_drafts/wip.md): a link would publish its "
                        "address: a link to it keeps only its text"),
    ]  # fmt: skip


def test_any_other_tag_is_hidden_in_a_comment_and_reported_at_its_line(context):
    body = "{% include note.html %}\n\nTitle: {{ page.title }}\n{%- assign x = 1 -%}\n"
    converted, warnings = convert(body, context)
    assert converted == (
        "<!-- {% include note.html %} -->\n\nTitle: <!-- {{ page.title }} --> <!-- {%- assign x = 1 -%} -->\n"
    )  # the last tag alone on a line of the paragraph: at the end of the line before
    assert warnings == [
        (BODY_LINE, f"Liquid {{% include note.html %}} {HIDDEN}"),
        (BODY_LINE + 2, f"Liquid {{{{ page.title }}}} {HIDDEN}"),
        (BODY_LINE + 3, f"Liquid {{%- assign x = 1 -%}} {HIDDEN}"),
    ]
    assert strip_tags(render(converted).html).split() == ["Title:"]


def test_a_block_tag_keeps_what_it_holds(context):
    body = "{% if site.show %}\nShown **text**.\n{% endif %} After.\n"
    converted, _ = convert(body, context)
    assert converted == "<!-- {% if site.show %} -->\nShown **text**.\nAfter. <!-- {% endif %} -->\n"
    assert strip_tags(render(converted).html).split() == ["Shown", "text.", "After."]


def test_one_tag_written_twice_is_reported_at_each_of_its_lines(context):
    _, warnings = convert("{{ x }}\n{{ x }}\n", context)
    assert [line for line, _ in warnings] == [BODY_LINE, BODY_LINE + 1]


def test_a_long_tag_is_shortened_in_its_warning(context):
    tag = "{% include " + "a" * 100 + " %}"
    _, warnings = convert(tag, context)
    assert warnings == [(BODY_LINE, f"Liquid {tag[:57]}... {HIDDEN}")]


@pytest.mark.parametrize(
    "body",
    [
        "```\n{{ site.baseurl }}/x {% include y.html %}\n```\n",
        "Intro.\n\n    {{ site.baseurl }}/x {% include y.html %}\n",  # indented code
        "Use `{{ site.baseurl }}/x {% include y.html %}` there.\n",
    ],
)
def test_liquid_in_code_is_still_read_as_jekyll_reads_it_and_never_hidden(context, body):
    # Jekyll runs Liquid before markdown, in code too (hence `raw`); a comment would show there
    converted, warnings = convert(body, context)
    assert converted == body.replace("{{ site.baseurl }}", "")
    line = BODY_LINE + body.count("\n", 0, body.index("{%"))
    assert warnings == [(line, "Liquid {% include y.html %} in code: kept as written")]


@pytest.mark.parametrize(
    "body, converted, warned",
    [
        ("", "", []),
        ("No Liquid here, {not even} braces.\n", None, []),
        ("Ünïcode {{ café }} 日本語\n", "Ünïcode <!-- {{ café }} --> 日本語\n",
         [f"Liquid {{{{ café }}}} {HIDDEN}"]),
        ("{% raw %}never closed\n", "never closed <!-- {% raw %} -->\n", [f"Liquid {{% raw %}} {HIDDEN}"]),
        ("{% highlight c %}\nnever closed\n", "<!-- {% highlight c %} -->\nnever closed\n",
         [f"Liquid {{% highlight c %}} {HIDDEN}"]),
        ("{% include x\n", None, []),  # no tag: braces as written
        ("{{ x\n", None, []),
    ],
)  # fmt: skip
def test_unconverted_text_is_kept(context, body, converted, warned):
    found, warnings = convert(body, context)
    assert found == (body if converted is None else converted)
    assert [message for _, message in warnings] == warned


def test_tags_are_found_in_order_past_openings_never_closed():
    assert list(liquid.tags("{% a %} {{ b }} {% c")) == ["{% a %}", "{{ b }}"]
    assert list(liquid.tags("{{ x {% y %}")) == ["{% y %}"]  # the unclosed {{ hides nothing


def test_unclosed_openings_take_linear_time(context):
    body = "{% raw %}" * 50_000 + "{{ " * 50_000 + "{% " * 50_000
    start = time.perf_counter()
    converted, _ = convert(body, context)
    assert converted.count("<!-- {% raw %} -->") == 50_000  # each hidden, the openings after kept
    assert converted.startswith("{{ " * 50_000 + "{% " * 50_000)
    assert time.perf_counter() - start < 2


def test_many_tags_take_linear_time(context):
    body = "{% x %} a\n" * 50_000
    start = time.perf_counter()
    converted, warnings = convert(body, context)
    assert converted == "a <!-- {% x %} -->\n" * 50_000 and len(warnings) == 50_000
    assert time.perf_counter() - start < 3


def test_a_description_is_made_of_a_paragraph_with_nothing_hidden(tmp_path):
    """A paragraph with a hidden tag reads with a gap ("Its place is and..."): the next one is the
    description."""
    from .helpers import POST, move

    source = tmp_path / "site"
    (source / "_posts").mkdir(parents=True)
    (source / "_config.yml").write_text("title: Old\n")
    body = "Its place is {{ page.place | upcase }} and more.\n\nA whole paragraph of prose."
    (source / "_posts/2020-01-01-gap.md").write_text(POST.format(title="Gap", body=body))
    _, files = move("jekyll", source, tmp_path / "dest")
    assert 'description: "A whole paragraph of prose."' in files["articles/gap.md"].decode()


def test_a_value_of_the_front_matter_or_the_config_is_written_as_jekyll_showed_it(context):
    body = (
        "By {{ site.author.name }} in {{page.place}}, {{ page.year }}.\n"
        "{{ page.tags }} {{ site.title | upcase }} {{ page.missing }}\n\n"
        "    {{ page.place }} in code\n"
    )
    post = post_of("_posts/2020-01-01-this.md", body)
    post.fields.update(place="Lyon", year=2020, tags=["a"])
    config = {"title": "Old", "author": {"name": "Sam"}}
    converted = liquid.convert(post, body, context, config)
    assert converted.startswith("By Sam in Lyon, 2020. <!-- {{ page.tags }} -->")  # a list: hidden
    assert "<!-- {{ site.title | upcase }} --> <!-- {{ page.missing }} -->" in converted
    assert converted.endswith("    {{ page.place }} in code\n")  # code is shown as written
    assert [why for _, why in post.warnings if "page.place" in why] == [
        "Liquid {{ page.place }} in code: kept as written"
    ]
