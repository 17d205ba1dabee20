"""`manage.py import_from`: the sites under sites/ are written in the shapes each generator's own
documentation gives (front matter, bundles, shortcodes, Liquid, permalinks); the texts are ours."""

import io
import shutil

import pytest
import yaml
from django.core.management import CommandError, call_command

from portfolio.content.importer import import_content
from portfolio.content.models import Article
from tests.content_builder import write_content
from tests.export.conftest import tree

from .helpers import POST, SITES, move


def article(files, slug):
    return files[f"articles/{slug}.md"].decode()


def test_hugo(tmp_path):
    report, files = move("hugo", SITES / "hugo", tmp_path / "dest")
    assert sorted(name for name in files if name.startswith("articles/")) == [
        "articles/bundle-post.md", "articles/draft-post.md", "articles/first-light.fr.md",
        "articles/first-light.md", "articles/json-note.md", "articles/toml-post.md",
    ]  # fmt: skip
    assert "skipped    content/posts/_index.md: a section's list page, not a post" in report
    # A translation comes in beside its original (the config names no language: any `.xx`), at
    # its old address under /fr/; site.yaml's languages list it after the default.
    assert "converted  content/posts/first-light.fr.md -> articles/first-light.fr.md" in report
    assert files["articles/first-light.fr.md"].decode() == (
        '---\ntitle: "Première lumière"\ndescription: "Le miroir est revenu."\ndate: 2021-03-14\n'
        'aliases:\n  - "/fr/posts/first-light/"\n---\nLe miroir est revenu.\n'
    )
    assert files["site.yaml"].decode().endswith('languages:\n  - code: "en"\n  - code: "fr"\n')
    # Outside the main sections: a standalone page.
    assert "converted  content/about.md -> pages/about.md" in report
    assert files["pages/about.md"].decode() == (
        '---\ntitle: "About"\ndescription: "I build things in a shed."\n---\nI build things in a shed.\n'
    )
    assert (
        "content/posts/bundle-post/notes.md: a file of the page bundle content/posts/bundle-post/" in report
    )

    first = article(files, "first-light")
    assert 'title: "First light"\n' in first
    assert "date: 2021-03-14\n" in first  # the date as written, not moved to UTC
    assert 'tags: ["astronomy", "Gear", "Workshop"]' in first  # tags, then categories
    assert "<!--more-->" not in first
    assert "```python\ndef focus(steps):\n    return steps * 2\n```" in first
    assert "[Video on YouTube](https://www.youtube.com/watch?v=dQw4w9WgXcQ)" in first
    assert "[the build log](bundle-post.md)" in first  # {{< ref >}} to the bundle's article
    assert 'series: "Telescopes"\n' in first and "series" not in report  # PaperMod's series, kept
    # The page's address, then its aliases (a relative one taken from the page's folder).
    assert (
        'aliases:\n  - "/posts/first-light/"\n  - "/old/first-light/"\n  - "/posts/first-light-old"\n'
        in first
    )
    assert '  - "/2020/11/a-note-in-json/"' in article(files, "json-note")  # the config's permalinks

    toml = article(files, "toml-post")
    assert 'description: "Grit sizes, times and the one mistake I keep making."' in toml
    assert (
        "![A chart of grit sizes](../media/toml-post/grit-chart.png)\n\n*Grits I use, coarse to fine*" in toml
    )
    assert "[Gist mirasol/6a2c1d9e0f](https://gist.github.com/mirasol/6a2c1d9e0f)" in toml
    assert "[Post by @mirasol on X](https://x.com/mirasol/status/1453110110599868418)" in toml
    assert "`{{< youtube ID >}}`" in toml  # an escaped shortcode is shown as written
    assert "> [!WARNING]\n> Wear a mask.\n" in toml  # a theme's notice, the site's alert
    assert "notice" not in report
    assert "[first light](first-light.md)" in toml

    bundle = article(files, "bundle-post")
    assert "Table of contents" not in bundle
    assert "image: bundle-post/diagram.png" in bundle
    assert (
        files["media/bundle-post/diagram.png"]
        == (SITES / "hugo/content/posts/bundle-post/diagram.png").read_bytes()
    )
    assert "draft: true" in article(files, "draft-post")
    assert 'title: "Field Notes"' in files["site.yaml"].decode()
    assert 'imageHosts:\n  - "res.cloudinary.com"' in files["site.yaml"].decode()


