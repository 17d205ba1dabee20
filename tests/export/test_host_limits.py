"""The host's limits: a build whose output would break one fails naming it, and publishes nothing.
Lowered limits on the small test content stand for the host's real ones."""

import io
import re

import pytest

from portfolio.export import hosts
from portfolio.export.build import build
from portfolio.export.limits import breakdown, header_rule_count, redirect_counts
from portfolio.export.state import BuildFailed
from tests.content_builder import article, write_content

from .conftest import distill_local, tree


@pytest.fixture
def site(db, content_dir, settings, tmp_path):
    """build() into tmp_path/site, in this process; the folder's files after it."""
    settings.SITE_URL = ""
    settings.CONTENT_DIR = content_dir

    def run():
        build(tmp_path / "site", workers=1, stderr=io.StringIO())
        return tree(tmp_path / "site")

    return run


def fails(site, before, tmp_path):
    """The build fails; its problems, with the previous output as it was."""
    with pytest.raises(BuildFailed) as failed:
        site()
    assert tree(tmp_path / "site") == before
    return failed.value.problems


def test_too_many_files(site, settings, content_dir, tmp_path):
    before = site()
    settings.HOST_MAX_FILES = len(before)  # what is published: _headers and _redirects count
    write_content(content_dir, {"articles/one-more.md": article("One more", date="2026-05-05")})
    problems = fails(site, before, tmp_path)
    assert len(problems) == 1
    count = int(re.match(r"([\d,]+) files; ", problems[0])[1].replace(",", ""))
    assert count > len(before)
    assert f"the host takes {len(before):,} (HOST_MAX_FILES;" in problems[0]
    assert "On a paid plan set HOST_MAX_FILES=100000" in problems[0]
    assert re.search(r"The files by kind: (?:.*, )?\d+ pages \(\*\.html\), ", problems[0])
    assert re.search(r"\b\d+ search index files \(pagefind/", problems[0])
    settings.HOST_MAX_FILES = count  # exactly at the limit: it builds, and publishes that many
    assert len(site()) == count


def test_a_file_too_large(site, settings, tmp_path):
    before = site()
    largest = max(before, key=lambda path: len(before[path]))
    settings.HOST_MAX_FILE_BYTES = len(before[largest])  # at the limit; the files are carried over
    assert site() == before
    settings.HOST_MAX_FILE_BYTES = len(before[largest]) - 1
    problems = fails(site, before, tmp_path)
    size = len(before[largest])
    named = [problem.split(":")[0] for problem in problems]
    assert named == sorted(path for path in before if len(before[path]) == size)
    assert problems[0].startswith(
        f"{largest}: {size:,} bytes; the host takes files of up to {size - 1:,} bytes (HOST_MAX_FILE_BYTES)."
    )


def test_an_api_list_too_large_says_the_spec_keeps_it_whole(site, settings, tmp_path, monkeypatch):
    before = site()
    limit = len(before["api/v1/articles.json"]) - 1
    settings.HOST_MAX_FILE_BYTES = limit
    monkeypatch.setattr("portfolio.export.limits.LISTED", len(before))
    problems = fails(site, before, tmp_path)
    assert {problem.split(":")[0] for problem in problems} == {p for p in before if len(before[p]) > limit}
    (listed,) = [problem for problem in problems if problem.startswith("api/v1/articles.json: ")]
    assert "The API spec requires this list whole" in listed


# `_headers`' rules, counted in the test (the security headers' rule reads the imported site).
HEADER_RULES = "header rules"


