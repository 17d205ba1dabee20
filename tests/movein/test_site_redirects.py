"""The old site's own addresses (its home under a base path, its feed, its posts' list) written into
DEST's site.yaml `redirects` by the move, links to them in posts pointed at the new ones, and the
301s of the moved site after a real import."""

import pytest

from portfolio.content.importer import import_content
from portfolio.movein.writer import with_redirects

from .helpers import POST, move

HUGO = 'baseURL = "https://example.org/blog/"\ntitle = "Old"\n[params]\n  mainSections = ["posts"]\n'
HUGO_POST = POST.format(
    title="Hello",
    body="All [posts](/blog/posts/), the [feed](https://example.org/blog/index.xml?x=1) and [home](/blog/).",
)


def hugo_site(source):
    (source / "content/posts").mkdir(parents=True)
    (source / "hugo.toml").write_text(HUGO)
    (source / "content/posts/hello.md").write_text(HUGO_POST)
    return source


def test_a_hugo_site_under_a_base_path(tmp_path, db, settings, client):
    report, files = move("hugo", hugo_site(tmp_path / "src"), tmp_path / "dest")
    assert (
        files["site.yaml"]
        .decode()
        .endswith(
            'redirects:\n  "/blog/": "/"\n  "/blog/index.xml": "/feed.xml"\n'
            '  "/blog/posts/": "/articles"\n  "/blog/posts/index.xml": "/feed.xml"\n'
        )
    )
    assert "site.yaml: redirects lists /blog/, /blog/index.xml, /blog/posts/, /blog/posts/index.xml" in report
    body = files["articles/hello.md"].decode()
    assert "All [posts](/articles), the [feed](/feed.xml?x=1) and [home](/)." in body
    settings.CONTENT_DIR = tmp_path / "dest"
    import_content(tmp_path / "dest", workers=1)
    moved = {"/blog/": "/", "/blog/index.xml": "/feed.xml", "/blog/posts": "/articles",
             "/blog/posts/index.xml": "/feed.xml", "/blog/posts/hello/": "/articles/hello"}  # fmt: skip
    for old, new in moved.items():
        response = client.get(old)
        assert (response.status_code, response["Location"]) == (301, new), old


JEKYLL = "title: Old\nurl: https://old.example\nbaseurl: /notes\nplugins:\n  - jekyll-feed\n"


def jekyll_site(source, config=JEKYLL):
    (source / "_posts").mkdir(parents=True)
    (source / "_config.yml").write_text(config)
    body = "Subscribe to [the feed]({{ site.baseurl }}/feed.xml)."
    (source / "_posts/2020-01-01-hello.md").write_text(POST.format(title="Hello", body=body))
    return source


def test_a_jekyll_site_with_jekyll_feed_into_a_dest_with_redirects(tmp_path, db, settings, client):
    """The owner's site.yaml keeps its text, its redirects and their comments; the move's are added,
    an old address it lists already (in another spelling) keeping the owner's."""
    dest = tmp_path / "dest"
    dest.mkdir()
    owner = (
        'title: "Mine"\ndescription: "Mine."\nauthor: "Me"\nurl: "https://mine.example"\n'
        "redirects:\n  # from the site before the old one\n  /old-home/: /\n  /notes: /articles\n"
        "# the end\n"
    )
    (dest / "site.yaml").write_text(owner)
    report, files = move("jekyll", jekyll_site(tmp_path / "src"), dest)
    assert files["site.yaml"].decode() == owner.replace(
        "/notes: /articles\n", '/notes: /articles\n  "/notes/feed.xml": "/feed.xml"\n'
    )
    assert "site.yaml: redirects now lists /notes/feed.xml" in report
    assert "Subscribe to [the feed](/feed.xml)." in files["articles/hello.md"].decode()
    settings.CONTENT_DIR = dest
    import_content(dest, workers=1)
    for old, new in [("/notes/", "/articles"), ("/notes/feed.xml", "/feed.xml"), ("/old-home", "/")]:
        response = client.get(old)
        assert (response.status_code, response["Location"]) == (301, new), old


