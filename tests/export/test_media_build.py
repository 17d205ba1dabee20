"""Media in the static build: published with the same paths, variants resolvable, unchanged files
hard-linked and never resized again, and verification catching a page that shows a missing one."""

import io
import re

import pytest

from portfolio.export.build import BuildFailed, build
from tests.content_builder import article, write_content
from tests.media_content import MEDIA_FILES

from .conftest import distill_local

SITE = "https://portfolio.test"


def media_urls(page):
    """Every /media/ address a page shows: src, srcset candidates, og:image and JSON-LD images."""
    urls = re.findall(r'(?:src|content)="((?:https://portfolio\.test)?/media/[^"]+)"', page)
    urls += re.findall(r'"image": "(https://portfolio\.test/media/[^"]+)"', page)
    for srcset in re.findall(r'srcset="([^"]+)"', page):
        urls += [candidate.split()[0] for candidate in srcset.split(",")]
    return {url.removeprefix(SITE) for url in urls}


def test_media_are_built_resolve_and_are_carried_over(tmp_path):
    content = write_content(tmp_path / "content", MEDIA_FILES)
    out, db, cache = tmp_path / "site", tmp_path / "db.sqlite3", tmp_path / "cache"
    env = {"MEDIA_CACHE_DIR": str(cache)}
    first = distill_local(content, out, db, "--workers", "2", env=env)
    assert first.returncode == 0, first.stderr

    for rel in ("alpha/cover.png", "alpha/small.png", "diagram.svg", "site/card.png"):
        assert (out / "media" / rel).read_bytes() == (content / "media" / rel).read_bytes()
    assert not (out / "media" / ".hidden-notes.txt").exists()
    assert len(list((out / "media" / "_v").iterdir())) == 7
    shown = set()
    for page in out.rglob("*.html"):
        shown |= media_urls(page.read_text())
    assert {"/media/alpha/cover.png", "/media/site/card.png", "/media/diagram.svg"} <= shown
    assert sum(url.startswith("/media/_v/") for url in shown) == 4  # the cover's; the card is og:image
    for url in shown:
        assert (out / url.lstrip("/")).is_file(), url

    made = {path.name: path.stat().st_mtime_ns for path in cache.iterdir()}
    inodes = {path: path.stat().st_ino for path in (out / "media").rglob("*") if path.is_file()}
    write_content(
        content, {"articles/same-day.md": article("Same day published", date="2026-04-04", body="New.\n")}
    )
    second = distill_local(content, out, db, "--workers", "2", env=env)
    assert second.returncode == 0, second.stderr
    assert "carried over" in second.stdout + second.stderr
    assert {path.name: path.stat().st_mtime_ns for path in cache.iterdir()} == made  # nothing resized
    assert {path: path.stat().st_ino for path in inodes} == inodes  # hard links to the previous build


@pytest.mark.usefixtures("media_site")
def test_a_page_showing_a_missing_media_file_fails_verification(media_site, settings, tmp_path):
    write_content(
        media_site, {"articles/raw.md": article("Raw", body='<img src="/media/gone.png" alt="x">\n')}
    )
    with pytest.raises(BuildFailed) as failed:
        build(tmp_path / "out", workers=1, stderr=io.StringIO())
    assert f"articles/raw.html: links to {SITE}/media/gone.png, which no built file serves" in str(
        failed.value
    )
