"""site.yaml's `redirects`: the old site's own addresses (its home under a base path, its feed, its
lists) moved to addresses of this site. The field's rules, its checks against the items' old
addresses and the site's own, and the 301s on the authoring server."""

import pytest

from portfolio.content.aliases import moves
from portfolio.content.importer import import_content
from portfolio.content.models import Site
from portfolio.content.rules import ContentInvalid
from tests.content_builder import SITE_YAML, article, write_content

from .helpers import assert_named_error

REDIRECTS = """redirects:
  /blog/: /
  /blog/index.xml: /feed.xml
  /blog/posts/: /articles
  "/caf%c3%a9/": /tags/meta
"""
# {old address: new address}: an old page's three spellings, a feed's one, percent-encoding in capitals.
MOVED = {
    "/blog/": "/",
    "/blog": "/",
    "/blog.html": "/",
    "/blog/index.xml": "/feed.xml",
    "/blog/posts/": "/articles",
    "/blog/posts": "/articles",
    "/blog/posts.html": "/articles",
    "/caf%C3%A9/": "/tags/meta",
    "/caf%C3%A9": "/tags/meta",
    "/caf%C3%A9.html": "/tags/meta",
}


PAGE = '---\ntitle: "About"\ndescription: "Who."\n---\nAbout.\n'


def redirects(*lines):
    return {"site.yaml": SITE_YAML + "redirects:\n" + "".join(f"  {line}\n" for line in lines)}


MAPPING = "expected a mapping of old address to address of this site such as {/blog/: /}; got"
CASES = [
    # (id, site.yaml's redirects, fragment of the expected message)
    ("a list", "redirects: [/blog/]\n", f"{MAPPING} a list"),
    ("null", "redirects:\n", f"{MAPPING} null"),
    ("a relative old address", redirects("blog/: /"), "'blog/': expected an old address, an absolute path"),
    ("an old address with a query", redirects('"/blog/?p=1": /'),
     "'/blog/?p=1': expected an absolute path such as /posts/old-title/"),
    ("an old address with ..", redirects("/blog/../admin: /"), "without '.' or '..' segments"),
    ("another site's address", redirects("/blog/: https://example.org/"),
     "'/blog/': expected an address of this site such as /articles; got 'https://example.org/'"),
    ("a protocol-relative address", redirects("/blog/: //example.org/"), "got '//example.org/'"),
    ("a number", redirects("/blog/: 1"),
     "'/blog/': expected an address of this site such as /articles; got 1"),
    ("a new address with a query", redirects('/blog/: "/articles?page=2"'),
     "'/blog/': expected an address of this site: an absolute path"),
    ("two spellings of one address", redirects("/blog/: /", "/blog.html: /articles"),
     "'/blog.html' is the same address as '/blog/'"),
    ("the home page", redirects("/: /articles"), "'/' would hide the site's own address /"),
    ("the site's feed", redirects("/feed.xml: /feed.xml"),
     "'/feed.xml' would hide the site's own address /feed.xml"),
    ("the site's tags", redirects("/tags/: /articles"), "'/tags/' would hide the site's own address /tags"),
    ("an item's old path", redirects("/work/alpha-project: /"),
     "'/work/alpha-project' is the address of '/work/alpha-project/', an alias of projects/alpha-one.md: "
     "an old address belongs to one item"),
    ("a draft's old path", redirects("/drafts/secret/: /"), "is also an alias of articles/secret-draft.md"),
    ("no route", redirects("/blog/: /blog/"),
     "'/blog/': expected an address this site serves (/, /articles, /feed.xml, a page's /about...); "
     "got '/blog/', which it does not"),
    ("an item there is not", redirects("/blog/: /articles/no-such-post"), "got '/articles/no-such-post'"),
    ("a draft", redirects("/blog/: /articles/secret-draft"), "got '/articles/secret-draft'"),
    ("an old address of an item", redirects("/blog/: /work/alpha-project"), "got '/work/alpha-project'"),
    ("a renamed item's old slug", redirects("/blog/: /projects/alpha"), "got '/projects/alpha'"),
    ("a tag there is not", redirects("/blog/: /tags/nothing"), "got '/tags/nothing'"),
    ("a language the site has not", redirects("/blog/: /fr/"), "got '/fr/'"),
    ("a page's trailing slash", redirects("/blog/: /articles/"), "got '/articles/'"),
    ("the admin", redirects("/blog/: /admin/"), "got '/admin/'"),
]  # fmt: skip


