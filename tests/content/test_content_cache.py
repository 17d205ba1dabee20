"""The content cache (portfolio/content/content_cache.py): a file parsed and rendered once is
read back by a later import, a new database included, until the file, a media file it shows or
the renderer changes."""

import pickle

from portfolio.content import content_cache
from portfolio.content.importer import import_content
from portfolio.content.models import Article


def test_a_new_import_reads_the_rendered_bodies_back_until_the_renderer_changes(
    db, content_dir, settings, tmp_path, monkeypatch
):
    settings.SITE_URL = ""
    settings.CONTENT_DIR = content_dir
    settings.CONTENT_CACHE_DIR = tmp_path / "content-cache"
    import_content(content_dir, workers=1)
    article = Article.objects.filter(draft=False).first()
    rel = f"articles/{article.slug}.md"
    entries = list(settings.CONTENT_CACHE_DIR.rglob("*.pickle"))
    assert entries  # one a file
    # Mark the article's entry: a full import (as a new database) shows the mark, read back.
    [path] = [path for path in entries if pickle.loads(path.read_bytes())[0].get("body") == article.body]
    fields, final_hash, media = pickle.loads(path.read_bytes())
    path.write_bytes(pickle.dumps(({**fields, "body_html": "<p>from the cache</p>"}, final_hash, media)))
    Article.objects.all().delete()
    import_content(content_dir, workers=1, full=True)
    assert Article.objects.get(slug=article.slug).body_html == "<p>from the cache</p>"
    # The file changed: rendered again.
    source = content_dir / rel
    source.write_text(source.read_text() + "\nOne more line.\n")
    import_content(content_dir, workers=1)
    assert "One more line." in Article.objects.get(slug=article.slug).body_html
    source.write_text(source.read_text().replace("\nOne more line.\n", ""))
    import_content(content_dir, workers=1)
    assert Article.objects.get(slug=article.slug).body_html == "<p>from the cache</p>"
    # Another renderer (here a new version of the highlighter): rendered again.
    monkeypatch.setattr(
        content_cache, "package_version", lambda name: "new" if name == "pygments" else "same"
    )
    content_cache.renderer.cache_clear()
    try:
        import_content(content_dir, workers=1, full=True)
    finally:
        content_cache.renderer.cache_clear()
    assert Article.objects.get(slug=article.slug).body_html == article.body_html


def test_an_unreadable_entry_is_made_again(db, content_dir, settings, tmp_path):
    settings.SITE_URL = ""
    settings.CONTENT_CACHE_DIR = tmp_path / "content-cache"
    import_content(content_dir, workers=1)
    for path in settings.CONTENT_CACHE_DIR.rglob("*.pickle"):
        path.write_bytes(b"not a pickle")
    import_content(content_dir, workers=1, full=True)
    assert Article.objects.filter(draft=False).exclude(body_html="").exists()
    assert all(pickle.loads(path.read_bytes()) for path in settings.CONTENT_CACHE_DIR.rglob("*.pickle"))
