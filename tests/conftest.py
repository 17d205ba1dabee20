import pytest

from portfolio.content.importer import import_content

from .browser import chromium  # noqa: F401  (the browser tests' fixture)
from .content_builder import SITE_URL, write_content
from .media_content import media_site, shared_cache  # noqa: F401  (the media tests' fixtures)


@pytest.fixture
def content_dir(tmp_path):
    """A fresh copy of the standard test content folder (tests/content_builder.py)."""
    return write_content(tmp_path / "content")


@pytest.fixture
def imported(db, content_dir, settings):
    """The standard test content, imported; SITE_URL left to site.yaml's url."""
    settings.SITE_URL = ""
    settings.CONTENT_DIR = content_dir
    import_content(content_dir, workers=1)
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