def test_astro(tmp_path):
    report, files = move("astro", SITES / "astro", tmp_path / "dest")
    assert "src/data/blog/components.mdx: MDX" in report
    press = article(files, "setting-up-the-press")
    assert "## Table of contents" not in press  # AstroPaper's empty heading, filled by its theme
    assert "date: 2024-01-12\n" in press
    assert "image: setting-up-the-press/press.png" in press  # ogImage, a local file
    assert "![The press, front view](../media/setting-up-the-press/press.png)" in press
    assert "![Banner](../media/setting-up-the-press/banner.png)" in press  # from public/
    assert "dropped: author, featured, modDatetime" in report
    # Links to other posts, by their old address or the old site's absolute URL, go to the articles.
    assert (
        "[typography examples](tailwind-typography.md), then\n[the release notes](paper-trail-2.md)" in press
    )
    assert "draft: true" in article(files, "the-old-slug")  # its `slug:` names the file
    assert "aliases" not in article(files, "the-old-slug")  # a draft had no address
    # /posts/<path under the blog folder>/, folders starting with `_` left out.
    assert '  - "/posts/examples/tailwind-typography/"' in article(files, "tailwind-typography")
    assert '  - "/posts/paper-trail-2/"' in article(files, "paper-trail-2")
    assert 'url: "https://paper.example.dev"' in files["site.yaml"].decode()
    assert '  - "images.pexels.com"' in files["site.yaml"].decode()  # a raw <img>'s host


def test_jekyll(tmp_path):
    report, files = move("jekyll", SITES / "jekyll", tmp_path / "dest")
    welcome = article(files, "welcome-to-jekyll")
    assert 'tags: ["jekyll", "update"]' in welcome  # categories
    assert '```ruby\ndef print_hi(name)\n  puts "Hi, #{name}"\nend\n```' in welcome
    assert "![The bench](../media/welcome-to-jekyll/bench.png)" in welcome  # {{ site.baseurl }}
    assert "[the relay board](relay-board.md)" in welcome  # {% post_url %}
    assert "Templates look like {{ this }}." in welcome  # {% raw %}
    assert (
        'warning: line 21: Liquid {% include note.html content="Mind the iron." %} has no equivalent here: '
        "hidden in an HTML comment" in report
    )
    assert '<!-- {% include note.html content="Mind the iron." %} -->' in welcome
    # Jekyll's default permalink (categories, date, title and .html), a post's own, redirect_from.
    assert '  - "/jekyll/update/2014/05/12/welcome-to-jekyll.html"' in welcome
    assert '  - "/blog/2016/in-a-category/"' in article(files, "in-a-category")
    relay = article(files, "relay-board")
    assert 'aliases:\n  - "/2015/01/01/relay-board.html"\n  - "/relay-board/"\n---' in relay
    # Its redirect_from names the welcome post's address: the first claim keeps it, and says so.
    assert "'/jekyll/update/2014/05/12/welcome-to-jekyll.html' is also _posts/2014-05-12-welcome" in report
    assert 'description: "Four relays, one microcontroller, no smoke."' in relay  # excerpt
    assert "![Wiring](../media/relay-board/wiring.png)" in relay  # relative_url filter
    assert "draft: true" in article(files, "not-public")  # published: false
    assert "draft: true" in article(files, "an-idea")  # _drafts/
    assert "_posts/notes.md: not named YYYY-MM-DD-title" in report
    assert 'author: "Sam Ortiz"' in files["site.yaml"].decode()


