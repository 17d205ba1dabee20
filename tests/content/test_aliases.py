"""Renamed items (front matter `aliases`): the key's rules, its checks across files, and the old
addresses answering 301 on the authoring server."""

import json

import pytest

from portfolio.content.aliases import moves
from portfolio.content.importer import import_content
from portfolio.content.models import Alias, PathAlias
from portfolio.content.rules import ContentInvalid
from tests.content_builder import MOVED, NOT_MOVED, article, project, write_content

from .helpers import assert_named_error, database_state

P = "projects/renamed.md"
A = "articles/renamed.md"

LIST = "expected a list of slugs or absolute paths such as [old-name, /posts/old-name/]; got"
PATH = "expected an absolute path such as /posts/old-title/"
CASES = [
    # (id, file, content, fragment of the expected message)
    ("not a list", P, project(aliases="old-name"), f"{LIST} 'old-name'"),
    ("null", A, article(aliases=""), f"{LIST} null"),
    ("a mapping", A, article(aliases="{old: 1}"), f"{LIST} a mapping"),
    ("not a string", P, project(aliases="[old, 2024]"), "item 1: expected a slug"),
    ("a list in the list", A, article(aliases="[[old]]"), "item 0: expected a slug"),
    ("not a slug", P, project(aliases='["Old Name"]'),
     "item 0: expected a slug (lowercase letters and digits"),
    ("a relative path", A, article(aliases="[articles/old]"),
     "item 0: expected a slug (lowercase letters and digits, with single '-' or '_' between them) or an "
     "absolute path (/posts/old-name/); got 'articles/old'"),
    ("double dash", A, article(aliases="[old--name]"), "got 'old--name'"),
    ("too long", P, project(aliases=f"[{'a' * 201}]"),
     "item 0: expected a slug of at most 200 characters; got 201"),
    ("listed twice", A, article(aliases="[old, older, old]"), "item 2: 'old' is listed twice"),
    ("a path with a space", A, article(aliases='["/posts/old title/"]'), f"item 0: {PATH}"),
    ("a path with a query", A, article(aliases='["/posts/old?page=2"]'), f"item 0: {PATH}"),
    ("a path with a fragment", A, article(aliases='["/posts/old#top"]'), f"item 0: {PATH}"),
    ("a path with unencoded non-ASCII", A, article(aliases='["/posts/café/"]'), f"item 0: {PATH}"),
    ("a path with an encoded ASCII character", A, article(aliases='["/posts/%41b/"]'), f"item 0: {PATH}"),
    ("a path with a placeholder", A, article(aliases='["/posts/:slug/"]'), "no query, fragment, ':' or '*'"),
    ("a path with a splat", A, article(aliases='["/posts/*"]'), "no query, fragment, ':' or '*'"),
    ("a path with ..", A, article(aliases='["/posts/../admin/"]'), "without '.' or '..' segments"),
    ("a path with .", A, article(aliases='["/posts/./old"]'), "without '.' or '..' segments"),
    ("a path with //", A, article(aliases='["/posts//old"]'), "without '//'"),
    ("a path not UTF-8", A, article(aliases='["/posts/%FF/"]'), "expected percent-encoded UTF-8"),
    ("a path with .html inside", A, article(aliases='["/a.html/b"]'), "'.html' only at the end"),
    ("a path too long", A, article(aliases=f'["/{"a" * 500}"]'),
     "item 0: expected a path of at most 500 characters; got 501"),
    ("a path listed twice", A, article(aliases='["/old/", old, "/old/"]'), "item 2: '/old/' is listed twice"),
    ("two spellings of one path", A, article(aliases='["/old/", "/old.html"]'),
     "item 1: '/old.html' is the same address as item 0, '/old/'"),
    ("the home page", A, article(aliases='["/"]'), "'/' would hide the site's own address /"),
    ("a page of the site", A, article(aliases='["/stack/"]'), "would hide the site's own address /stack"),
    ("an item's page", A, article(aliases='["/articles/first-post"]'), "the site's own address /articles"),
    ("a file of the site", A, article(aliases='["/feed.xml"]'), "the site's own address /feed.xml"),
    ("a page's file", A, article(aliases='["/projects.html"]'), "the site's own address /projects.html"),
    ("the home page's file", P, project(aliases='["/index"]'), "the site's own address /index.html"),
    ("a numbered file", P, project(aliases='["/llms-full-2.txt"]'), "own address /llms-full-2.txt"),
    ("a host's rules", P, project(aliases='["/_redirects.nginx.conf"]'), "address /_redirects.nginx"),
    ("the well-known folder", P, project(aliases='["/.well-known/old"]'), "own address /.well-known"),
    ("the search index", P, project(aliases='["/pagefind/old.js"]'), "own address /pagefind"),
    ("the admin", P, project(aliases='["/admin"]'), "own address /admin"),
    ("another item's path", P, project(aliases='["/work/alpha-project/"]'),
     "'/work/alpha-project/' is also an alias of projects/alpha-one.md: an old address belongs to one "
     "item"),
    ("another spelling of another item's path", P, project(aliases='["/work/alpha-project.html"]'),
     "'/work/alpha-project.html' is the address of '/work/alpha-project/', an alias of "
     "projects/alpha-one.md"),
    ("the draft's path", A, article(aliases='["/drafts/secret"]'), "an alias of articles/secret-draft.md"),
    ("its own slug", P, project(aliases="[renamed]"), "'renamed' is this file's own slug"),
    ("another item's slug", P, project(aliases="[gamma]"),
     "'gamma' is the slug of projects/gamma.md: an alias is an earlier slug no item has now"),
    ("a draft's slug", A, article(aliases="[secret-draft]"),
     "'secret-draft' is the slug of articles/secret-draft.md"),
    ("another item's alias", A, article(aliases="[old-unicode]"),
     "'old-unicode' is also an alias of articles/unicode-post.md: an earlier slug belongs to one item"),
    ("the draft's alias", A, article(aliases="[secret-draft-v1]"),
     "also an alias of articles/secret-draft.md"),
]  # fmt: skip


