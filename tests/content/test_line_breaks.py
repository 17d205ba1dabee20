"""A line break before, inside or after any value or file name: a named error of that file and
field, or a site that builds. Python's `$` also matches before a final line break, so a pattern
used with `.match` let `"old\\n"` pass as a slug; every pattern now matches the whole value."""

import io
import json

import pytest

from portfolio.content.importer import import_content
from portfolio.content.rules import tag_slug
from portfolio.export.build import build
from tests.content_builder import FILES, SITE_YAML, STACK_YAML, article, project, write_content
from tests.media_content import png

from .helpers import assert_named_error

POSITIONS = {
    "leading": lambda v: "\n" + v,
    "middle": lambda v: v[:2] + "\n" + v[2:],
    "trailing": lambda v: v + "\n",
}
A, P = "articles/broken.md", "projects/broken.md"
COVER = "media/alpha/cover.png"


def quoted(value):
    return json.dumps(value)  # a YAML double-quoted string: "\n" is a line break


# (file, field as the error names it, the file's text given the value, a good value)
PATTERN_FIELDS = [
    (A, "date", lambda v: article(date=quoted(v)), "2026-02-01"),
    (A, "aliases", lambda v: article(aliases=f"[{quoted(v)}]"), "old-name"),
    (A, "image", lambda v: article(extra=f"image: {quoted(v)}\nimageAlt: x\n"), "alpha/cover.png"),
    (P, "github", lambda v: project(github=quoted(v)), "https://github.com/example/project"),
    (P, "status", lambda v: project(status=quoted(v)), "active"),
    (P, "date", lambda v: project(date=quoted(v)), "2026-01-15"),
    (P, "aliases", lambda v: project(aliases=f"[{quoted(v)}]"), "old-name"),
    (P, "image", lambda v: project(extra=f"image: {quoted(v)}\nimageAlt: x\n"), "alpha/cover.png"),
    (
        "site.yaml",
        "url",
        lambda v: SITE_YAML.replace('"https://portfolio.test"', quoted(v)),
        "https://a.test",
    ),
    ("site.yaml", "image", lambda v: SITE_YAML + f"image: {quoted(v)}\n", "alpha/cover.png"),
    (
        "site.yaml",
        "links[0].url",
        lambda v: SITE_YAML + f"links:\n  - name: GitHub\n    url: {quoted(v)}\n",
        "https://github.com/example",
    ),
    ("stack.yaml", "lastUpdated", lambda v: STACK_YAML.replace("2026-10-01", quoted(v)), "2026-10-01"),
    (
        "stack.yaml",
        "models[0].type",
        lambda v: STACK_YAML.replace("type: subscription", f"type: {quoted(v)}"),
        "subscription",
    ),
    (
        "stack.yaml",
        "models[0].url",
        lambda v: STACK_YAML.replace('"https://models.example/hosted"', quoted(v)),
        "https://models.example/hosted",
    ),
    (
        "stack.yaml",
        "dailyDrivers[0].url",
        lambda v: STACK_YAML.replace('"https://editor.example"', quoted(v)),
        "https://editor.example",
    ),
    (
        "stack.yaml",
        "dailyDrivers[0].status",
        lambda v: STACK_YAML.replace("status: daily", f"status: {quoted(v)}"),
        "daily",
    ),
    # A body's links to an item's file: a named error of the line, never a traceback.
    (
        A,
        "line 6",
        lambda v: article(body=f"[a](<../articles/{v.replace(chr(10), '%0A')}.md>)\n"),
        "first-post",
    ),
]


@pytest.fixture
def with_cover(imported):
    write_content(imported, {COVER: png(20, 10)})
    return imported