@pytest.mark.django_db
@pytest.mark.parametrize("generator", ["astro", "hugo", "jekyll"])
def test_the_moved_folder_imports(generator, tmp_path, settings):
    move(generator, SITES / generator, tmp_path / "dest")
    import_content(tmp_path / "dest", workers=1)
    originals = [path for path in (tmp_path / "dest/articles").glob("*.md") if path.stem.count(".") == 0]
    assert Article.objects.count() == len(originals)
    if generator == "astro":  # ```ts title="src/config.ts" is code, not a paragraph
        body = Article.objects.get(slug="setting-up-the-press").body_html
        assert '<div class="highlight"><pre tabindex="0">' in body and 'title="src/config.ts"' not in body


@pytest.mark.parametrize("generator", ["astro", "hugo", "jekyll"])
def test_moving_again_writes_the_same_bytes(generator, tmp_path):
    _, first = move(generator, SITES / generator, tmp_path / "dest")
    report, second = move(generator, SITES / generator, tmp_path / "dest")
    assert second == first
    assert report.rstrip().endswith("0 files written to " + str(tmp_path / "dest") + ".")


def test_an_unreadable_post_stops_the_move_and_writes_nothing(tmp_path):
    source = shutil.copytree(SITES / "hugo", tmp_path / "hugo")
    (source / "content/posts/broken.md").write_text("---\ntitle: [unclosed\n---\nText\n")
    with pytest.raises(CommandError, match="1 file could not be converted; nothing was written"):
        move("hugo", source, tmp_path / "new")
    assert not (tmp_path / "new").exists()

    existing = write_content(tmp_path / "existing")
    before = tree(existing)
    out = io.StringIO()
    with pytest.raises(CommandError):
        call_command("import_from", "hugo", str(source), "--into", str(existing), stdout=out, stderr=out)
    assert "failed     content/posts/broken.md: invalid YAML front matter at line 3" in out.getvalue()
    assert tree(existing) == before


@pytest.mark.parametrize(
    "generator, expected",
    [
        ("astro", "is not an Astro blog: it has neither src/data/blog nor src/content/blog/"),
        ("hugo", "is not a Hugo site: it has no content/ folder"),
        ("jekyll", "is not a Jekyll site: it has no _config.yml and no _posts/ folder"),
    ],
)
def test_a_folder_of_another_kind_is_one_line(generator, expected, tmp_path):
    (tmp_path / "README.md").write_text("not a site\n")
    with pytest.raises(CommandError) as caught:
        move(generator, tmp_path, tmp_path / "dest")
    assert expected in str(caught.value) and "\n" not in str(caught.value)


def test_an_existing_folder_is_added_to(tmp_path):
    dest = write_content(tmp_path / "content")
    site_before = (dest / "site.yaml").read_text()
    (dest / "articles/first-light.md").write_text(
        '---\ntitle: "Another first light"\ndescription: "Mine."\ndate: 2020-01-01\n---\nMine.\n'
    )
    report, files = move("hugo", SITES / "hugo", dest)
    assert "its slug 'first-light' is another article's: written as 'first-light-2'" in report
    assert article(files, "first-light").startswith('---\ntitle: "Another first light"')
    assert 'title: "First light"' in article(files, "first-light-2")
    site = files["site.yaml"].decode()
    assert site.startswith(site_before[: site_before.index("imageHosts:")])  # the rest as it was
    hosts = yaml.safe_load(site)["imageHosts"]
    assert hosts == [*yaml.safe_load(site_before)["imageHosts"], "res.cloudinary.com"]
    assert "stack.yaml" not in report  # it has one


