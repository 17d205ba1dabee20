"""references.py's links: an old address is found under the old site's base path whether the link
writes it (`/notes/2021/...`) or leaves it out (`{{ site.baseurl }}/2021/...`, which liquid.py
makes the path alone); raw HTML's links are resolved as markdown's are, to the addresses the site
publishes; each warning names the line of the source file where its link is."""

from pathlib import Path

import pytest

from portfolio.movein.convert import Move

PNG = (Path(__file__).parent / "sites/jekyll/assets/img/bench.png").read_bytes()


def write(root, files):
    for rel, text in files.items():
        path = root / rel
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_bytes(text) if isinstance(text, bytes) else path.write_text(text)
    return root


def moved(generator, source):
    """{source rel: (the file written, its warnings)} of a real move's plan."""
    plan = Move(generator, source, source.parent / "dest").plan()
    by_detail = {detail: data.decode() for detail, data in plan.files.items()}
    return {o.rel: (by_detail.get(o.detail, o.detail), o.warnings) for o in plan.outcomes}


def body(text):
    return text.split("\n---\n", 1)[1]


@pytest.fixture
def jekyll(tmp_path):
    """A Jekyll site served under /notes (a GitHub project site's `baseurl`)."""
    return write(
        tmp_path / "old",
        {
            "_config.yml": 'url: "https://sam.example.com"\nbaseurl: "/notes"\n'
            "permalink: /:year/:month/:day/:title/\n",
            "_posts/2021-02-14-oolong-tasting.md": "---\ntitle: Oolong\n---\nRolled.\n",
            "_posts/2021-03-01-green-tea.md": "---\ntitle: Green\n---\nSteamed.\n",
            "_drafts/matcha.md": "---\ntitle: Matcha\n---\nWhisked.\n",
            "about.md": "---\ntitle: About\npermalink: /about/\n---\nSam.\n",
            "assets/img/kettle.png": PNG,
        },
    )


def links_post(jekyll, text):
    """(the converted body, the warnings) of a post of `jekyll` whose body is `text` (its line 4
    on: three lines of front matter)."""
    write(jekyll, {"_posts/2022-03-03-links.md": "---\ntitle: Links\n---\n" + text})
    written, warnings = moved("jekyll", jekyll)["_posts/2022-03-03-links.md"]
    return body(written), warnings


def test_every_form_of_a_link_to_an_old_address_under_the_baseurl_is_found(jekyll):
    converted, warnings = links_post(
        jekyll,
        "1. [a]({{ site.baseurl }}/2021/02/14/oolong-tasting/)\n"
        '2. [b]({{ "/2021/02/14/oolong-tasting/" | relative_url }})\n'
        "3. [c]({{ site.url }}{{ site.baseurl }}/2021/02/14/oolong-tasting/)\n"
        '4. [d]({{ "/2021/02/14/oolong-tasting/" | absolute_url }})\n'
        "5. [e]({% link _posts/2021-02-14-oolong-tasting.md %})\n"
        "6. [f]({{ site.baseurl }}{% link about.md %})\n"
        "7. [g](https://sam.example.com/notes/2021/02/14/oolong-tasting/)\n"
        "8. [h](../../../../2021/02/14/oolong-tasting/#steep)\n"
        "9. [i]({{ site.baseurl }}/about/)\n"
        "10. [j](/notes/2021/02/14/oolong-tasting.html)\n"
        "11. [k]({{ site.baseurl }}{% post_url 2021-03-01-green-tea %}#steep)\n"
        '12. [l]({{ "/about/" | relative_url }})\n'
        "13. [m](/2021/03/01/green-tea/)\n"  # as the old site wrote it, never served: found all the same
        "14. ![n]({{ site.baseurl }}/assets/img/kettle.png)\n",
    )
    assert converted == (
        "1. [a](oolong-tasting.md)\n2. [b](oolong-tasting.md)\n3. [c](oolong-tasting.md)\n"
        "4. [d](oolong-tasting.md)\n5. [e](oolong-tasting.md)\n6. [f](../pages/about.md)\n"
        "7. [g](oolong-tasting.md)\n8. [h](oolong-tasting.md#steep)\n9. [i](../pages/about.md)\n"
        "10. [j](oolong-tasting.md)\n11. [k](green-tea.md#steep)\n12. [l](../pages/about.md)\n"
        "13. [m](green-tea.md)\n14. ![n](../media/links/kettle.png)\n"
    )
    assert warnings == []


