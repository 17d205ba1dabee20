"""Renamed items (front matter `aliases`): the key's rules, its checks across files, and the old
addresses answering 301 on the authoring server."""

import json

import pytest

from portfolio.content.aliases import moves
from portfolio.content.importer import import_content
from portfolio.content.loader import ContentInvalid
from portfolio.content.models import Alias
from tests.content_builder import MOVED, NOT_MOVED, article, project, write_content

from .helpers import assert_named_error, database_state

P = "projects/renamed.md"
A = "articles/renamed.md"

LIST = "expected a list of slugs such as [old-name]; got"
CASES = [
    # (id, file, content, fragment of the expected message)
    ("not a list", P, project(aliases="old-name"), f"{LIST} 'old-name'"),
    ("null", A, article(aliases=""), f"{LIST} null"),
    ("a mapping", A, article(aliases="{old: 1}"), f"{LIST} a mapping"),
    ("not a string", P, project(aliases="[old, 2024]"), "item 1: expected a slug"),
    ("a list in the list", A, article(aliases="[[old]]"), "item 0: expected a slug"),
    ("not a slug", P, project(aliases='["Old Name"]'),
     "item 0: expected a slug (lowercase letters and digits"),
    ("a path", A, article(aliases="[articles/old]"), "got 'articles/old'"),
    ("double dash", A, article(aliases="[old--name]"), "got 'old--name'"),
    ("too long", P, project(aliases=f"[{'a' * 201}]"),
     "item 0: expected a slug of at most 200 characters; got 201"),
    ("listed twice", A, article(aliases="[old, older, old]"), "item 2: 'old' is listed twice"),
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
    moved = dict(moves())
    assert len(moved) == 15  # five addresses for each published alias
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