@pytest.mark.parametrize(("rel", "data", "fragment"), [c[1:] for c in CASES], ids=[c[0] for c in CASES])
def test_each_rule_rejects_the_file_and_keeps_the_database(imported, rel, data, fragment):
    write_content(imported, {rel: data})
    assert_named_error(imported, rel, "aliases", fragment)


def test_the_stored_aliases_and_what_moves(imported):
    assert sorted(Alias.objects.values_list("collection", "slug", "target")) == [
        ("articles", "old-unicode", "unicode-post"),
        ("articles", "secret-draft-v1", "secret-draft"),
        ("projects", "alpha", "alpha-one"),
        ("projects", "alpha_1", "alpha-one"),
    ]
    # Paths as browsers send them: the percent-encoding's hex digits in capitals.
    assert sorted(PathAlias.objects.values_list("path", "collection", "target")) == [
        ("/2014/05/12/caf%C3%A9;old.html", "articles", "unicode-post"),
        ("/drafts/secret/", "articles", "secret-draft"),
        ("/work/alpha-project/", "projects", "alpha-one"),
    ]
    moved = dict(moves())
    # Five addresses for each published slug alias, three spellings of a path with a trailing
    # slash, two of an .html path.
    assert len(moved) == 15 + 3 + 2
    assert {old: moved[old] for old in MOVED} == MOVED
    assert not [old for old in moved if "secret-draft" in old], "a draft's aliases move nothing"


def test_an_alias_may_be_a_slug_of_the_other_kind(imported):
    write_content(imported, {P: project(aliases="[first-post]"), A: article(aliases="[gamma]")})
    import_content(imported, workers=1)
    assert dict(moves())["/projects/first-post"] == "/projects/renamed"


def test_a_new_file_may_not_take_an_alias_of_an_unchanged_one(imported):
    """Told in the new file, whose name is the problem; the import of only that file sees it too."""
    write_content(imported, {"articles/old-unicode.md": article()})
    message = "its slug is an alias of articles/unicode-post.md: remove it there, or name this file otherwise"
    assert_named_error(imported, "articles/old-unicode.md", "file name", message)
    with pytest.raises(ContentInvalid) as caught:
        import_content(imported, workers=1, only={"articles/old-unicode.md"})
    assert [str(e) for e in caught.value.errors] == [f"articles/old-unicode.md: file name: {message}"]


def test_two_new_files_with_one_alias_name_both(imported):
    write_content(
        imported, {"projects/one.md": project(aliases="[old]"), "projects/two.md": project(aliases="[old]")}
    )
    with pytest.raises(ContentInvalid) as caught:
        import_content(imported, workers=1)
    assert [str(e) for e in caught.value.errors] == [
        "projects/two.md: aliases: 'old' is also an alias of projects/one.md: "
        "an earlier slug belongs to one item"
    ]


def test_renaming_a_file_keeps_its_old_addresses(imported):
    """The rename as a writer does it: the file moved, its old slug listed; then the alias moved on
    to another item in one edit, and dropped."""
    before = database_state()
    (imported / "projects" / "gamma.md").rename(imported / "projects" / "gamma-ray.md")
    with open(imported / "projects" / "gamma-ray.md", "r+", newline="") as file:
        text = file.read().replace("status:", "aliases: [gamma]\r\nstatus:")
        file.seek(0)
        file.write(text)
    import_content(imported, workers=1, only={"projects/gamma.md", "projects/gamma-ray.md"})
    assert database_state() != before
    assert dict(moves())["/api/v1/projects/gamma.json"] == "/api/v1/projects/gamma-ray.json"
    write_content(
        imported, {"projects/gamma-ray.md": project(), "projects/delta.md": project(aliases="[gamma]")}
    )
    import_content(imported, workers=1)
    assert dict(moves())["/projects/gamma"] == "/projects/delta"
    write_content(imported, {"projects/delta.md": project()})
    import_content(imported, workers=1)
    assert "/projects/gamma" not in dict(moves())
    assert Alias.objects.filter(collection="projects", slug="gamma").count() == 0


