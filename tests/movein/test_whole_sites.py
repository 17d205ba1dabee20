"""Whole sites move in (issue 52): a theme's example site, a multilingual Hugo site, an Astro 5
content-layer blog, a Jekyll blog written with kramdown and one in two languages with
jekyll-polyglot, each in its generator's own layout (the texts are ours). Each builds with no hand
edit, and every old address, of an article or a page, is a 301 rule of the build's `_redirects`."""

import re

import pytest

from portfolio.content.aliases import spellings
from tests.export.conftest import distill_local

from .helpers import SITES, move

SITE_URL = "https://moved.example.org"
WHOLE_SITES = {
    "hugo-theme": "hugo",
    "hugo-multilingual": "hugo",
    "astro-content-layer": "astro",
    "jekyll-kramdown": "jekyll",
    "jekyll-polyglot": "jekyll",
}


def old_addresses(dest):
    """{old address: new page} of every path alias the move wrote, articles' and pages'."""
    found = {}
    for folder, prefix in (("articles", "/articles/"), ("pages", "/")):
        for item in sorted((dest / folder).glob("*.md")):
            text = item.read_text()
            if "\ndraft: true\n" in text:
                continue
            slug, _, language = item.stem.partition(".")  # a translation: under its language
            page = (f"/{language}" if language else "") + prefix + slug
            for alias in re.findall(r'^  - "(/.+)"$', text, re.M):
                found.update({spelling: page for spelling in spellings(alias)})
    return found


@pytest.fixture(scope="module", params=sorted(WHOLE_SITES))
def moved(request, tmp_path_factory):
    """(the site's name, the move's report, DEST's files, the built folder)."""
    root = tmp_path_factory.mktemp(request.param)
    report, files = move(WHOLE_SITES[request.param], SITES / request.param, root / "content")
    result = distill_local(root / "content", root / "site", root / "db.sqlite3", env={"SITE_URL": SITE_URL})
    assert result.returncode == 0, result.stdout + result.stderr
    return request.param, report, files, root


def test_the_moved_site_builds_and_every_old_address_moves(moved):
    name, _, _, root = moved
    addresses = old_addresses(root / "content")
    assert len(addresses) >= 4
    rules = (root / "site/_redirects").read_text().splitlines()
    for old, new in addresses.items():
        assert f"{old} {new} 301" in rules, old
    for page in (root / "content/pages").glob("*.md"):
        slug, _, language = page.stem.partition(".")  # a translation: under its language
        folder = root / "site" / language if language else root / "site"
        assert (folder / f"{slug}.html").exists() or (folder / slug / "index.html").exists(), page


def test_its_about_page_is_a_page(moved):
    name, report, files, _ = moved
    about = files["pages/about.md"].decode()
    assert about.startswith('---\ntitle: "About')
    assert not any(path.startswith("articles/about") for path in files)
    pages = sum(path.startswith("pages/") for path in files)
    assert re.search(rf": \d+ posts and {pages} pages? converted \(", report), report


