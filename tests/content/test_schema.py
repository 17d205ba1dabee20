"""portfolio.content.schema: a new, empty SQLite database starts as a copy of one `migrate` made,
and must be exactly what `migrate` makes (schema, history, content types, permissions)."""

import os
import sqlite3
import subprocess
import sys
import weakref

import pytest
from django.conf import settings
from django.db.models.signals import post_migrate, pre_migrate
from django.test.utils import CaptureQueriesContext

MIGRATE = "import django; django.setup(); from portfolio.content.schema import migrate; migrate()"


def run(args, db, cache, **kwargs):
    env = dict(os.environ, DJANGO_SETTINGS_MODULE="portfolio.settings", DATABASE_URL=f"sqlite:///{db}",
               SCHEMA_CACHE_DIR=str(cache))  # fmt: skip
    return subprocess.run([sys.executable, *args], cwd=settings.BASE_DIR, env=env, check=True,
                          capture_output=True, text=True, timeout=60, **kwargs)  # fmt: skip


def dump(db):
    """Every table, index and trigger as SQLite stores it (in creation order), and the rows the
    migrations and their post-migrate handlers write."""
    with sqlite3.connect(db) as conn:
        schema = conn.execute("SELECT type, name, tbl_name, sql FROM sqlite_master ORDER BY rowid").fetchall()
        history = conn.execute("SELECT id, app, name FROM django_migrations ORDER BY id").fetchall()
        types = conn.execute("SELECT * FROM django_content_type ORDER BY id").fetchall()
        permissions = conn.execute("SELECT * FROM auth_permission ORDER BY id").fetchall()
    return {"schema": schema, "history": history, "types": types, "permissions": permissions}


def applied_times(db):
    with sqlite3.connect(db) as conn:
        return conn.execute("SELECT applied FROM django_migrations ORDER BY id").fetchall()


def test_a_new_database_is_what_migrate_makes(tmp_path):
    cache = tmp_path / "schema"
    run(["manage.py", "migrate", "-v0"], tmp_path / "migrated.sqlite3", cache)
    reference = dump(tmp_path / "migrated.sqlite3")
    assert len(reference["history"]) >= 20 and reference["permissions"], reference["history"]
    assert not cache.exists(), "manage.py migrate itself keeps no template"

    run(["-c", MIGRATE], tmp_path / "first.sqlite3", cache)  # no template yet: migrate, then keep it
    assert len(list(cache.glob("*.sqlite3"))) == 1
    run(["-c", MIGRATE], tmp_path / "copied.sqlite3", cache)
    # The same applied times as the first: the copy's, not a second migrate's.
    assert applied_times(tmp_path / "copied.sqlite3") == applied_times(tmp_path / "first.sqlite3")
    assert dump(tmp_path / "first.sqlite3") == reference
    assert dump(tmp_path / "copied.sqlite3") == reference

    again = run(["manage.py", "migrate", "-v1"], tmp_path / "copied.sqlite3", cache)
    assert "No migrations to apply." in again.stdout, again.stdout
    assert dump(tmp_path / "copied.sqlite3") == reference


def test_a_database_with_any_table_is_migrated_not_replaced(tmp_path):
    db, cache = tmp_path / "db.sqlite3", tmp_path / "schema"
    run(["-c", MIGRATE], tmp_path / "fresh.sqlite3", cache)  # makes the template
    with sqlite3.connect(db) as conn:
        conn.execute("CREATE TABLE notes (text)")
        conn.execute("INSERT INTO notes VALUES ('kept')")
    run(["-c", MIGRATE], db, cache)
    with sqlite3.connect(db) as conn:
        assert conn.execute("SELECT text FROM notes").fetchall() == [("kept",)]
    fresh = dump(tmp_path / "fresh.sqlite3")
    assert dump(db)["history"] == fresh["history"] and dump(db)["types"] == fresh["types"]
    assert len(dump(db)["schema"]) == len(fresh["schema"]) + 1  # every table, and notes


def test_only_djangos_own_post_migrate_handlers():
    """The template holds what the post-migrate handlers wrote when it was made, and its key
    covers Django's version, not an app's code: a handler of our own would need to be in the key
    (portfolio.content.schema.template_key) or to run after the copy."""
    modules = set()
    for signal in (pre_migrate, post_migrate):
        for entry in signal.receivers:
            receiver = entry[1]() if isinstance(entry[1], weakref.ReferenceType) else entry[1]
            modules.add(receiver.__module__)
    assert modules == {"django.contrib.auth.management", "django.contrib.contenttypes.management"}


