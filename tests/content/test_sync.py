"""The importer mirrors the content folder: creates, updates, deletes, skips what is unchanged."""

import datetime
import os
import re

import pytest
from django.conf import settings
from django.core.management import call_command
from django.core.management.base import CommandError
from django.db import connection
from django.test.utils import CaptureQueriesContext

from portfolio.content.importer import IMPORT_VERSION, import_content
from portfolio.content.models import Article, ImportState, Project, Site, Stack
from portfolio.content.rules import ContentInvalid
from tests.content_builder import DRAFT_SLUG, article, project, write_content

from .helpers import database_state

WRITES = re.compile(r"^\s*(INSERT|UPDATE|DELETE)", re.IGNORECASE)


def test_the_sample_content_imports(db):
    result = import_content(settings.BASE_DIR / "content", workers=1)
    assert result.projects >= 4 and result.articles >= 5 and result.drafts >= 1
    assert set(Project.objects.values_list("status", flat=True)) == {"active", "reference", "experimental"}
    assert Project.objects.exclude(case_study_items=[]).exists()
    assert Project.objects.filter(case_study_items=[]).exists()
    for needle in ("<h2", "<table>", '<div class="highlight">', "<a href="):
        assert Article.objects.published().filter(body_html__contains=needle).exists(), needle


def test_fields_are_imported_as_written(imported):
    alpha = Project.objects.get(slug="alpha-one")
    assert alpha.title == "Alpha One" and alpha.featured is True and alpha.status == "active"
    assert alpha.date == datetime.date(2026, 3, 1)
    assert alpha.stack == ["Python", "Django"]
    assert list(alpha.case_study) == ["zeta", "alpha"], "caseStudy keeps the file's key order"
    beta = Project.objects.get(slug="beta_two")
    assert beta.featured is False and beta.case_study == {} and beta.stack == []
    assert Article.objects.get(slug="first-post").tags == ["intro", "meta"]
    assert Article.objects.get(slug="same-day").tags == ["python"]
    assert Article.objects.get(slug=DRAFT_SLUG).draft is True
    stack = Stack.objects.get()
    assert [m.name for m in stack.models.all()] == ["Hosted", "Local"]
    assert [(d.tool, d.status, d.url) for d in stack.daily_drivers.all()] == [
        ("Editor", "daily", "https://editor.example"),
        ("Agent", "exploring", ""),
    ]
    assert Site.load().url == "https://portfolio.test"


def test_bodies_are_kept_byte_for_byte_with_crlf_normalised(imported):
    gamma = Project.objects.get(slug="gamma")
    assert gamma.title == "Gämma ✓ ünïcode"
    assert gamma.body == "Ünïcode body — ✓\nline two\n"
    assert Article.objects.get(slug="crlf-post").body == "line one\nline two\n"
    delta = Project.objects.get(slug="delta")  # written with a byte-order mark
    assert delta.title == "Delta" and delta.body == "Project body.\n"
    assert Article.objects.get(slug="unicode-post").title == "Ünïcode ✓ 日本語"


@pytest.mark.parametrize(
    ("text", "body"),
    [
        ('---\ntitle: "t"\ndescription: "d"\ndate: 2026-01-01\n---\n', ""),
        ('---\ntitle: "t"\ndescription: "d"\ndate: 2026-01-01\n---', ""),
        (
            '---\ntitle: "t"\ndescription: "d"\ndate: "2026-01-01"\n---\n\n  indented\n---\nmore\n',
            "\n  indented\n---\nmore\n",
        ),
        ('---\ntitle: "t"\ndescription: "d"\ndate: 2026-01-01\n---\nno final newline', "no final newline"),
    ],
)
def test_body_is_everything_after_the_closing_line(imported, text, body):
    write_content(imported, {"articles/edge.md": text})
    import_content(imported, workers=1)
    assert Article.objects.get(slug="edge").body == body


def test_rendered_html_has_highlighting_tables_and_heading_anchors(imported):
    html = Project.objects.get(slug="alpha-one").body_html
    assert '<h1 id="alpha">' in html and 'href="#alpha"' in html
    assert "<table>" in html
    assert '<div class="highlight"><pre tabindex="0">' in html and '<span class="nb">print</span>' in html


def test_edit_add_and_delete_are_synced(imported):
    write_content(
        imported,
        {
            "articles/first-post.md": article("First post, edited", date="2025-01-10"),
            "projects/new-one.md": project("New one", date="2026-06-01"),
        },
    )
    (imported / "projects" / "beta_two.md").unlink()

    result = import_content(imported, workers=1)

    assert (result.created, result.updated, result.deleted) == (1, 1, 1)
    assert (
        result.unchanged == 11 - 1 - 1 + 0
    )  # 9 project/article files + 2 yaml, less the edit and the delete
    assert Article.objects.get(slug="first-post").title == "First post, edited"
    assert Project.objects.filter(slug="new-one").exists()
    assert not Project.objects.filter(slug="beta_two").exists()


def test_stack_and_site_edits_replace_the_profile(imported):
    stack_yaml = (imported / "stack.yaml").read_text().replace("Testing everything", "Something new")
    write_content(imported, {"stack.yaml": stack_yaml})
    import_content(imported, workers=1)
    stack = Stack.objects.get()
    assert stack.current_focus == "Something new"
    assert stack.models.count() == 2 and stack.daily_drivers.count() == 2


def test_an_unchanged_reimport_writes_nothing(imported):
    with CaptureQueriesContext(connection) as queries:
        result = import_content(imported, workers=1)
    assert not result.changed and result.unchanged == 11
    assert [q["sql"] for q in queries if WRITES.match(q["sql"])] == []


