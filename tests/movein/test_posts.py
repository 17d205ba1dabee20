"""posts.py, what every reader stands on: a post file read (or skipped, or failed, saying why),
warnings at their line of the file, the files walked, and front matter values as the readers
take them (dates as written and as JavaScript reads them, words, the first key present)."""

import datetime

import pytest
from django.test import override_settings

from portfolio.movein import posts
from portfolio.movein.posts import Failed, Post, Skip


def test_a_post_is_read_with_the_line_its_body_starts_on(tmp_path):
    path = tmp_path / "_posts" / "2020-01-01-hello.md"
    path.parent.mkdir()
    path.write_bytes(b"\xef\xbb\xbf---\r\ntitle: H\r\n---\r\nOne.\r\n\r\nTwo {% x %}.\r\n")
    post = posts.read_post(path, tmp_path, "hello", draft=True)
    assert isinstance(post, Post)
    assert (post.rel, post.name, post.fields, post.body, post.draft) == (
        "_posts/2020-01-01-hello.md", "hello", {"title": "H"}, "One.\n\nTwo {% x %}.\n", True,
    )  # fmt: skip
    assert post.body_line == 4
    # a warning at a place of the body names the line of the file the author sees
    post.warn("here", post.body.index("{% x %}"))
    post.warn("somewhere")
    assert post.warnings == [(6, "here"), (None, "somewhere")]


def test_a_post_without_front_matter_starts_on_line_1(tmp_path):
    (tmp_path / "a.md").write_text("Just text.\n")
    post = posts.read_post(tmp_path / "a.md", tmp_path, "a")
    assert (post.fields, post.body, post.body_line) == ({}, "Just text.\n", 1)


@pytest.mark.parametrize(
    "data, reason",
    [
        (b"---\ntitle: [\n---\n", "invalid YAML front matter at line 3: did not find expected node content"),
        (b"---\ntitle: caf\xe9\n---\n", "not UTF-8 text (byte 0xe9 at offset 14)"),
        (b"---\nno end\n", "no closing line holding exactly '---' was found"),
    ],
)
def test_a_post_that_cannot_be_read_fails_saying_why(tmp_path, data, reason):
    (tmp_path / "bad.md").write_bytes(data)
    assert posts.read_post(tmp_path / "bad.md", tmp_path, "bad") == Failed("bad.md", reason)


@override_settings(CONTENT_MAX_FILE_BYTES=100)
def test_a_post_over_the_content_formats_limit_fails(tmp_path):
    (tmp_path / "big.md").write_text("x" * 101)
    failed = posts.read_post(tmp_path / "big.md", tmp_path, "big")
    assert failed == Failed(
        "big.md", "101 bytes is over the limit of 100 bytes per file (CONTENT_MAX_FILE_BYTES)"
    )


def test_a_link_out_of_source_is_skipped_and_one_inside_is_read(tmp_path):
    source = tmp_path / "site"
    source.mkdir()
    (tmp_path / "secret.md").write_text("---\ntitle: S\n---\nsecret\n")
    (source / "own.md").write_text("---\ntitle: O\n---\nown\n")
    (source / "out.md").symlink_to(tmp_path / "secret.md")
    (source / "in.md").symlink_to(source / "own.md")
    (source / "nothing.md").symlink_to(source / "gone.md")
    assert posts.read_post(source / "out.md", source, "out") == Skip(
        "out.md", f"leads out of SOURCE (to {tmp_path / 'secret.md'}): not read"
    )
    assert posts.read_post(source / "in.md", source, "in").body == "own\n"
    assert posts.leads_out(source / "nothing.md", source) == "a symbolic link to nothing: not read"
    (source / "loop.md").symlink_to(source / "loop.md")
    assert posts.leads_out(source / "loop.md", source) == "a symbolic link loop: not read"


def test_walk_leaves_out_build_output_dependencies_hidden_and_backup_files(tmp_path):
    for rel in ["b.md", "a/c.md", "node_modules/x.md", "_site/y.md", ".git/z.md", ".hidden.md",
                "a/.cache/w.md", "draft.md~", "public/p.md", "a/public.md"]:  # fmt: skip
        (tmp_path / rel).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / rel).write_text("x")
    assert [p.relative_to(tmp_path).as_posix() for p in posts.walk(tmp_path)] == [
        "a/c.md",
        "a/public.md",
        "b.md",
    ]


@pytest.mark.parametrize(
    "value, date",
    [
        ("2014-05-12 23:30:00 +0200", datetime.date(2014, 5, 12)),  # the day written, not UTC's
        ("2014-05-12T01:00:00+02:00", datetime.date(2014, 5, 12)),
        ("2024-8-5", datetime.date(2024, 8, 5)),
        ("  Aug 25, 2024 ", datetime.date(2024, 8, 25)),
        ("Sunday, August 25th 2024", datetime.date(2024, 8, 25)),
        ("25 Sept. 2024", datetime.date(2024, 9, 25)),
        (datetime.datetime(2020, 1, 2, 23, 59), datetime.date(2020, 1, 2)),
        (datetime.date(2020, 1, 2), datetime.date(2020, 1, 2)),
        ("2020-02-30", None),  # no such day
        ("13/45/2020", None),
        ("garbage", None),
        ("", None),
        (20200101, None),
        (None, None),
    ],
)
def test_date_of(value, date):
    assert posts.date_of(value) == date


def test_words():
    assert posts.words("jekyll  tags\tas words") == ["jekyll", "tags", "as", "words"]
    assert posts.words(["x", 1, 2.5, None, "", " ", {"a": 1}, ["n"]]) == ["x", "1", "2.5"]
    assert posts.words(None) == [] and posts.words({"a": 1}) == []


def test_text_of():
    assert (posts.text_of("  t \n"), posts.text_of(3), posts.text_of(None)) == ("t", "", "")


def test_first_of_skips_empty_values_but_not_false_or_zero():
    fields = {"a": "", "b": [], "c": None, "d": 0, "e": "x"}
    assert posts.first_of(fields, "a", "b", "c", "d", "e") == ("d", 0)
    assert posts.first_of(fields, "a", "missing") == (None, None)