def test_a_draft_s_aliases_move_once_it_is_published(imported):
    write_content(imported, {"articles/secret-draft.md": article(aliases="[secret-draft-v1]")})
    import_content(imported, workers=1)
    assert dict(moves())["/articles/secret-draft-v1"] == "/articles/secret-draft"


def test_aliases_are_not_part_of_the_api_documents(imported, client):
    document = json.loads(client.get("/api/v1/projects/alpha-one.json").content)
    assert document["slug"] == "alpha-one" and "aliases" not in document
    assert "alpha_1" not in client.get("/api/v1/projects.json").content.decode()
    assert "aliases" not in client.get("/projects/alpha-one.md").content.decode()


@pytest.mark.parametrize("debug", [True, False], ids=["DEBUG", "no DEBUG"])
def test_old_addresses_answer_301_on_the_authoring_server(imported, client, settings, debug):
    settings.DEBUG = debug
    for old, new in MOVED.items():
        response = client.get(old)
        assert (response.status_code, response["Location"]) == (301, new), old
    response = client.head("/api/v1/projects/alpha?format=x")
    assert (response.status_code, response["Location"]) == (301, "/api/v1/projects/alpha-one?format=x")
    settings.SHOW_DRAFTS = True  # a draft is shown at its address there, but its aliases move nothing
    for old in [*NOT_MOVED, "/projects/alpha/", "/projects/alpha.txt", "/projects/nothing-here"]:
        assert client.get(old).status_code == 404, old
    assert client.post("/projects/alpha").status_code == 405, "only GET and HEAD move"


def test_two_new_files_with_one_old_path_name_both(imported):
    write_content(
        imported,
        {
            "projects/one.md": project(aliases='["/old/"]'),
            "articles/two.md": article(aliases='["/old.html"]'),
        },
    )
    with pytest.raises(ContentInvalid) as caught:
        import_content(imported, workers=1)
    assert [str(e) for e in caught.value.errors] == [
        "projects/one.md: aliases: '/old/' is the address of '/old.html', an alias of articles/two.md: "
        "an old address belongs to one item"
    ]


def test_an_old_path_moves_to_another_item_in_one_edit(imported):
    """The edit's import sees only the files it names: an unchanged file's stored paths count."""
    alpha = (imported / "projects" / "alpha-one.md").read_text()
    write_content(imported, {"projects/gamma.md": project(aliases='["/work/alpha-project"]')})
    with pytest.raises(ContentInvalid) as caught:
        import_content(imported, workers=1, only={"projects/gamma.md"})
    assert [str(e) for e in caught.value.errors] == [
        "projects/gamma.md: aliases: '/work/alpha-project' is the address of '/work/alpha-project/', "
        "an alias of projects/alpha-one.md: an old address belongs to one item"
    ]
    write_content(imported, {"projects/alpha-one.md": alpha.replace(', "/work/alpha-project/"', "")})
    import_content(imported, workers=1, only={"projects/gamma.md", "projects/alpha-one.md"})
    assert dict(moves())["/work/alpha-project/"] == "/projects/gamma"
    assert list(PathAlias.objects.filter(target="alpha-one")) == []
    (imported / "projects" / "gamma.md").unlink()
    import_content(imported, workers=1, only={"projects/gamma.md"})
    assert "/work/alpha-project/" not in dict(moves())


def test_a_draft_s_old_paths_move_once_it_is_published(imported, client):
    assert client.get("/drafts/secret/").status_code == 404
    write_content(imported, {"articles/secret-draft.md": article(aliases='["/drafts/secret/"]')})
    import_content(imported, workers=1)
    response = client.get("/drafts/secret?from=feed")
    assert (response.status_code, response["Location"]) == (301, "/articles/secret-draft?from=feed")


PAGE = '---\ntitle: "About"\ndescription: "Who."\naliases: [about-me]\n---\nBody.\n'


def test_an_old_path_may_not_be_a_pages_earlier_address(imported):
    """No absolute-path alias is a page's address, old or new (content-format.md, Pages): here
    an earlier slug's, /about-me."""
    write_content(imported, {"pages/about.md": PAGE, "articles/two.md": article(aliases='["/about-me/"]')})
    with pytest.raises(ContentInvalid) as caught:
        import_content(imported, workers=1)
    assert [str(e) for e in caught.value.errors] == [
        "articles/two.md: aliases: '/about-me/' is an earlier address of pages/about.md: "
        "expected an old address the site does not use"
    ]


def test_a_new_page_may_not_take_an_unchanged_items_old_path(imported):
    """The page is the file that changed: the error names it, not the item whose alias was there first."""
    write_content(imported, {"articles/two.md": article(aliases='["/about/"]')})
    import_content(imported, workers=1)
    write_content(imported, {"pages/about.md": PAGE})
    with pytest.raises(ContentInvalid) as caught:
        import_content(imported, workers=1)
    assert [str(e) for e in caught.value.errors] == [
        "pages/about.md: file name: its address is '/about/', an alias of articles/two.md"
    ]