@pytest.mark.django_db
def test_astro_i18n_folders_come_in_as_translations(tmp_path, settings):
    report, files = move("astro", SITES / "astro-i18n", tmp_path / "dest")
    assert sorted(name for name in files if name.startswith("articles/")) == [
        "articles/first-steps.fr.md", "articles/first-steps.ja.md", "articles/first-steps.md",
    ]  # fmt: skip
    # French is written `{ path: "french", codes: ["fr", "fr-CA"] }`: its folder and its old
    # addresses are the path's, its language the first code.
    assert "converted  src/content/blog/french/first-steps.md -> articles/first-steps.fr.md" in report
    assert (
        "skipped    src/content/blog/french/only-in-french.md: a translation (fr) of no moved post or "
        "page: move it by hand" in report
    )
    assert '  - "/blog/first-steps/"' in files["articles/first-steps.md"].decode()  # the default's
    french = files["articles/first-steps.fr.md"].decode()
    assert french.startswith('---\ntitle: "Premiers pas"\ndescription: "Là où le carnet commence."\n')
    assert '  - "/french/blog/first-steps/"' in french  # its old address, under its locale's path
    assert '  - "/ja/blog/first-steps/"' in files["articles/first-steps.ja.md"].decode()
    assert "date: 2024-08-26" in files["articles/first-steps.ja.md"].decode()
    assert (
        files["site.yaml"].decode().endswith('languages:\n  - code: "en"\n  - code: "fr"\n  - code: "ja"\n')
    )
    import_content(tmp_path / "dest", workers=1)  # it imports as it is
    assert Article.objects.count() == 1


def test_hugo_language_menus_as_far_as_one_header_says_them(tmp_path):
    source = tmp_path / "hugo"
    (source / "content/posts").mkdir(parents=True)
    (source / "config/_default").mkdir(parents=True)
    (source / "hugo.toml").write_text(
        'baseURL = "https://cups.example/"\ndefaultContentLanguage = "en"\n'
        '[params]\nmainSections = ["posts"]\n'
        "[languages.en]\nweight = 1\n[languages.fr]\nweight = 2\n"
        '[[languages.fr.menu.main]]\npageRef = "/colophon"\nweight = 1\n'
    )
    # The default language's own menu, in a file of its own: Hugo reads it for English only.
    (source / "config/_default/menus.en.yaml").write_text(
        "main:\n  - pageRef: /about\n    weight: 5\n  - url: /now/\n    weight: 6\n"
    )
    (source / "content/posts/cup.md").write_text(POST.format(title="Cup", body="A cup."))
    for name, title in (
        ("about", "About"),
        ("about.fr", "À propos"),
        ("now", "Now"),
        ("colophon", "Colophon"),
    ):
        (source / f"content/{name}.md").write_text(f"---\ntitle: {title}\n---\n{title}.\n")
    report, files = move("hugo", source, tmp_path / "dest")
    page = {name: files[f"pages/{name}.md"].decode() for name in ("about", "about.fr", "now", "colophon")}
    assert "nav: true\norder: 5\n" in page["about"] and "nav: true\norder: 6\n" in page["now"]
    assert "nav: true\norder: 1\n" in page["colophon"]  # only the French menu lists it
    assert "nav" not in page["about.fr"]
    assert (
        "content/colophon.md -> pages/colophon.md\n           warning: in the fr menu only (the config's "
        "languages.fr): the site's header is one for every language, and lists it in every language"
    ) in report
    # Left out of the French menu: said on the translation, else on the original.
    assert (
        "content/about.fr.md -> pages/about.fr.md\n           warning: not in the fr menu (the config's "
        "languages.fr): the site's header is one for every language, and lists it in fr too"
    ) in report
    assert "content/now.md -> pages/now.md\n           warning: not in the fr menu" in report


