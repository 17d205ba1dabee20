"""Hostile content folders (the crash cases a fuzzing pass found, kept as plain regressions):
each gets the importer's named error and leaves the database as it was, or imports."""

import os
import resource
import shutil
import signal
import struct
import subprocess
import sys
import tempfile
import zlib
from pathlib import Path

import pytest

from portfolio.content import importer, markdown, rules
from portfolio.content.importer import import_content
from portfolio.content.rules import ContentInvalid
from tests.content_builder import article, project, write_content

from .helpers import assert_named_error, database_state

A = "articles/hostile.md"
P = "projects/hostile.md"
LAUGHS = "".join(f"l{i}: &l{i} [{', '.join([f'*l{i - 1}'] * 10)}]\n" for i in range(1, 9))

CASES = [
    # (id, file, content, field, fragment of the expected message)
    ("deep yaml", A, article(extra="x: " + "[" * 100_000 + "]" * 100_000 + "\n"), "yaml", "nested deeper"),
    ("billion laughs", A, article(extra="l0: &l0 [a]\n" + LAUGHS), "yaml", "aliases repeat more than"),
    ("alias loop", A, article(extra="x: &x [*x]\n"), "yaml", "inside its own anchor"),
    ("int tag", A, article(title="x").replace('title: "x"', "title: !!int abc"), "yaml", "tag !!int"),
    ("python tag", A, article(extra="x: !!python/object/apply:os.system [ls]\n"), "yaml", "tag !!python"),
    ("binary tag", A, article(extra="x: !!binary aGk=\n"), "yaml", "tag !!binary"),
    ("huge hex", A, article(extra="x: 0x" + "f" * 5000 + "\n"), "yaml", "a number of 5,002"[:12]),
    ("huge decimal", A, article(extra="x: " + "9" * 5000 + "\n"), "yaml", "(at most 100); quote it"),
    ("base 60", A, article(extra="x: 1" + ":1" * 20000 + "\n"), "yaml", "a number of"),
    ("not a number", A, article(extra="x: 0b_\n"), "yaml", "'0b_' is not a valid number"),
    ("NUL escape", A, article(title="a\\0b"), "title", "control character U+0000"),
    (
        "bell in a list",
        A,
        article(tags='[ok, "\\a"]'),
        "tags",
        "item 1: character 1: control character U+0007",
    ),
    ("control in caseStudy", P, project(extra='caseStudy:\n  k: "\\x1b[31m"\n'), "caseStudy", "U+001B"),
    ("U+FFFF", A, article(title="a\\uffffb"), "title", "U+FFFF"),
    ("raw NUL in body", A, article(body="one\ntwo\x00\n"), "text", "line 7: control character U+0000"),
    ("binary file", A, bytes(range(256)) * 4, "encoding", "expected UTF-8 text"),
    ("binary that is UTF-8", A, b"\x00\x01\x02\x03" * 100, "text", "line 1: control character U+0000"),
    ("title too long", A, article(title="t" * 501), "title", "at most 500 characters; got 501"),
    ("github too long", P, project(github='"https://g.example/' + "a" * 500 + '"'), "github", "at most 500"),
    ("slug too long", f"articles/{'s' * 201}.md", article(), "file name", "at most 200 characters; got 201"),
    # (Deeply nested emphasis renders: only toc's `[TOC]` marker search recursed over it, and it is off.)
    ("nested lists", A, article(body="- " * 1000 + "a\n"), "body", "nested more than 50 levels"),
]


@pytest.mark.parametrize(
    ("rel", "data", "field", "fragment"), [case[1:] for case in CASES], ids=[c[0] for c in CASES]
)
def test_hostile_files_get_named_errors(imported, rel, data, field, fragment):
    write_content(imported, {rel: data})
    assert_named_error(imported, rel, field, fragment)


def test_lengths_the_columns_hold_are_accepted(imported):
    write_content(imported, {A: article(title="t" * 500), f"articles/{'s' * 200}.md": article()})
    import_content(imported, workers=1)