def test_a_draft_becoming_published_and_back(imported):
    write_content(imported, {f"articles/{DRAFT_SLUG}.md": article("Now public", date="2026-04-04")})
    import_content(imported, workers=1)
    assert Article.objects.published().filter(slug=DRAFT_SLUG).exists()


def test_large_imports_render_in_a_process_pool(db, content_dir):
    write_content(
        content_dir,
        {f"articles/bulk-{i:03d}.md": article(f"Bulk {i}", body=f"## H{i}\n") for i in range(240)},
    )
    result = import_content(content_dir, workers=2)
    assert result.created == 251
    assert Article.objects.get(slug="bulk-117").body_html.startswith('<h2 id="h117">')


def test_command_prints_a_summary(db, content_dir, capsys):
    call_command("import_content", path=content_dir)
    out = capsys.readouterr().out
    assert re.fullmatch(
        r"4 projects, 5 articles \(1 draft\), site and stack: 11 created, 0 updated, 0 deleted, "
        r"0 unchanged in \d+\.\d\d s\n",
        out,
    ), out


def test_command_fails_with_every_error_and_imports_nothing(db, content_dir, capsys):
    write_content(content_dir, {"projects/bad.md": project(status="done", date="2026-02-30")})
    with pytest.raises(CommandError, match=r"2 problem\(s\) in .*; nothing was imported"):
        call_command("import_content", path=content_dir)
    err = capsys.readouterr().err
    assert "projects/bad.md: status: expected one of active, reference, experimental; got 'done'" in err
    assert "projects/bad.md: date: expected a calendar date YYYY-MM-DD; got '2026-02-30'" in err
    assert not Project.objects.exists()


def test_site_url_setting_overrides_site_yaml(imported, settings):
    assert Site.load().base_url == "https://portfolio.test"
    settings.SITE_URL = "https://www.example.org"
    assert Site.load().base_url == "https://www.example.org"


def test_a_touched_file_is_read_once_then_skipped_by_its_stat(imported):
    path = imported / "articles" / "first-post.md"
    os.utime(path, ns=(1, 1_700_000_000_000_000_000))
    result = import_content(imported, workers=1)
    assert not result.changed, "same bytes: not an update"
    assert Article.objects.get(slug="first-post").source_mtime_ns == 1_700_000_000_000_000_000
    with CaptureQueriesContext(connection) as queries:
        import_content(imported, workers=1)
    assert [q["sql"] for q in queries if WRITES.match(q["sql"])] == []


def test_the_stats_the_caller_took_stand_for_the_files(imported):
    """The build's fingerprint has just stat()ed every content file; the import takes those
    stats instead of its own. Shown here with a stat taken before an edit: the edit is unseen
    until an import looks again (the build records the same old stat, so its next run does)."""
    path = imported / "articles" / "first-post.md"
    before = os.stat(path)
    path.write_text(path.read_text().replace("Article body.", "An edited body."))
    os.utime(path, ns=(before.st_atime_ns, before.st_mtime_ns + 1))
    taken = {str(path.resolve()): (before.st_mtime_ns, before.st_size)}
    import_content(imported, workers=1, stats=taken)
    assert "An edited body." not in Article.objects.get(slug="first-post").body
    import_content(imported, workers=1)
    assert "An edited body." in Article.objects.get(slug="first-post").body


def test_full_reparses_every_file(imported):
    result = import_content(imported, workers=1, full=True)
    assert (result.created, result.updated, result.unchanged) == (0, 11, 0)


def test_rows_made_by_other_code_are_rendered_again_though_no_file_changed(imported):
    """A new RENDER_VERSION or VARIANT_VERSION changes what the bodies' HTML holds (the names of
    the image variants among it): the next import renders every file, whatever its stat says."""
    Article.objects.filter(slug="first-post").update(body_html="<p>made by older code</p>")
    assert not import_content(imported, workers=1).changed  # the same code: the stat stands
    ImportState.objects.update(version="render 1, variants 1")
    assert import_content(imported, workers=1).updated == 11
    assert "older code" not in Article.objects.get(slug="first-post").body_html
    assert ImportState.version_stored() == IMPORT_VERSION


def test_an_error_after_a_written_batch_still_leaves_the_database_as_it_was(imported):
    before = database_state()
    files = {f"articles/bulk-{i:04d}.md": article(f"Bulk {i}") for i in range(1200)}
    files["articles/bulk-1199.md"] = article("Broken", status="done")
    write_content(imported, files)
    with pytest.raises(ContentInvalid) as caught:
        import_content(imported, workers=2)
    assert [(e.path, e.field) for e in caught.value.errors] == [("articles/bulk-1199.md", "status")]
    assert database_state() == before


def test_an_import_of_only_the_changed_files_looks_at_nothing_else(imported, content_dir):
    """The authoring server knows which files changed (inotify) and imports only those."""
    # Behind the importer's back: an invalid file it is not told about is not looked at...
    write_content(content_dir, {"articles/unseen.md": article("Unseen", status="done")})
    write_content(content_dir, {"articles/first-post.md": article("First post, edited")})
    (content_dir / "articles" / "same-day.md").unlink()
    result = import_content(content_dir, workers=1, only={"articles/first-post.md", "articles/same-day.md"})
    assert (result.updated, result.deleted, result.unchanged) == (1, 1, 0)
    assert Article.objects.get(slug="first-post").title == "First post, edited"
    assert not Article.objects.filter(slug__in=["same-day", "unseen"]).exists()
    # ...and a file named is checked like any other.
    with pytest.raises(ContentInvalid, match="articles/unseen.md: status"):
        import_content(content_dir, workers=1, only={"articles/unseen.md"})
    with pytest.raises(ContentInvalid, match="site.yaml: file: required file is missing"):
        (content_dir / "site.yaml").unlink()
        import_content(content_dir, workers=1, only={"site.yaml"})
