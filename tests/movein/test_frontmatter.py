"""frontmatter.py: the front matter of another generator's post (YAML, TOML, JSON) read leniently
but guarded, dates as written, and every unreadable file one message saying why (the report's
"failed" line)."""

import datetime

import pytest

from portfolio.movein import frontmatter
from portfolio.movein.frontmatter import Unreadable


@pytest.mark.parametrize(
    "text, fields, body, kind",
    [
        ("---\ntitle: A\ntags: [x, y]\n---\nBody.\n", {"title": "A", "tags": ["x", "y"]}, "Body.\n", "yaml"),
        ("+++\ntitle = 'T'\ndraft = true\n+++\nBody", {"title": "T", "draft": True}, "Body", "toml"),
        ('{"title": "J", "n": 1}\n\nBody', {"title": "J", "n": 1}, "Body", "json"),
        ("---\n---\nBody", {}, "Body", "yaml"),  # empty front matter
        ("---\ntitle: x\n---", {"title": "x"}, "", "yaml"),  # no body, no newline at the end
        ("No front matter.\n---\n", {}, "No front matter.\n---\n", None),
        ("", {}, "", None),
        ("---\ntitle: Ünïcode 日本\n---\nça\n", {"title": "Ünïcode 日本"}, "ça\n", "yaml"),
    ],
)
def test_split(text, fields, body, kind):
    assert frontmatter.split(text) == (fields, body, kind)


def test_a_body_holding_rules_keeps_them():
    # the front matter ends at its first closing line; later `---` lines are the body's
    assert frontmatter.split("---\na: 1\n---\n---\nmore\n---\n") == ({"a": 1}, "---\nmore\n---\n", "yaml")


def test_a_yaml_date_is_kept_as_written():
    # a timestamp would be moved to UTC: 01:00 at +0200 is 23:00 UTC the day before
    fields, _, _ = frontmatter.split("---\ndate: 2014-05-12 01:00:00 +0200\nday: 2014-05-12\n---\n")
    assert fields == {"date": "2014-05-12 01:00:00 +0200", "day": "2014-05-12"}


def test_a_toml_date_is_toml_s():
    fields, _, _ = frontmatter.split("+++\ndate = 2014-05-12\n+++\n")
    assert fields == {"date": datetime.date(2014, 5, 12)}


@pytest.mark.parametrize(
    "text, message",
    [
        ("---\nno closing\n", "no closing line holding exactly '---' was found"),
        ("---", "no closing line holding exactly '---' was found"),
        ("+++\ntitle = 'x'\n", "no closing line holding exactly '+++' was found"),
        ("---\n- a\n- b\n---\n", "the front matter is not a mapping of keys to values"),
        ("---\ntitle: [\n---\n", "invalid YAML front matter at line 3: did not find expected node content"),
        ("+++\nx = \n+++\n", "invalid TOML front matter: Invalid value (at line 1, column 5)"),
        ("{bad", "invalid JSON front matter at line 1: Expecting property name enclosed in double quotes"),
        ("---\nx: !!python/object:os.system x\n---\n",
         "invalid YAML at line 2: tag !!python/object:os.system is not allowed: write the plain value"),
    ],
)  # fmt: skip
def test_unreadable_front_matter_says_why(text, message):
    with pytest.raises(Unreadable) as caught:
        frontmatter.split(text)
    assert str(caught.value) == message


def test_yaml_aliases_that_multiply_are_refused():
    # a billion laughs: each alias doubles the document, the guard refuses it before loading
    lines = ["a0: &a0 [x, x]"] + [f"a{n}: &a{n} [*a{n - 1}, *a{n - 1}]" for n in range(1, 40)]
    with pytest.raises(Unreadable):
        frontmatter.split("---\n" + "\n".join(lines) + "\n---\n")


@pytest.mark.parametrize(
    "text, kind",
    [
        ('{"a":' * 10_000 + "1" + "}" * 10_000, "JSON"),
        ("+++\na = " + "[" * 10_000 + "]" * 10_000 + "\n+++\n", "TOML"),
    ],
)
def test_front_matter_nested_too_deep_is_unreadable_not_a_crash(text, kind):
    with pytest.raises(Unreadable) as caught:
        frontmatter.split(text)
    assert str(caught.value) == f"invalid {kind} front matter: nested too deep"


def test_decode_takes_off_a_byte_order_mark_and_normalises_line_endings():
    assert frontmatter.decode("\ufeff---\r\ntitle: é\r\n---\rbody\n".encode()) == "---\ntitle: é\n---\nbody\n"


def test_a_bom_and_crlf_file_splits_as_any_other():
    text = frontmatter.decode(b"\xef\xbb\xbf---\r\ntitle: T\r\n---\r\nLine 1\r\nLine 2\r\n")
    assert frontmatter.split(text) == ({"title": "T"}, "Line 1\nLine 2\n", "yaml")


def test_decode_names_the_first_byte_that_is_not_utf8():
    with pytest.raises(Unreadable) as caught:
        frontmatter.decode("ok é".encode() + b"\xff rest")
    assert str(caught.value) == "not UTF-8 text (byte 0xff at offset 5)"


@pytest.mark.parametrize(
    "name, text, data",
    [
        ("hugo.toml", 'title = "T"\n[params]\nm = [1]\n', {"title": "T", "params": {"m": [1]}}),
        ("_config.yml", "\ufefftitle: Y\r\nbaseurl: /b\r\n", {"title": "Y", "baseurl": "/b"}),
        ("config.json", '{"title": "J"}', {"title": "J"}),
        ("broken.toml", "title = ", {}),  # unreadable: {}, the reader goes on with its defaults
        ("broken.yaml", "a: [", {}),
        ("list.yaml", "- a\n", {}),  # not a mapping
        ("latin1.yml", None, {}),
        ("missing.toml", "", {}),
    ],
)  # fmt: skip
def test_read_config(tmp_path, name, text, data):
    path = tmp_path / name
    if text is None:
        path.write_bytes(b"title: caf\xe9\n")
    elif name != "missing.toml":
        path.write_text(text, encoding="utf-8")
    assert frontmatter.read_config(path) == data
