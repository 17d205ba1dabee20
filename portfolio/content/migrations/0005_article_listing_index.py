"""On SQLite, an index of the articles holding every column but the two bodies.

SQLite keeps as much of a row in its table page as fits, up to a few kilobytes: with bodies of
about 10 KB, an article row fills most of a page, and a query over 10,000 articles for their
slugs and titles read 10,000 pages (32 ms for the published list, 35 ms for the build's keys).
Every list, the build's keys and the import's stat read only the other columns: from this
index, which holds them in the lists' order, SQLite answers them without the table (10 ms).
PostgreSQL stores large values out of the row (TOAST), so its rows are small already, and its
index entries are limited in size: the index is made on SQLite only.
"""

from django.db import migrations

NAME = "article_listing"
# The (draft, -date, slug) order of article_draft_date_slug first, then every other column but
# the bodies.
COLUMNS = '"draft", "date" DESC, "slug", "title", "description", "tags", "image", "content_hash", ' \
    '"source_path", "source_mtime_ns", "source_size"'


def create(apps, schema_editor):
    if schema_editor.connection.vendor == "sqlite":
        schema_editor.execute(f'CREATE INDEX "{NAME}" ON "content_article" ({COLUMNS})')


def drop(apps, schema_editor):
    if schema_editor.connection.vendor == "sqlite":
        schema_editor.execute(f'DROP INDEX IF EXISTS "{NAME}"')


class Migration(migrations.Migration):
    dependencies = [("content", "0004_bodies_last")]

    operations = [migrations.RunPython(create, drop)]