def test_each_configuration_keeps_its_own_template(tmp_path, monkeypatch):
    """`make serve` (DEBUG adds django-browser-reload) and `make build` migrate different sets of
    apps: neither may throw the other's template away."""
    cache = tmp_path / "schema"
    run(["-c", MIGRATE], tmp_path / "build.sqlite3", cache)
    monkeypatch.setenv("DEBUG", "1")
    run(["-c", MIGRATE], tmp_path / "serve.sqlite3", cache)
    assert len(list(cache.glob("*.sqlite3"))) == 2


def test_the_bodies_move_to_the_end_of_their_rows_with_their_text(tmp_path):
    """Migration 0004: reading a row's later columns (slug, title, date...) must not walk the
    overflow pages of its bodies. An existing database keeps every body. (The contents, read
    with the bodies only, come after them: 0008.)"""
    db, cache = tmp_path / "db.sqlite3", tmp_path / "schema"
    run(["manage.py", "migrate", "content", "0003", "-v0"], db, cache)
    body, html = "# Ünïcode\n" + "words " * 2000, "<h1>Ünïcode</h1>" + "<p>words</p>" * 2000
    with sqlite3.connect(db) as conn:
        conn.execute(
            "INSERT INTO content_article (source_path, content_hash, body, body_html, slug, title, "
            "description, date, tags, draft, source_mtime_ns, source_size, image) "
            "VALUES ('articles/a.md', 'x', ?, ?, 'a', 'A', 'd', '2026-01-01', '[]', 0, 1, 2, '{}')",
            (body, html),
        )
    run(["manage.py", "migrate", "-v0"], db, cache)
    with sqlite3.connect(db) as conn:
        for table in ("content_article", "content_project"):
            columns = [row[1] for row in conn.execute(f"PRAGMA table_info({table})")]
            assert columns[-3:] == ["body", "body_html", "contents"], columns
        assert conn.execute("SELECT slug, body, body_html FROM content_article").fetchall() == [
            ("a", body, html)
        ]


def test_the_listing_index_outlives_the_table_remade_for_the_contents(tmp_path):
    """Migration 0008 adds a column by remaking the article table, which drops article_listing:
    it is there after 0008, and after 0008 is undone."""
    db, cache = tmp_path / "db.sqlite3", tmp_path / "schema"

    def listing_index():
        with sqlite3.connect(db) as conn:
            return {row[2] for row in conn.execute("PRAGMA index_info('article_listing')")}

    run(["manage.py", "migrate", "content", "0008", "-v0"], db, cache)
    assert "title" in listing_index() and "contents" not in listing_index()
    run(["manage.py", "migrate", "content", "0007", "-v0"], db, cache)
    assert "title" in listing_index()


@pytest.mark.django_db
def test_the_lists_and_the_builds_keys_read_the_articles_listing_index_not_the_rows():
    """On SQLite, article_listing (migration 0005, made again by 0008) holds every article
    column but the bodies and the contents, so the queries that skip them never read a row
    (10,000 pages at 10,000 articles)."""
    from django.db import connection

    from portfolio.content.models import Article
    from portfolio.export.plan import listed

    with connection.cursor() as cursor:
        indexed = {row[2] for row in cursor.execute("PRAGMA index_info('article_listing')")}
        columns = {field.column for field in Article._meta.concrete_fields}
        assert indexed == columns - {"body", "body_html", "contents"}
        queries = [
            Article.objects.published().defer("body", "body_html", "contents").query.sql_with_params(),
            Article.objects.published().values_list("slug", "title", "content_hash").query.sql_with_params(),
        ]
        with CaptureQueriesContext(connection) as captured:
            listed(Article.objects.published(), "content_hash")  # as the keys read it
        queries.append((captured[0]["sql"], ()))
        for sql, params in queries:
            plan = " ".join(row[-1] for row in cursor.execute("EXPLAIN QUERY PLAN " + sql, params))
            assert "COVERING INDEX article_listing" in plan, (sql, plan)