@pytest.mark.django_db
@pytest.mark.parametrize("generator", ["hugo", "jekyll"])
def test_links_to_a_headings_own_id_follow_it_into_the_rendered_page(generator, tmp_path):
    # `## On Linux {#linux}`: the id the site renders the heading with, whatever links to it (the
    # post itself, another post at its old address or through a ref), and the heading's text as
    # written, no `{#linux}` shown.
    source = tmp_path / "site"
    setup = "Start [here](#linux).\n\n## On Linux {#linux}\n\nOne.\n\n## On Linux {#linux-again}\n\nTwo.\n"
    if generator == "jekyll":
        (source / "_posts").mkdir(parents=True)
        (source / "_posts/2020-01-01-setup.md").write_text(POST.format(title="Setup", body=setup))
        other = (
            "[Linux](/2020/01/01/setup.html#linux), [again]({% post_url 2020-01-01-setup %}#linux-again), "
            "[relative](../../../2020/01/01/setup.html#linux), [kept](/2020/01/01/setup.html#nothing). "
            '<a href="/2020/01/01/setup.html#linux">HTML</a>.'
        )
        (source / "_posts/2020-02-01-other.md").write_text(POST.format(title="Other", body=other))
    else:
        (source / "content/posts").mkdir(parents=True)
        (source / "content/posts/setup.md").write_text(POST.format(title="Setup", body=setup))
        other = (
            '[Linux](/posts/setup/#linux), [again]({{< ref "setup#linux-again" >}}), '
            "[relative](../setup/#linux), [kept](/posts/setup/#nothing). "
            '<a href="/posts/setup/#linux">HTML</a>.'
        )
        (source / "content/posts/other.md").write_text(POST.format(title="Other", body=other))
    report, files = move(generator, source, tmp_path / "dest")
    assert "warning:" not in report, report
    assert article(files, "setup").endswith(
        "Start [here](#on-linux).\n\n## On Linux\n\nOne.\n\n## On Linux\n\nTwo.\n"
    )
    assert article(files, "other").endswith(
        "[Linux](setup.md#on-linux), [again](setup.md#on-linux_1), [relative](setup.md#on-linux), "
        '[kept](setup.md#nothing). <a href="/articles/setup#on-linux">HTML</a>.\n'
    )
    import_content(tmp_path / "dest", workers=1)
    html = Article.objects.get(slug="setup").body_html
    assert '<h2 id="on-linux">On Linux<a' in html and '<h2 id="on-linux_1">On Linux<a' in html
    assert '<a href="#on-linux">here</a>' in html
    other = Article.objects.get(slug="other").body_html
    assert 'href="/articles/setup#on-linux">Linux' in other
    assert 'href="/articles/setup#on-linux_1">again' in other
    assert '<a href="/articles/setup#on-linux">HTML</a>' in other  # raw HTML: the address published


def test_hugo_titles_with_punctuation_keep_the_addresses_hugo_gave_them(tmp_path):
    """`:title` made a path as Hugo makes it: `Tips - and tricks` was /2020/tips-and-tricks/, and
    links written to those addresses (absolute or relative) find the posts."""
    source = tmp_path / "hugo"
    (source / "content/posts").mkdir(parents=True)
    (source / "hugo.toml").write_text(
        'baseURL = "https://t.example/"\n[permalinks]\nposts = "/:year/:title/"\n'
    )
    (source / "content/posts/tips.md").write_text(
        POST.format(title="Tips - and tricks", body="See [the Q&A](/2020/q-a-the-2024-edition/).")
    )
    (source / "content/posts/qa.md").write_text(
        POST.format(title="Q & A: the 2024 edition", body="Back to [tips](../tips-and-tricks/).")
    )
    report, files = move("hugo", source, tmp_path / "dest")
    assert "warning:" not in report
    assert '  - "/2020/tips-and-tricks/"' in article(files, "tips")
    assert '  - "/2020/q-a-the-2024-edition/"' in article(files, "qa")
    assert "See [the Q&A](qa.md)." in article(files, "tips")
    assert "Back to [tips](tips.md)." in article(files, "qa")