def test_what_each_site_became(moved):
    name, report, files, root = moved
    text = {path: data.decode() for path, data in files.items() if path.endswith(".md")}
    if name == "hugo-theme":
        # The baseURL's path as written (no lower-casing), absolute aliases under it.
        faq = text["articles/stonecrop-faq.md"]
        assert '  - "/hugo-Stonecrop/posts/papermod/stonecrop-faq/"\n  - "/hugo-Stonecrop/faq/"' in faq
        math = text["articles/math-typesetting.md"]
        assert "[custom head](stonecrop-faq.md#custom-head--footer)" in math  # relative, with a fragment
        assert "What is coming is a secret, and\nthis page does not exist." in math  # a draft, nothing
        assert "The trip is [here](bundle-trip.md)." in math  # relref to a bundle
        assert "line 8: link '../../papermod/stonecrop-draft/': it is a draft" in report
        assert "line 9: {{< ref 'posts/nowhere' >}}: no moved post or page is that one" in report
        assert "nav: true\norder: 3\n" in text["pages/about.md"]  # in config/_default/menus.toml
        assert "[the FAQ](../articles/stonecrop-faq.md)" in text["pages/about.md"]
        assert "content/search.md: a page its theme made (layout 'search')" in report
        assert "image: bundle-trip/view.png" in text["articles/bundle-trip.md"]
        # Goldmark's heading attributes and definition lists: the id the site gives the heading,
        # which the other post's link to its old address follows, and the HTML list.
        faq = text["articles/stonecrop-faq.md"]
        assert "## Updating the theme\n" in faq
        assert "[updating](stonecrop-faq.md#updating-the-theme)" in math
        assert "heading attributes {#update .wide}: .wide dropped (a heading here has only its id)" in report
        assert "<dl>\n<dt>\n\n`extend_head.html`\n\n</dt>\n<dd>Yours: an update never writes it.</dd>" in faq
        built = (root / "site/articles/stonecrop-faq.html").read_text()
        assert '<h2 id="updating-the-theme">Updating the theme<a' in built
        assert "<dt>\n<p><code>extend_head.html</code></p>\n</dt>" in built
        assert (
            'href="/articles/stonecrop-faq#updating-the-theme"'
            in (root / "site/articles/math-typesetting.html").read_text()
        )
    elif name == "hugo-multilingual":
        # Translations come in beside their originals, with their old addresses under /<lang>/,
        # and site.yaml lists the languages, the config's default first.
        assert (
            "converted  content/post/tea-notes/index.zh-hant-tw.md -> articles/tea-notes.zh-hant-tw.md"
            in report
        )
        assert "converted  content/post/kettles.fr.md -> articles/kettles.fr.md" in report
        assert sorted(p for p in text if p.startswith("articles/")) == [
            "articles/kettles.fr.md",
            "articles/kettles.md",
            "articles/tea-notes.fr.md",
            "articles/tea-notes.md",
            "articles/tea-notes.zh-hant-tw.md",
        ]
        assert '  - "/fr/post/kettles/"' in text["articles/kettles.fr.md"]
        assert (
            files["site.yaml"]
            .decode()
            .endswith('languages:\n  - code: "en"\n  - code: "fr"\n  - code: "zh-hant-tw"\n')
        )
        assert sorted(p for p in text if p.startswith("pages/")) == [
            "pages/about.fr.md", "pages/about.md", "pages/links.md",
        ]  # fmt: skip
        # The languages' menus: the header is one for every language, so a page only the French
        # menu lists (config/_default/menus.fr.toml) is in it, said; the French menu's other
        # order (its translation's front matter) is said; the zh-hant-tw menu (languages.toml's
        # own) lists what the default's does, and nothing is said of it.
        assert "nav: true\norder: 1\n" in text["pages/about.md"]  # its front matter's menu
        assert "nav: true\norder: 1\n" in text["pages/links.md"]
        assert "nav" not in text["pages/about.fr.md"]  # a translation's place is its original's
        assert (
            "content/page/links.md -> pages/links.md\n           warning: in the fr menu only "
            "(config/_default/menus.fr.toml): the site's header is one for every language" in report
        )
        assert (
            "warning: the fr menu places it otherwise (weight 2, content/page/about/index.fr.md's front "
            "matter): the site's header has one order for every language: order 1 kept" in report
        )
        assert "zh-hant-tw menu" not in report and "dropped: menu" not in report
        assert "The [about page](../pages/about.md)" in text["articles/tea-notes.md"]
        assert "[the tea notes](tea-notes.md)" in text["articles/kettles.md"]
    elif name == "astro-content-layer":
        first = text["articles/first-steps.md"]  # an index.md, slugged by its folder
        assert "date: 2024-08-25\n" in first  # `published: 25 Aug 2024`
        assert 'description: "This is where the notebook starts."' in first  # prose, never code
        assert "image: first-steps/desk.png" in first
        # The route that renders the collection, under the config's `base`; a link is found with
        # the base written or left out.
        assert '  - "/quill/blog/first-steps/"' in first
        assert "Next: [the second post](second-post.md)." in first
        assert "> [!NOTE]\n> Everything here is plain text." in first  # an alert, as written
        assert "[quill-notes/quill](https://github.com/quill-notes/quill)" in first
        assert "> [!TIP]\n> **Keep it short**\n>\n> One idea per post." in first
        # Text directives: HTML elements where there are some, the label's text with a warning
        # naming the line where there is none, and never inside code.
        assert (
            'Save with <kbd>Ctrl</kbd>+<kbd>S</kbd>; the <abbr title="command-line interface">CLI</abbr>'
            " does the rest,\nat 10:30 or later, quietly. In a span: `:kbd[Esc]`." in first
        )
        assert "line 15: directive :sparkles[quietly] has no equivalent here: its text kept" in report
        second = text["articles/second-post.md"]
        assert "date: 2024-09-02" in second  # `publishDate: "Sep 2, 2024"`
        assert "[the first](first-steps.md), or the [about page](../pages/about.md)" in second
        assert (
            "content/posts/_unfinished.md: not matched by the writing collection's glob() pattern" in report
        )
    elif name == "jekyll-polyglot":
        # Each document's `lang`; a translation matched to its original by the address both have
        # once the language's segment is out (_posts/fr/, same name), or by `page_id`; at its old
        # address under /fr/. An original in English only was served under /fr/ too (polyglot's
        # fallback): that address moves as well. A post in French only is skipped, as Hugo's are.
        assert sorted(p for p in text if p.startswith("articles/")) == [
            "articles/knots-and-bends.fr.md", "articles/knots-and-bends.md", "articles/mooring-lines.md",
            "articles/reading-a-tide-table.fr.md", "articles/reading-a-tide-table.md",
        ]  # fmt: skip
        assert "_posts/2023-05-10-noeuds-et-ajuts.md -> articles/knots-and-bends.fr.md" in report
        tide = text["articles/reading-a-tide-table.fr.md"]
        assert tide.startswith('---\ntitle: "Lire un annuaire des marées"\n')
        assert '  - "/fr/2023/04/reading-a-tide-table/"' in tide
        assert "> [!NOTE]\n> L'eau monte" in tide  # kramdown, as in English
        assert "[les bonnes aussières](mooring-lines.md)" in tide
        assert '  - "/fr/2023/05/noeuds-et-ajuts/"' in text["articles/knots-and-bends.fr.md"]
        assert (
            '  - "/2023/06/mooring-lines/"\n  - "/fr/2023/06/mooring-lines/"'
            in text["articles/mooring-lines.md"]
        )
        assert (
            "skipped    _posts/fr/2023-07-14-feu-d-artifice.md: a translation (fr) of no moved post or page"
            in report
        )
        assert "skipped    fr/index.md: a language's home page" in report
        # The French about page at /fr/about/: its own address here, so it needs no alias.
        assert text["pages/about.fr.md"].startswith('---\ntitle: "À propos"\n')
        assert "aliases" not in text["pages/about.fr.md"] and "  dropped: " not in report
        assert files["site.yaml"].decode().endswith('languages:\n  - code: "en"\n  - code: "fr"\n')
    else:
        led = text["articles/blinking-an-led.md"]
        assert "{:" not in led and "TOC" not in led
        assert "> [!WARNING]\n> The resistor goes in series." in led
        assert "```liquid\n{{ content }}\n```" in led  # raw inside highlight, verbatim
        assert "a missing one." in led
        assert "line 18: {% post_url 2022-01-01-never-written %}: no moved post or page" in report
        assert 'description: "A datasheet helps."' in led  # the callout is not its prose
        button = text["articles/reading-a-button.md"]
        assert 'title: "Reading A Button"' in button  # Jekyll's title of an untitled post
        # kramdown's header id: the links to it, the post's own and another's, follow the id the
        # site gives the heading; a definition list is the HTML one; an abbreviation is dropped.
        assert "## Wiring it up\n" in led and "from [the wiring](#wiring-it-up):" in led
        assert "[LED post](blinking-an-led.md#wiring-it-up)" in button
        assert "<dl>\n<dt>Anode</dt>\n<dd>The long leg, to the resistor.</dd>\n<dt>Cathode</dt>" in led
        assert "*[LED]" not in led and "kramdown abbreviation *[LED] dropped" in report
        built = (root / "site/articles/blinking-an-led.html").read_text()
        assert (
            '<h2 id="wiring-it-up">Wiring it up<a' in built
            and '<a href="#wiring-it-up">the wiring</a>' in built
        )
        assert "<dt>Anode</dt>" in built
        assert (
            'href="/articles/blinking-an-led#wiring-it-up"'
            in (root / "site/articles/reading-a-button.html").read_text()
        )
        # Under the baseurl (/solder): written or not, and in raw HTML at the address the site
        # publishes (the build checks it).
        assert "[its page](blinking-an-led.md)" in button
        assert '<a href="/articles/blinking-an-led">this\none</a>' in button
        assert '<a href="/about">the about page</a>' in button
        assert '  - "/solder/2023/01/blinking-an-led/"' in led
        assert "archive.md: a page the old theme's Liquid fills" in report
        assert "index.md: the home page" in report