def test_an_old_address_this_site_has_too_is_left_out_with_a_note(tmp_path):
    """Without a baseurl jekyll-feed's /feed.xml is this site's own feed: nothing to move."""
    source = jekyll_site(tmp_path / "src", JEKYLL.replace("baseurl: /notes\n", ""))
    report, files = move("jekyll", source, tmp_path / "dest")
    assert "redirects" not in files["site.yaml"].decode()
    assert (
        "site.yaml: redirects: the old site's '/feed.xml' left out: it is this site's own address /feed.xml"
        in report
    )


def astro_site(source, body, config=None):
    """An Astro blog: its posts at src/pages/blog/[...slug].astro, their list, an RSS endpoint."""
    (source / "src/content/blog").mkdir(parents=True)
    (source / "src/pages/blog").mkdir(parents=True)
    if config:
        (source / "astro.config.mjs").write_text(config)
    (source / "src/content/blog/hello.md").write_text(POST.format(title="Hello", body=body))
    (source / "src/pages/blog/[...slug].astro").write_text('const posts = await getCollection("blog");\n')
    (source / "src/pages/blog/index.astro").write_text("list\n")
    (source / "src/pages/rss.xml.js").write_text("export function GET() {}\n")
    return source


def test_an_astro_site_s_feed_endpoint_and_list_route(tmp_path):
    _, files = move("astro", astro_site(tmp_path / "src", "[All](/blog/)"), tmp_path / "dest")
    redirects = files["site.yaml"].decode().split("redirects:\n", 1)[1]
    assert redirects == '  "/rss.xml": "/feed.xml"\n  "/blog/": "/articles"\n'
    assert "[All](/articles)" in files["articles/hello.md"].decode()


def test_an_astro_site_under_a_base_has_its_own_addresses_under_it(tmp_path):
    """base '/shop' and build.format 'file': the home /shop/, the feed /shop/rss.xml, the list
    /shop/blog.html (src/pages/blog/index.astro, as the build wrote it), and links to them."""
    config = "export default defineConfig({ base: '/shop', build: { format: 'file' } });\n"
    body = "[All](/shop/blog.html), [feed](/shop/rss.xml), [home](/shop/)"
    _, files = move("astro", astro_site(tmp_path / "src", body, config), tmp_path / "dest")
    redirects = files["site.yaml"].decode().split("redirects:\n", 1)[1]
    assert redirects == '  "/shop/": "/"\n  "/shop/rss.xml": "/feed.xml"\n  "/shop/blog.html": "/articles"\n'
    assert "[All](/articles), [feed](/feed.xml), [home](/)" in files["articles/hello.md"].decode()


def test_a_hugo_site_in_language_folders_keeps_its_base_path_too(tmp_path):
    """With defaultContentLanguageInSubdir the home is /blog/en/, and /blog/ redirected there."""
    source = hugo_site(tmp_path / "src")
    (source / "hugo.toml").write_text("defaultContentLanguageInSubdir = true\n" + HUGO)
    _, files = move("hugo", source, tmp_path / "dest")
    assert '  "/blog/en/": "/"\n  "/blog/": "/"\n' in files["site.yaml"].decode()


@pytest.mark.parametrize(
    ("text", "merged"),
    [
        ("title: x\n", 'title: x\nredirects:\n  "/blog/": "/"\n'),
        ("redirects:\ntitle: x\n", 'title: x\nredirects:\n  "/blog/": "/"\n'),
        ("redirects: {/a/: /}\ntitle: x\n", 'title: x\nredirects:\n  "/a/": "/"\n  "/blog/": "/"\n'),
        ("redirects: {/blog.html: /articles}\n", "redirects: {/blog.html: /articles}\n"),
    ],
)
def test_redirects_are_added_and_the_rest_is_kept(text, merged):
    assert with_redirects(text, [("/blog/", "/")], "site.yaml")[0] == merged