def test_every_bounded_column_is_checked_with_its_own_length():
    """The rules' limits are the columns' sizes, so no database refuses what was accepted."""
    from portfolio.content.models import Article, DailyDriver, Project, Site, StackModel

    checked = {
        Project: rules.PROJECT,
        Article: rules.ARTICLE,
        Site: rules.SITE,
        StackModel: rules.STACK_MODEL,
        DailyDriver: rules.DAILY_DRIVER,
    }
    for model, schema in checked.items():
        for field in model._meta.concrete_fields:
            if field.get_internal_type() == "CharField" and field.name in schema and not field.choices:
                assert schema[field.name].max_length == field.max_length, (model, field.name)


def test_an_oversized_file_is_refused_before_it_is_read(imported, settings):
    settings.CONTENT_MAX_FILE_BYTES = 10_000
    write_content(imported, {A: article(body="x" * 10_000)})
    with pytest.raises(ContentInvalid, match=r"articles/hostile.md: file: 10,\d+ bytes is over the limit"):
        import_content(imported, workers=1)


def test_a_body_over_its_render_budget_is_a_named_error(imported, monkeypatch):
    # The budget is a guard no real body reaches (markdown-it is linear): here made small enough
    # for 300 KB of links to exceed it.
    monkeypatch.setattr(markdown, "RENDER_SECONDS", 0.05)
    monkeypatch.setattr(markdown, "RENDER_SECONDS_PER_MB", 0)
    write_content(imported, {A: article(body="[a](/b) *c* " * 25_000 + "\n")})
    with pytest.raises(ContentInvalid, match=r"hostile.md: body: took more than 0.1 s of CPU time"):
        import_content(imported, workers=1)
    # Over, the budget is put away: no timer left running, the handler before it back.
    assert signal.getitimer(signal.ITIMER_PROF) == (0.0, 0.0)
    assert signal.getsignal(signal.SIGPROF) in (signal.SIG_DFL, None)


def test_symlinks_loops_and_links_outside_are_named(imported, tmp_path):
    outside = write_content(tmp_path / "outside", {"secret.md": article()})
    links = {
        "articles/loop.md": "articles/loop.md",
        "articles/away.md": str(outside / "secret.md"),
        "articles/nowhere.md": "articles/missing.md",
    }
    for rel, target in links.items():
        os.symlink(target if target.startswith("/") else imported / target, imported / rel)
    os.symlink(imported / "articles" / "first-post.md", imported / "articles" / "inside.md")
    with pytest.raises(ContentInvalid) as caught:
        import_content(imported, workers=1)
    assert sorted(map(str, caught.value.errors)) == [
        f"articles/away.md: file: a symbolic link to {outside / 'secret.md'}, outside the content folder",
        "articles/loop.md: file: a symbolic link loop",
        "articles/nowhere.md: file: a symbolic link to nothing",
    ]
    for rel in links:
        os.unlink(imported / rel)
    import_content(imported, workers=1)  # a link inside the folder is followed


def test_a_pipe_is_named_not_read(imported):
    os.mkfifo(imported / "articles" / "pipe.md")
    with pytest.raises(ContentInvalid, match="articles/pipe.md: file: expected a markdown file <slug>.md; "
                       "got a special file"):  # fmt: skip
        import_content(imported, workers=1)


UNREADABLE = """
import os, sys
import django
django.setup()
from portfolio.content.importer import import_content
from portfolio.content.rules import ContentInvalid
# An import as root first: every lazy import done, the database open (Python lives in /root here).
import_content(sys.argv[1], workers=1)
os.chmod(sys.argv[1] + "/articles/first-post.md", 0)
os.chmod(sys.argv[1] + "/projects", 0)
os.chmod(sys.argv[1] + "/..", 0o777)  # the database and its journal, writable by nobody
os.chmod(sys.argv[1] + "/../db", 0o666)
if os.geteuid() == 0:
    os.setgid(65534); os.setuid(65534)  # root reads everything: become nobody
try:
    import_content(sys.argv[1], workers=1, full=True)
except ContentInvalid as exc:
    print(exc)
"""