def test_the_sites_own_addresses_and_home_under_the_baseurl_are_the_sites(jekyll):
    converted, warnings = links_post(
        jekyll,
        "[home]({{ site.baseurl }}/) [also](/notes/) [tea]({{ site.baseurl }}/tags/tea/) "
        "[same](/notes/tags/tea/?x=1#top) [feed]({{ '/feed.xml' | relative_url }})\n",
    )
    assert converted == "[home](/) [also](/) [tea](/tags/tea/) [same](/tags/tea/?x=1#top) [feed](/feed.xml)\n"
    assert warnings == []


def test_a_link_to_nothing_warns_at_each_line_of_the_file_it_is_on(jekyll):
    converted, warnings = links_post(
        jekyll,
        "[a]({{ site.baseurl }}/2020/gone/)\n"
        '[b]({{ "/2020/gone/" | relative_url }})\n'
        "![missing](/notes/assets/none.png)\n"
        "[c]({{ site.baseurl }}/2020/gone/)\n"
        "[drafted]({{ site.baseurl }}/2021/02/14/oolong-tasting/) [matcha]({% post_url matcha %})\n"
        '<a href="{{ site.baseurl }}/2020/gone/">d</a>\n'
        "[e](/2020/gone/)\n",
    )
    assert converted == "a\nb\nmissing\nc\n[drafted](oolong-tasting.md) matcha\n<a>d</a>\ne\n"
    nothing = "nothing moved in is there (no post, page or file of the old site's); its text kept"
    assert warnings == [
        (8, "{% post_url matcha %}: it is a draft (_drafts/matcha.md): a link would publish its address: "
            "a link to it keeps only its text"),
        (4, f"link '/2020/gone/': {nothing}"),
        (5, f"link '/2020/gone/': {nothing}"),
        (6, "image '/notes/assets/none.png': no such file in the old site; left out (its text kept)"),
        (7, f"link '/2020/gone/': {nothing}"),
        (9, f"link '/2020/gone/': {nothing}"),  # the raw HTML's <a href>
        (10, f"link '/2020/gone/': {nothing}"),
    ]  # fmt: skip


def test_raw_html_links_are_resolved_to_the_addresses_the_site_publishes(jekyll):
    converted, warnings = links_post(
        jekyll,
        '<a href="{{ site.baseurl }}/2021/03/01/green-tea/">html link</a>\n'
        "<p>See <a class='x' href='/notes/about/#me' title=\"t\">me</a>, "
        '<a href="{% post_url 2021-02-14-oolong-tasting %}#steep">it</a>,\n'
        '<a href="https://example.org/notes/">out</a>, <a data-href="/2020/gone/" name="top">here</a>,\n'
        '<a\n  href="{{ site.baseurl }}/_drafts/matcha/"\n>nowhere</a> '
        '<a href="{{ site.baseurl }}/tags/tea/">tea</a> '
        '<img alt="k" src="{{ site.baseurl }}/assets/img/kettle.png"></p>\n'
        '`<a href="/2020/gone/">code</a>`\n',
    )
    assert converted == (
        '<a href="/articles/green-tea">html link</a>\n'
        "<p>See <a class='x' href='/about#me' title=\"t\">me</a>, "
        '<a href="/articles/oolong-tasting#steep">it</a>,\n'
        '<a href="https://example.org/notes/">out</a>, <a data-href="/2020/gone/" name="top">here</a>,\n'
        "<a\n>nowhere</a> "
        '<a href="/tags/tea/">tea</a> '
        '<img alt="k" src="/media/links/kettle.png"></p>\n'
        '`<a href="/2020/gone/">code</a>`\n'
    )
    assert warnings == [
        (8, "link '/_drafts/matcha/': nothing moved in is there (no post, page or file of the old "
            "site's); its text kept"),
    ]  # fmt: skip


