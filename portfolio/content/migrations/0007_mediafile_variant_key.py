from django.db import migrations, models


def name_variants(apps, schema_editor):
    """The key of the images imported before 0007 (an import re-keys them too, when it finds the
    key stale: media.MediaSync.keep)."""
    from portfolio.content.media import Media

    MediaFile = apps.get_model("content", "MediaFile")
    for row in MediaFile.objects.exclude(variants=[]):
        row.variant_key = Media(row.path, row.content_hash, variants=tuple(row.variants)).variant_key
        row.save(update_fields=["variant_key"])


class Migration(migrations.Migration):
    dependencies = [
        ("content", "0006_import_state"),
    ]

    operations = [
        migrations.AddField(
            model_name="mediafile",
            name="variant_key",
            field=models.CharField(blank=True, db_index=True, editable=False, max_length=20),
        ),
        migrations.RunPython(name_variants, migrations.RunPython.noop, elidable=True),
    ]
