"""portfolio.content.schema: a new, empty SQLite database starts as a copy of one `migrate` made,
and must be exactly what `migrate` makes (schema, history, content types, permissions)."""

import os
import sqlite3
import subprocess
import sys
import weakref

from django.conf import settings
from django.db.models.signals import post_migrate, pre_migrate

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