@pytest.mark.parametrize("position", POSITIONS)
@pytest.mark.parametrize(
    ("rel", "field", "text", "good"), PATTERN_FIELDS, ids=[f"{f[0]}:{f[1]}" for f in PATTERN_FIELDS]
)
def test_a_line_break_in_a_value_is_a_named_error(with_cover, rel, field, text, good, position):
    write_content(with_cover, {rel: text(good)})  # the good value imports (the test can fail)
    import_content(with_cover, workers=1)
    write_content(with_cover, {rel: text(POSITIONS[position](good))})
    assert_named_error(with_cover, rel, field, "expected")


@pytest.mark.parametrize("position", POSITIONS)
@pytest.mark.parametrize(
    ("folder", "name", "field"),
    [
        ("articles", "broken", "file name"),
        ("projects", "broken", "file name"),
        ("media", "cover", "file name"),
    ],
)
def test_a_line_break_in_a_file_name_is_a_named_error(imported, folder, name, field, position):
    if folder == "media":  # a media file's name is the whole name: `a.png` then a line break
        rel, data = f"media/{POSITIONS[position](name + '.png')}", png(20, 10)
    else:  # an item's is its slug: `name` then a line break, then `.md`
        rel, data = (
            f"{folder}/{POSITIONS[position](name)}.md",
            article() if folder == "articles" else project(),
        )
    write_content(imported, {rel: data})
    assert_named_error(imported, rel, field, "expected")


@pytest.mark.parametrize("position", POSITIONS)
def test_a_line_break_in_a_media_folder_name_is_a_named_error(imported, position):
    folder = POSITIONS[position]("shots")
    write_content(imported, {f"media/{folder}/a.png": png(20, 10)})
    assert_named_error(imported, f"media/{folder}/", "file name", "expected")


def text_fields(wrap):
    """The standard site with a line break, placed by `wrap`, in every field that holds free
    text (titles, descriptions, names, tags: line breaks are text there)."""
    w = lambda value: quoted(wrap(value))  # noqa: E731
    site = (
        f"title: {w('Test Portfolio')}\ndescription: {w('A portfolio')}\nauthor: {w('Test Author')}\n"
        f'url: "https://portfolio.test"\nlinks:\n  - name: {w("GitHub")}\n    url: "https://github.com/x"\n'
    )
    stack = (
        f"lastUpdated: 2026-10-01\ncurrentFocus: {w('Testing')}\nmodels:\n  - name: {w('Hosted')}\n"
        f"    type: subscription\n    description: {w('A model')}\ndailyDrivers:\n  - tool: {w('Editor')}\n"
        f"    role: {w('editing')}\n    status: daily\n"
    )
    item = f"image: alpha/cover.png\nimageAlt: {w('The cover')}\n"
    return {
        **FILES,
        "site.yaml": site,
        "stack.yaml": stack,
        COVER: png(20, 10),
        "projects/broken.md": project(
            title=None,
            extra=f"title: {w('A title')}\ncaseStudy:\n  {w('Problem')}: {w('Solved')}\n{item}",
            tagline=w("A tagline"),
            description=w("A description"),
            stack=f"[{w('Python')}, {w('New tag')}]",
        ),
        "articles/broken.md": article(
            title=None,
            extra=f"title: {w('A title')}\n{item}",
            description=w("A description"),
            tags=f"[{w('python')}, {w('Other tag')}]",
        ),
    }


@pytest.mark.parametrize("position", POSITIONS)
def test_a_line_break_in_free_text_builds(db, tmp_path, settings, client, position):
    content = write_content(tmp_path / "content", text_fields(POSITIONS[position]))
    settings.SITE_URL = ""
    settings.CONTENT_DIR = content
    build(tmp_path / "site", workers=1, stderr=io.StringIO())
    tags = [f"/tags/{tag_slug(POSITIONS[position](name))}" for name in ("New tag", "Other tag")]
    for path in ["/projects/broken", "/articles/broken", *tags, "/stack", "/"]:
        assert (tmp_path / "site" / f"{path.strip('/') or 'index'}.html").is_file(), path
        assert client.get(path).status_code == 200, path  # and the authoring server answers it