@pytest.mark.parametrize(
    ("setting", "at_limit", "message"),
    [
        # The API's 4, the 5 old addresses of each of the test content's 3 published slug aliases,
        # the 3 and 2 spellings of its 2 published absolute paths.
        ("HOST_MAX_STATIC_REDIRECTS", 24,
         "_redirects: 24 static rules, 20 of which redirect the old addresses of renamed items (front "
         "matter `aliases`: each alias adds a rule per old address; drop those of renames no one links "
         "to any more); the host takes 23 (HOST_MAX_STATIC_REDIRECTS)"),
        ("HOST_MAX_DYNAMIC_REDIRECTS", 4, "_redirects: 4 dynamic rules"),
        ("HOST_MAX_HEADER_RULES", HEADER_RULES,
         "_headers: {n} rules; the host takes {less} (HOST_MAX_HEADER_RULES)"),
    ],
)  # fmt: skip
def test_too_many_rules(site, settings, tmp_path, setting, at_limit, message):
    if at_limit == HEADER_RULES:
        before = site()
        at_limit = len(hosts.header_rules())
        message = message.format(n=at_limit, less=at_limit - 1)
    setattr(settings, setting, at_limit)
    before = site()
    setattr(settings, setting, at_limit - 1)
    problems = fails(site, before, tmp_path)
    assert len(problems) == 1
    assert problems[0].startswith(message)
    assert setting in problems[0]


def test_a_rule_after_a_dynamic_one_is_dynamic(site, settings, tmp_path):
    """Cloudflare counts every rule after the first dynamic one as dynamic: the contact service's
    two proxy rules (the post, the challenge), written after the API's rewrites, are the fifth
    and sixth."""
    settings.HOST_MAX_DYNAMIC_REDIRECTS = 4
    before = site()
    settings.CONTACT_SERVICE_URL = "https://contact.example.net"
    problems = fails(site, before, tmp_path)
    assert [problem[: problem.index(";")] for problem in problems] == [
        "_redirects: 6 dynamic rules (a rule with `*` or a `:placeholder`, and every rule after the "
        "first such one)"
    ]


def test_files_too_large_are_named_up_to_a_count(site, settings, tmp_path):
    before = site()
    settings.HOST_MAX_FILE_BYTES = 100
    problems = fails(site, before, tmp_path)
    assert len(problems) == 21
    larger = sum(len(body) > 100 for body in before.values())
    assert problems[-1] == f"... and {larger - 20} more files larger than HOST_MAX_FILE_BYTES (100 bytes)"


def test_redirect_and_header_counts(imported):
    assert redirect_counts("# a comment\n\n/a /b 301\n/c /d 200\n") == (2, 0)
    assert redirect_counts("/a /b\n/blog/* /news/:splat\n/c /d\n/x/:id /y/:id 200\n") == (1, 3)
    assert redirect_counts(hosts.redirects_file()) == (4, 4)
    assert redirect_counts(hosts.redirects_file(["/a /b 200!"], [("/old", "/new")])) == (5, 5)
    text = "# rules\n/*\n  X-A: 1\n/api/:x\n  Link: <https://a.example/b>\nhttps://example.com/*\n  X-B: 2\n"
    assert header_rule_count(text) == 3
    assert header_rule_count(hosts.headers_file()) == len(hosts.header_rules())


def test_breakdown_names_the_kinds_most_first():
    files = {"a.html", "b.html", "c.html", "media/x.png", "media/_v/x.webp", "api/v1.json", "x.md"}
    files |= {"_headers", "pagefind/0/fragment/en_1.pf_fragment", "pagefind/0/pagefind-entry.json"}
    assert breakdown(files) == (
        "3 pages (*.html), 2 media files (media/, the images and their resized variants), "
        "2 search index files (pagefind/, about one a searchable page), "
        "1 API documents (*.json), 1 markdown twins (*.md), 1 others"
    )


def test_the_command_exits_1_and_leaves_the_output(tmp_path):
    content = write_content(tmp_path / "content")
    out, db = tmp_path / "site", tmp_path / "db.sqlite3"
    assert distill_local(content, out, db).returncode == 0
    before = tree(out)
    result = distill_local(content, out, db, env={"HOST_MAX_FILES": "10"})
    assert result.returncode == 1
    assert f"{len(before):,} files; the host takes 10 (HOST_MAX_FILES;" in result.stderr
    assert "was left as it was" in result.stderr
    assert tree(out) == before