def test_a_raw_html_link_to_a_draft_is_no_link(jekyll):
    write(jekyll, {"_config.yml": 'baseurl: "/notes"\npermalink: /:title/\n'})
    converted, warnings = links_post(jekyll, 'x\n<a href="{{ site.baseurl }}/matcha/">wait</a>\n')
    assert converted == "x\n<a>wait</a>\n"
    assert warnings == [
        (5, "link '/matcha/': it is a draft (_drafts/matcha.md): a link would publish its address; "
            "its text kept"),
    ]  # fmt: skip


def test_a_page_links_to_articles_and_pages_from_its_folder(jekyll):
    write(
        jekyll,
        {"colophon.md": "---\ntitle: Colophon\n---\n[a]({{ site.baseurl }}/2021/02/14/oolong-tasting/) "
                        '<a href="{{ site.baseurl }}/about/">b</a> [c](/about/)\n'},
    )  # fmt: skip
    written, warnings = moved("jekyll", jekyll)["colophon.md"]
    assert body(written) == (
        '[a](../articles/oolong-tasting.md) <a href="/about">b</a> [c](../pages/about.md)\n'
    )
    assert warnings == []


def test_hugo_reads_a_link_without_the_baseurls_path_under_it(tmp_path):
    source = write(
        tmp_path / "old",
        {
            "hugo.toml": 'baseURL = "https://example.org/field/"\ntitle = "F"\n',
            "content/posts/a.md": "---\ntitle: A\ndate: 2020-01-01\n---\n"
            '[b](/posts/b/) [again](/field/posts/b/#x) <a href="/posts/b/">raw</a> '
            "[home](/) [tags](/field/tags/) [none](/posts/none/)\n",
            "content/posts/b.md": "---\ntitle: B\ndate: 2020-01-02\n---\nB.\n",
        },
    )
    written, warnings = moved("hugo", source)["content/posts/a.md"]
    assert body(written) == (
        '[b](b.md) [again](b.md#x) <a href="/articles/b">raw</a> [home](/) [tags](/tags/) none\n'
    )
    assert warnings == [
        (5, "link '/posts/none/': nothing moved in is there (no post, page or file of the old site's); "
            "its text kept"),
    ]  # fmt: skip


def test_without_a_base_path_nothing_is_put_before_a_link(tmp_path):
    source = write(
        tmp_path / "old",
        {
            "_config.yml": "permalink: /:title/\n",
            "_posts/2021-02-14-tea.md": "---\ntitle: Tea\n---\n[me]({{ site.baseurl }}/tea/) "
            "[feed]({{ site.baseurl }}/feed.xml) <a href='{{ \"/tea/\" | relative_url }}'>raw</a>\n",
        },
    )
    written, warnings = moved("jekyll", source)["_posts/2021-02-14-tea.md"]
    assert body(written) == "[me](tea.md) [feed](/feed.xml) <a href='/articles/tea'>raw</a>\n"
    assert warnings == []


def test_warnings_are_in_the_order_of_their_references_whatever_their_kind(jekyll):
    # Images are read before links, raw HTML before markdown: the warnings are still in the order
    # of what they name in the file, each at its line (an image in a link's text, then the link).
    converted, warnings = links_post(
        jekyll,
        "[y](/2020/gone/) ![z](/none.png) <a href='/2020/gone/'>w</a>\n"
        "[![x](/none.png)](/2020/gone/) [v](/2020/gone/)\n",
    )
    assert converted == "y z <a>w</a>\nx v\n"
    assert [(line, message.split(":")[0]) for line, message in warnings] == [
        (4, "link '/2020/gone/'"), (4, "image '/none.png'"), (4, "link '/2020/gone/'"),
        (5, "image '/none.png'"), (5, "link '/2020/gone/'"), (5, "link '/2020/gone/'"),
    ]  # fmt: skip
