"""One failing content file per rule of the content format. Each must be rejected with a message
naming the file and the field, and leave the database exactly as it was."""

import pytest

from portfolio.content.importer import import_content
from portfolio.content.rules import ContentInvalid
from tests.content_builder import SITE_YAML, STACK_YAML, article, project, write_content

from .helpers import assert_named_error, database_state

P = "projects/broken.md"
A = "articles/broken.md"

CASES = [
    # (id, file, content, field, fragment of the expected message)
    ("missing required", P, project(title=None), "title", "required field is missing"),
    ("empty string", P, project(tagline='""'), "tagline", "expected a non-empty string; got ''"),
    ("wrong type", P, project(description="42"), "description", "expected a non-empty string; got 42"),
    ("list expected", P, project(stack='"Python"'), "stack", "expected a list of strings; got 'Python'"),
    ("list item type", P, project(stack="[Python, 3]"), "stack", "item 1 is 3"),
    ("boolean", P, project(featured='"yes"'), "featured", "expected true or false; got 'yes'"),
    (
        "bad enum",
        P,
        project(status="done"),
        "status",
        "expected one of active, reference, experimental; got 'done'",
    ),
    ("invalid date", P, project(date="2026-02-30"), "date", "expected a calendar date YYYY-MM-DD"),
    ("quoted invalid date", A, article(date='"2026-13-01"'), "date", "got '2026-13-01'"),
    ("not a date", A, article(date="31/01/2026"), "date", "expected a calendar date YYYY-MM-DD"),
    ("datetime is not a date", A, article(date="2026-01-31 10:00:00"), "date", "YYYY-MM-DD"),
    ("unknown key", P, project(fetured="true"), "fetured", "unknown key"),
    ("caseStudy value", P, project(extra="caseStudy:\n  year: 2024\n"), "caseStudy", "got 2024"),
    ("caseStudy type", P, project(extra="caseStudy: [a, b]\n"), "caseStudy", "expected a mapping"),
    ("github scheme", P, project(github='"ftp://example.org/x"'), "github", "absolute http(s) URI"),
    ("github relative", P, project(github='"github.com/x"'), "github", "absolute http(s) URI"),
    ("tags type", A, article(tags='"python"'), "tags", "expected a list of strings"),
    # A series' name follows a tag's rules (content-format.md, Series), named as `series`.
    ("series too long", A, article(series="x" * 501), "series", "expected at most 500 characters; got 501"),
    ("series reserved", A, article(series="Index"), "series", "would have the address /series/index"),
    # A tag's slug (its page's address) may not be empty, nor too long for a file name.
    ("tag without a slug", A, article(tags='[ok, "!!!"]'), "tags", "item 1: '!!!' has no letter or digit"),
    (
        "stack entry without a slug",
        P,
        project(stack='[Python, "+++"]'),
        "stack",
        "item 1: '+++' has no letter",
    ),
    (
        "tag slug too long",
        A,
        article(tags=f"[{'é' * 101}]"),
        "tags",
        "would be 202 bytes long; expected at most 200",
    ),
    # A tag may not take the place of another page: /tags/ (the list) or the 404 page under /tags/.
    (
        "tag named index",
        A,
        article(tags="[ok, Index]"),
        "tags",
        "item 1: 'Index' would have the address /tags/index",
    ),
    (
        "tag slug index",
        A,
        article(tags='["ＩＮＤＥＸ"]'),
        "tags",
        "item 0: 'ＩＮＤＥＸ' would have the address /tags/index",
    ),
    (
        "stack entry 404",
        P,
        project(stack='[Python, "404"]'),
        "stack",
        "item 1: '404' would have the address /tags/404",
    ),
    (
        "tag too long",
        P,
        project(stack=f'["{"!" * 501}"]'),
        "stack",
        "item 0: expected at most 500 characters",
    ),
    ("draft type", A, article(draft='"no"'), "draft", "expected true or false"),
    ("article unknown key", A, article(summary='"x"'), "summary", "unknown key"),
    (
        "missing front matter",
        A,
        "# Just markdown\n",
        "front matter",
        "start with a line holding exactly '---'",
    ),
    ("unclosed front matter", A, '---\ntitle: "x"\nbody\n', "front matter", "no closing line"),
    ("delimiter not exact", A, article().replace("---\n", "--- \n", 1), "front matter", "exactly '---'"),
    ("invalid yaml", A, '---\ntitle: "unterminated\n---\n', "yaml", "invalid YAML at line"),
    ("front matter not a mapping", A, "---\n- a\n- b\n---\n", "yaml", "expected a mapping"),
    ("duplicate key", A, article(extra='title: "again"\n'), "yaml", "duplicate key 'title'"),
    ("non-utf8", A, article().encode() + b"\xff\xfe bad", "encoding", "expected UTF-8 text; byte 0xff"),
    (
        "stack enum",
        "stack.yaml",
        STACK_YAML.replace("type: local", "type: cloud"),
        "models[1].type",
        "got 'cloud'",
    ),
    (
        "stack status",
        "stack.yaml",
        STACK_YAML.replace("status: exploring", "status: maybe"),
        "dailyDrivers[1].status",
        "expected one of daily, exploring",
    ),
    (
        "stack missing",
        "stack.yaml",
        STACK_YAML.replace("lastUpdated: 2026-10-01\n", ""),
        "lastUpdated",
        "missing",
    ),
    (
        "stack item key",
        "stack.yaml",
        STACK_YAML.replace('    role: "coding"\n', '    role: "coding"\n    rank: 1\n'),
        "dailyDrivers[1].rank",
        "unknown key",
    ),
    (
        "stack url",
        "stack.yaml",
        STACK_YAML.replace('"https://editor.example"', '"editor.example"'),
        "dailyDrivers[0].url",
        "absolute http(s) URI",
    ),
    (
        "stack list",
        "stack.yaml",
        STACK_YAML.split("models:")[0] + "models: none\ndailyDrivers: []\n",
        "models",
        "list",
    ),
    (
        "site trailing slash",
        "site.yaml",
        'title: "t"\ndescription: "d"\nauthor: "a"\nurl: "https://x.test/"\n',
        "url",
        "without a trailing slash",
    ),
    ("site unknown key", "site.yaml", SITE_YAML + "theme: dark\n", "theme", "unknown key"),
    ("stack unknown key", "stack.yaml", STACK_YAML + "mood: calm\n", "mood", "unknown key"),
    (
        "site missing",
        "site.yaml",
        'title: "t"\ndescription: "d"\nurl: "https://x.test"\n',
        "author",
        "missing",
    ),
    ("bad slug", "projects/Bad Name.md", project(), "file name", "lowercase letters and digits"),
    ("uppercase slug", "articles/Hello.md", article(), "file name", "<slug>.md"),
    ("double dash slug", "articles/a--b.md", article(), "file name", "<slug>.md"),
    ("not markdown", "projects/notes.txt", "hello", "file name", "<slug>.md"),
]


