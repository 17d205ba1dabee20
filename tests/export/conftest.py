import os
import subprocess
import sys

import pytest
from django.conf import settings

from tests.content_builder import write_content


def distill_local(content_dir, out_dir, db_path, *args, env=None):
    """Run the real `manage.py distill-local` in a fresh process with its own SQLite file."""
    environ = {
        k: v for k, v in os.environ.items() if k not in {"SITE_URL", "DEBUG", "DJANGO_SETTINGS_MODULE"}
    }
    environ.update(CONTENT_DIR=str(content_dir), DATABASE_URL=f"sqlite:///{db_path}", **(env or {}))
    return subprocess.run(
        [sys.executable, "manage.py", "distill-local", str(out_dir), *args],
        cwd=settings.BASE_DIR,
        env=environ,
        capture_output=True,
        text=True,
        timeout=300,
    )


@pytest.fixture(scope="session")
def built_site(tmp_path_factory):
    """The standard test content, exported once by the real command on two worker processes."""
    root = tmp_path_factory.mktemp("built")
    content = write_content(root / "content")
    result = distill_local(content, root / "site", root / "db.sqlite3", "--workers", "2")
    assert result.returncode == 0, result.stderr
    return root / "site"


def tree(folder):
    """{relative path: bytes} of every file under `folder`."""
    return {
        str(path.relative_to(folder)): path.read_bytes()
        for path in sorted(folder.rglob("*"))
        if path.is_file()
    }
