import datetime
import hashlib
import os

import pytest
from django.conf import settings as django_settings
from django.db import connection
from hypothesis import settings as hypothesis_settings

from portfolio.content.importer import import_content

from .browser import browsers, chromium  # noqa: F401  (the browser tests' fixtures)
from .content_builder import SITE_URL, write_content
from .media_content import media_site, shared_cache  # noqa: F401  (the media tests' fixtures)
from .scheduling import (  # noqa: F401  (the hooks that share the tests out between the workers)
    pytest_collection_modifyitems,
    pytest_configure_node,
    pytest_unconfigure,
    pytest_xdist_make_scheduler,
)
from .tools import in_ci

# The fuzz test's examples (tests/content/test_fuzz.py): CI runs 400, a developer's run 100;
# FUZZ_EXAMPLES=N runs N either way.
FUZZ_EXAMPLES = int(os.environ.get("FUZZ_EXAMPLES") or (400 if in_ci() else 100))
hypothesis_settings.register_profile("suite", max_examples=FUZZ_EXAMPLES)
hypothesis_settings.load_profile("suite")


@pytest.fixture
def content_dir(tmp_path):
    """A fresh copy of the standard test content folder (tests/content_builder.py)."""
    return write_content(tmp_path / "content")


class StandardImport:
    """The import of the standard content, made by the real importer the first time and replayed
    after: about a thousand tests start from it, and each ran the same import into the same empty
    test database. The rows it added (and SQLite's id sequences) are kept and inserted again
    inside the test's transaction, rolled back with it as the import's were; the files get the
    modification times the rows record, so a later import sees the folder it would have seen.
    Replayed only when everything the import depends on is what it was: the database's rows
    before it, the folder's bytes, the settings and the day. Otherwise the importer runs."""

    def __init__(self):
        self.made = None  # (key, rows before, rows after, {rel: (atime_ns, mtime_ns)})

    def into(self, content_dir):
        if connection.vendor != "sqlite":
            import_content(content_dir, workers=1)
            return
        key, before = state_key(content_dir), database_rows()
        if self.made and self.made[:2] == (key, before):
            _, _, after, times = self.made
            replay(before, after)
            for rel, ns in times.items():
                os.utime(content_dir / rel, ns=ns)
            assert database_rows() == after, "the replayed import differs from the import"
            return
        import_content(content_dir, workers=1)
        after = database_rows()
        if all(
            rows[: len(before[table])] == before[table]
            for table, rows in after.items()
            if table != "sqlite_sequence"
        ):
            times = {rel: (info.st_atime_ns, info.st_mtime_ns) for rel, info in file_stats(content_dir)}
            self.made = (key, before, after, times)


def file_stats(folder):
    for path in sorted(folder.rglob("*")):
        if path.is_file():
            yield str(path.relative_to(folder)), path.stat()


def state_key(content_dir):
    """What the import's rows depend on besides the database: the folder's files, every setting
    but the folder's place, and the day (scheduled articles)."""
    digest = hashlib.sha256(str(datetime.date.today()).encode())
    for rel, _ in file_stats(content_dir):
        digest.update(f"\0{rel}\0".encode() + (content_dir / rel).read_bytes())
    for name in sorted(dir(django_settings)):
        if name.isupper() and name != "CONTENT_DIR":
            digest.update(f"\0{name}={getattr(django_settings, name)!r}".encode())
    return digest.hexdigest()


def database_rows():
    """{table: rows} of every table, SQLite's id sequences among them."""
    with connection.cursor() as cursor:
        tables = [*connection.introspection.table_names(cursor), "sqlite_sequence"]
        rows = {}
        for table in tables:
            cursor.execute(f'SELECT * FROM "{table}"')
            rows[table] = cursor.fetchall()
        return rows


def replay(before, after):
    """Make the database's rows `after` from `before`: the import only adds rows (and moves the
    id sequences on), so its rows are inserted and the sequences set."""
    with connection.cursor() as cursor:
        for table, rows in after.items():
            if table == "sqlite_sequence":
                cursor.execute("DELETE FROM sqlite_sequence")
            else:
                rows = rows[len(before[table]) :]
            if rows:
                marks = ", ".join(["%s"] * len(rows[0]))
                cursor.executemany(f'INSERT INTO "{table}" VALUES ({marks})', rows)


standard_import = StandardImport()


@pytest.fixture
def imported(db, content_dir, settings):
    """The standard test content, imported; SITE_URL left to site.yaml's url."""
    settings.SITE_URL = ""
    settings.CONTENT_DIR = content_dir
    standard_import.into(content_dir)
    return content_dir


@pytest.fixture
def site_url():
    return SITE_URL


@pytest.fixture(scope="session")
def built_site(tmp_path_factory):
    """The standard test content, exported once by the real command on two worker processes;
    tests only read it."""
    from .export.conftest import distill_local

    root = tmp_path_factory.mktemp("built")
    content = write_content(root / "content")
    result = distill_local(content, root / "site", root / "db.sqlite3", "--workers", "2")
    assert result.returncode == 0, result.stderr
    return root / "site"
