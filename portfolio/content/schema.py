"""Bring the database's schema up to date: `manage.py migrate`, with two shortcuts.

- Nothing pending: only the check, not migrate's loading, planning and post-migrate signals.
- A brand-new, empty SQLite database (a build into a fresh DATABASE_URL, every benchmark run):
  a copy of one that `migrate` made from empty before, kept in SCHEMA_CACHE_DIR under a key
  naming everything that decides its bytes (template_key). Replaying every migration
  re-renders the models after every step and remakes the tables SQLite cannot alter in place,
  committing each, where a copy is one file write. The copy is the same file: the schema, the
  migration history and the content types and permissions are exactly what `migrate` writes.

Not the tables made from the final models (Django's test runner with `MIGRATE: False`): those
have some columns in another order (SQLite's table remakes move an altered column last), so they
are not the database `migrate` makes.
"""

import hashlib
import os
import sqlite3
import sys
import tempfile
from pathlib import Path

import django
from django.conf import settings
from django.core.management import call_command
from django.db import connection as default_connection
from django.db.migrations.executor import MigrationExecutor


def migrate(connection=default_connection):
    """Apply what migrations are pending, as `manage.py migrate` would."""
    executor = MigrationExecutor(connection)
    if not executor.migration_plan(executor.loader.graph.leaf_nodes()):
        return
    if connection.vendor != "sqlite" or connection.introspection.table_names():
        call_command("migrate", database=connection.alias, verbosity=0, interactive=False)
        return
    template = Path(settings.SCHEMA_CACHE_DIR) / f"{template_key(executor.loader, connection)}.sqlite3"
    if not restore(template, connection):
        call_command("migrate", database=connection.alias, verbosity=0, interactive=False)
        save(connection, template)


def template_key(loader, connection):
    """What decides the bytes `migrate` writes into an empty database: Django and SQLite, the
    installed apps and the database's options, and every migration's name and text (so a copy
    has every migration of the graph applied, and nothing else). The post-migrate handlers are
    Django's own, covered by its version; tests/content/test_schema.py fails if an app adds one."""
    database = connection.settings_dict
    parts = [django.__version__, sqlite3.sqlite_version, settings.INSTALLED_APPS, settings.AUTH_USER_MODEL,
             database["ENGINE"], sorted(database["OPTIONS"].items())]  # fmt: skip
    digest = hashlib.sha256(repr(parts).encode())
    for app_label, name in sorted(loader.graph.nodes):
        module = sys.modules[type(loader.graph.nodes[app_label, name]).__module__]
        digest.update(f"{app_label}.{name}\0".encode() + Path(module.__file__).read_bytes() + b"\0")
    return digest.hexdigest()[:32]


def restore(template, connection):
    """Copy the template's pages into the empty database; False if there is no template."""
    if not template.is_file():
        return False
    source = sqlite3.connect(template.as_uri() + "?mode=ro", uri=True)
    try:
        connection.ensure_connection()
        source.backup(connection.connection)  # one step: all or nothing
    except sqlite3.Error:
        return False  # unreadable: migrate makes the database, and a new template
    finally:
        source.close()
    return True


KEEP = 8  # templates kept in SCHEMA_CACHE_DIR (about 0.2 MB each)


def save(connection, template):
    """Keep a copy of the freshly migrated database, written aside and renamed into place so
    that a concurrent build reads either no template or a whole one. The newest few copies stay:
    `make serve` (DEBUG adds an app), `make build` and the contact service each have their own,
    and keeping only one made them replace each other; older ones go."""
    template.parent.mkdir(parents=True, exist_ok=True)
    fd, tmp = tempfile.mkstemp(prefix=".", suffix=".tmp", dir=template.parent)
    os.close(fd)
    try:
        target = sqlite3.connect(tmp)
        try:
            connection.connection.backup(target)
        finally:
            target.close()
        os.replace(tmp, template)
        for old in sorted(template.parent.glob("*.sqlite3"), key=newest_first)[KEEP:]:
            old.unlink(missing_ok=True)
    finally:
        if os.path.exists(tmp):
            os.unlink(tmp)


def newest_first(path):
    try:
        return -path.stat().st_mtime
    except OSError:  # removed meanwhile by another build
        return 0
