from django.db import migrations, models


def forget_old_fingerprints(apps, schema_editor):
    """Fingerprints made before 0003 named no window, so the same message sent on two days had
    one; they cannot be unique. They only served the duplicate check of the last window."""
    apps.get_model("contact", "ContactMessage").objects.update(fingerprint=None)


class Migration(migrations.Migration):
    dependencies = [
        ("contact", "0002_contactmessage_fingerprint"),
    ]

    operations = [
        migrations.AlterField(
            model_name="contactmessage",
            name="fingerprint",
            field=models.CharField(blank=True, db_index=True, editable=False, max_length=64, null=True),
        ),
        migrations.RunPython(forget_old_fingerprints, migrations.RunPython.noop, elidable=True),
        migrations.AlterField(
            model_name="contactmessage",
            name="fingerprint",
            field=models.CharField(editable=False, max_length=64, null=True, unique=True),
        ),
        migrations.AddField(
            model_name="contactmessage",
            name="notifying_since",
            field=models.DateTimeField(blank=True, editable=False, null=True),
        ),
    ]
