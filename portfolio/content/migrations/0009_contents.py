"""A body's table of contents (its `##` headings), stored beside its HTML at import.

Added after the bodies, so it stays out of the rows' listing columns (0004) and, like the bodies,
out of the articles' listing index (0005): only an item's own page reads it. SQLite adds a column
with a default by remaking the table, which drops that index (Django knows only the indexes of
the models' Meta): it is made again after. (Undoing drops the column in place: the index stays.)
Rows made before get their contents from the next import, which renders every body again
(markdown.RENDER_VERSION).
"""

import importlib

from django.db import migrations, models

listing_index = importlib.import_module("portfolio.content.migrations.0005_article_listing_index")


def make_listing_index(apps, schema_editor):
    listing_index.drop(apps, schema_editor)
    listing_index.create(apps, schema_editor)


class Migration(migrations.Migration):
    dependencies = [("content", "0008_aliases")]

    operations = [
        migrations.AddField("article", "contents", models.JSONField(blank=True, default=list, editable=False)),
        migrations.AddField("project", "contents", models.JSONField(blank=True, default=list, editable=False)),
        migrations.RunPython(make_listing_index, migrations.RunPython.noop),
    ]
