"""`distill-local --gc` (portfolio/caches.py): after a build, the caches lose what the site
no longer uses (an edited file's old rendered body, a changed image's old variants, a renamed
item's old card) and keep everything it does use, so a new database still builds from them."""

from pathlib import Path

from tests.content_builder import write_content
from tests.media_content import MEDIA_FILES, png

from .conftest import distill_local


def cache_files(*folders):
    return {path for folder in folders for path in Path(folder).rglob("*") if path.is_file()}


def test_gc_removes_only_what_the_site_no_longer_uses(tmp_path):
    content = write_content(tmp_path / "content", MEDIA_FILES)
    caches = {
        "CONTENT_CACHE_DIR": str(tmp_path / "content-cache"),
        "MEDIA_CACHE_DIR": str(tmp_path / "media-cache"),
    }

    def build(*args, db="db.sqlite3"):
        result = distill_local(content, tmp_path / "site", tmp_path / db, *args, env=caches)
        assert result.returncode == 0, result.stderr
        return result.stdout

    assert "Removed 0 unused cache files" in build("--gc")
    before = cache_files(*caches.values())
    post = content / "articles" / "first-post.md"
    post.write_text(post.read_text().replace("First post", "First post, renamed") + "\nOne more line.\n")
    (content / "media" / "alpha" / "cover.png").write_bytes(png(1600, 900, "#000000"))

    assert "Removed 6 unused cache files" in build("--gc")
    after = cache_files(*caches.values())
    gone = before - after
    assert sorted(path.suffix for path in gone) == [".pickle", ".png", ".webp", ".webp", ".webp", ".webp"]
    assert [path.parent.parent.name for path in gone if path.suffix == ".png"] == ["cards"]
    assert len(after - before) == len(gone)  # their new versions

    # Nothing in use was removed: a new database builds from the caches and adds nothing to them.
    build(db="new.sqlite3")
    assert cache_files(*caches.values()) == after