@pytest.mark.parametrize(("text", "fragment"), [c[1:] for c in CASES], ids=[c[0] for c in CASES])
def test_each_rule_rejects_site_yaml_and_keeps_the_database(imported, text, fragment):
    files = text if isinstance(text, dict) else {"site.yaml": SITE_YAML + text}
    write_content(imported, files)
    assert_named_error(imported, "site.yaml", "redirects", fragment)


def test_the_stored_redirects_and_what_moves(imported):
    write_content(imported, {"site.yaml": SITE_YAML + REDIRECTS})
    import_content(imported, workers=1)
    assert Site.objects.get().redirects == [
        ["/blog/", "/"],
        ["/blog/index.xml", "/feed.xml"],
        ["/blog/posts/", "/articles"],
        ["/caf%C3%A9/", "/tags/meta"],
    ]
    moved = dict(moves())
    assert {old: moved[old] for old in MOVED} == MOVED
    # A feed's address is itself alone: no `index.xml/`, no `index.xml.html`.
    assert not [old for old in moved if old.startswith("/blog/index.xml") and old != "/blog/index.xml"]


def test_the_old_addresses_answer_301_on_the_authoring_server(imported, client, settings, debug):
    write_content(imported, {"site.yaml": SITE_YAML + REDIRECTS})
    import_content(imported, workers=1)
    for old, new in MOVED.items():
        response = client.get(old)
        assert (response.status_code, response["Location"]) == (301, new), old
        assert client.get(new).status_code == 200, new
    response = client.head("/blog/index.xml?utm=feed")
    assert (response.status_code, response["Location"]) == (301, "/feed.xml?utm=feed")
    assert client.get("/blog/index.xml/").status_code == 404


@pytest.fixture(params=[False, True], ids=["debug off", "debug on"])
def debug(request, settings):
    settings.DEBUG = request.param


def test_a_redirect_may_move_to_a_page_a_language_and_an_item(imported, client):
    files = {
        "pages/about.md": PAGE,
        "articles/first-post.fr.md": '---\ntitle: "Premier"\ndescription: "Le premier."\n---\nCorps.\n',
        "site.yaml": SITE_YAML
        + "languages: [{code: en}, {code: fr}]\n"
        + "redirects: {/me/: /about, /fr/blog/: /fr/, /posts/hello/: /articles/first-post}\n",
    }
    write_content(imported, files)
    import_content(imported, workers=1)
    for old, new in [("/me/", "/about"), ("/fr/blog", "/fr/"), ("/posts/hello.html", "/articles/first-post")]:
        response = client.get(old)
        assert (response.status_code, response["Location"]) == (301, new), old


def test_an_item_may_not_take_an_unchanged_redirect(imported):
    """Told in the file that changed: the new article's alias, or a new page at the old address."""
    write_content(imported, {"site.yaml": SITE_YAML + REDIRECTS})
    import_content(imported, workers=1)
    write_content(imported, {"articles/new.md": article(aliases='["/blog/posts"]')})
    assert_named_error(
        imported,
        "articles/new.md",
        "aliases",
        "'/blog/posts' is the address of '/blog/posts/', one of site.yaml's redirects: "
        "an old address belongs to one item",
    )
    (imported / "articles/new.md").unlink()
    write_content(imported, {"pages/blog.md": PAGE.replace("About", "Blog")})
    assert_named_error(
        imported, "pages/blog.md", "file name", "its address is '/blog/', one of site.yaml's redirects"
    )


def test_a_redirect_may_not_be_a_page_s_address(imported):
    write_content(imported, {"pages/about.md": PAGE})
    import_content(imported, workers=1)
    write_content(imported, {"site.yaml": SITE_YAML + "redirects: {/about/: /}\n"})
    assert_named_error(
        imported,
        "site.yaml",
        "redirects",
        "'/about/' is the address of pages/about.md: expected an old address the site does not use",
    )


def test_deleting_the_item_a_redirect_moves_to_is_refused(imported):
    """The new address is checked at every import, not only site.yaml's: nothing may leave it a 404."""
    write_content(imported, {"site.yaml": SITE_YAML + "redirects: {/hello/: /articles/first-post}\n"})
    import_content(imported, workers=1)
    (imported / "articles/first-post.md").unlink()
    with pytest.raises(ContentInvalid) as caught:
        import_content(imported, workers=1)
    assert [str(e) for e in caught.value.errors] == [
        "site.yaml: redirects: '/hello/': expected an address this site serves (/, /articles, /feed.xml, "
        "a page's /about...); got '/articles/first-post', which it does not"
    ]