def test_unreadable_files_and_folders_are_named(settings):
    # Under /tmp itself: pytest's own temporary folders are closed to other users.
    root = Path(tempfile.mkdtemp(prefix="unreadable-"))
    try:
        root.chmod(0o755)
        content = write_content(root / "content")
        for path in content.rglob("*"):
            path.chmod(0o755 if path.is_dir() else 0o644)
        env = dict(
            os.environ,
            DJANGO_SETTINGS_MODULE="portfolio.settings",
            DATABASE_URL=f"sqlite:///{root}/db",
            CONTENT_CACHE_DIR=f"{root}/cache",  # empty: the first import decodes (and imports) for real
        )
        subprocess.run(
            [sys.executable, "manage.py", "migrate", "-v0"], cwd=settings.BASE_DIR, env=env, check=True
        )
        result = subprocess.run(
            [sys.executable, "-c", UNREADABLE, str(content)],
            cwd=settings.BASE_DIR, env=env, capture_output=True, text=True, timeout=60,
        )  # fmt: skip
    finally:
        shutil.rmtree(root)
    assert result.stdout.splitlines() == [
        "articles/first-post.md: file: cannot be read: Permission denied",
        "projects: folder: cannot be read: Permission denied",
    ], result.stderr


@pytest.fixture
def small_stack():
    """A 1 MB stack for the processes forked meanwhile, so that libyaml's composer overflows
    it at a depth the (quadratic) event walk reaches in a fraction of a second."""
    soft, hard = resource.getrlimit(resource.RLIMIT_STACK)
    resource.setrlimit(resource.RLIMIT_STACK, (1 << 20, hard))
    yield
    resource.setrlimit(resource.RLIMIT_STACK, (soft, hard))


def test_a_dead_worker_is_reported_as_the_file_that_killed_it(imported, monkeypatch, small_stack):
    """Lift the depth guard so that deep YAML segfaults libyaml's composer in a pool worker
    again, for real: the import names the file and keeps the database."""
    monkeypatch.setattr(rules, "YAML_DEPTH_MAX", 10**9)
    monkeypatch.setattr(importer, "POOL_MIN_FILES", 2)
    write_content(imported, {A: article(extra="x: " + "[" * 10_000 + "]" * 10_000 + "\n")})
    before = database_state()
    with pytest.raises(ContentInvalid) as caught:
        import_content(imported, workers=2, full=True)
    assert [str(e) for e in caught.value.errors] == [
        f"{A}: file: the parser process died on this file (killed by SIGSEGV)"
    ]
    assert database_state() == before


def png(width, height):
    """A PNG's bytes: a header claiming this size and no pixel data worth the name."""

    def chunk(kind, data):
        return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data))

    header = struct.pack(">IIBBBBB", width, height, 8, 2, 0, 0, 0)
    return (
        b"\x89PNG\r\n\x1a\n"
        + chunk(b"IHDR", header)
        + chunk(b"IDAT", zlib.compress(b""))
        + chunk(b"IEND", b"")
    )


def test_hostile_media_files_are_named(imported, tmp_path, settings):
    """The media folder gets the same treatment as the markdown: links only to files inside the
    folder, no loops, a size limit, and images Pillow cannot read (or would blow up) named."""
    before = database_state()
    media = imported / "media"
    media.mkdir(exist_ok=True)
    (tmp_path / "secret.png").write_bytes(png(10, 10))
    os.symlink(media / "loop.png", media / "loop.png")
    os.symlink(tmp_path / "secret.png", media / "away.png")
    os.symlink(tmp_path, media / "folder")
    (media / "bomb.png").write_bytes(png(60_000, 60_000))
    (media / "fake.png").write_bytes(b"not a png")
    (media / "big.svg").write_bytes(b"<svg width='1' height='1'/>" + b" " * 2_000)
    settings.MEDIA_MAX_FILE_BYTES = 1_000
    with pytest.raises(ContentInvalid) as caught:
        import_content(imported, workers=1)
    assert sorted(map(str, caught.value.errors)) == [
        f"media/away.png: file: a symbolic link to {tmp_path / 'secret.png'}, outside the content folder",
        "media/big.svg: file: 2,027 bytes is over the limit of 1,000 bytes per file (MEDIA_MAX_FILE_BYTES)",
        "media/bomb.png: image: expected a PNG image Pillow can read; Image size (3600000000 pixels) "
        "exceeds limit of 178956970 pixels, could be decompression bomb DOS attack.",
        "media/fake.png: image: expected a PNG image; Pillow does not recognise the file",
        "media/folder/: folder: a symbolic link to a folder, not followed: link the files instead",
        "media/loop.png: file: a symbolic link loop",
    ]
    assert database_state() == before