@pytest.mark.parametrize(
    ("rel", "data", "field", "fragment"), [case[1:] for case in CASES], ids=[c[0] for c in CASES]
)
def test_each_rule_rejects_the_file_and_keeps_the_database(imported, rel, data, field, fragment):
    write_content(imported, {rel: data})
    assert_named_error(imported, rel, field, fragment)


def test_the_issue_example_message_is_exact(imported):
    write_content(imported, {"projects/foo.md": project(status="done")})
    with pytest.raises(ContentInvalid) as caught:
        import_content(imported, workers=1)
    assert [str(e) for e in caught.value.errors] == [
        "projects/foo.md: status: expected one of active, reference, experimental; got 'done'"
    ]


def test_a_folder_inside_a_collection_is_an_error(imported):
    (imported / "projects" / "nested").mkdir()
    with pytest.raises(ContentInvalid) as caught:
        import_content(imported, workers=1)
    assert (
        str(caught.value.errors[0])
        == "projects/nested: file name: expected a markdown file <slug>.md; got a folder"
    )


def test_missing_required_file(db, tmp_path):
    write_content(tmp_path, {"projects/a.md": project()})
    with pytest.raises(ContentInvalid) as caught:
        import_content(tmp_path, workers=1)
    assert {str(e) for e in caught.value.errors} == {
        "site.yaml: file: required file is missing",
        "stack.yaml: file: required file is missing",
    }


def test_missing_content_folder(db, tmp_path):
    with pytest.raises(ContentInvalid, match="the content folder does not exist"):
        import_content(tmp_path / "nowhere", workers=1)


def test_every_error_in_every_file_is_reported(imported):
    before = database_state()
    write_content(
        imported,
        {
            "projects/one.md": project(status="done", date="2026-02-30"),
            "articles/two.md": article(title=None, draft="maybe"),
            "articles/Three.md": article(),
            "stack.yaml": STACK_YAML.replace("type: local", "type: cloud"),
        },
    )
    with pytest.raises(ContentInvalid) as caught:
        import_content(imported, workers=1)
    assert sorted((e.path, e.field) for e in caught.value.errors) == [
        ("articles/Three.md", "file name"),
        ("articles/two.md", "draft"),
        ("articles/two.md", "title"),
        ("projects/one.md", "date"),
        ("projects/one.md", "status"),
        ("stack.yaml", "models[1].type"),
    ]
    assert database_state() == before


def test_hidden_and_backup_files_are_ignored(imported):
    write_content(
        imported,
        {
            "projects/.DS_Store": b"\x00\x01",
            "articles/.draft.md.swp": b"\xff",
            "articles/first-post.md~": "x",
        },
    )
    result = import_content(imported, workers=1)
    assert not result.changed


@pytest.mark.parametrize("rel", ["projects/ordered.md", "pages/ordered.md", "articles/first-post.fr.md"])
def test_series_order_where_no_series_may_be_is_only_an_unknown_key(imported, rel):
    """Only an article has a series: elsewhere `seriesOrder` is an unknown key, and nothing
    asks for a `series` that would be one too."""
    site = imported / "site.yaml"
    site.write_text(site.read_text(encoding="utf-8") + "languages:\n  - code: en\n  - code: fr\n")
    front = {
        "projects": project(extra="seriesOrder: 1\n"),
        "pages": '---\ntitle: "P"\ndescription: "D"\nseriesOrder: 1\n---\nBody.\n',
        "articles": '---\ntitle: "T"\nseriesOrder: 1\n---\nBody.\n',
    }
    (imported / rel).parent.mkdir(exist_ok=True)
    (imported / rel).write_text(front[rel.split("/")[0]], encoding="utf-8")
    with pytest.raises(ContentInvalid) as caught:
        import_content(imported, workers=1)
    errors = [str(error) for error in caught.value.errors if error.path == rel]
    assert len(errors) == 1 and errors[0].startswith(f"{rel}: seriesOrder: unknown key;"), errors
