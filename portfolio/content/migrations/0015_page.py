"""Standalone pages (`pages/<slug>.md`), their bodies the last columns of their rows as the
projects' and articles' are (0004_bodies_last), and the aliases' collection `pages`."""

from django.db import migrations, models


class Migration(migrations.Migration):

    dependencies = [
        ('content', '0014_content_signals'),
    ]

    operations = [
        migrations.CreateModel(
            name='Page',
            fields=[
                ('source_path', models.CharField(help_text='Path inside the content folder.', max_length=255)),
                ('content_hash', models.CharField(editable=False, max_length=64)),
                ('source_mtime_ns', models.BigIntegerField(default=0, editable=False)),
                ('source_size', models.BigIntegerField(default=0, editable=False)),
                ('slug', models.SlugField(max_length=200, primary_key=True, serialize=False)),
                ('title', models.CharField(max_length=500)),
                ('description', models.TextField()),
                ('draft', models.BooleanField(default=False)),
                ('nav', models.BooleanField(default=False, help_text="Linked from the site's header.")),
                ('order', models.IntegerField(default=0, help_text="Its place among the header's pages, smallest first.")),
                ('body', models.TextField(blank=True, help_text='Raw markdown, line endings normalised to \\n.')),
                ('body_html', models.TextField(blank=True, editable=False)),
                ('contents', models.JSONField(blank=True, default=list, editable=False)),
                ('image', models.JSONField(blank=True, default=dict)),
            ],
            options={
                'ordering': ['slug'],
            },
        ),
        migrations.AlterField(
            model_name='alias',
            name='collection',
            field=models.CharField(choices=[('projects', 'Projects'), ('articles', 'Articles'), ('pages', 'Pages')], max_length=20),
        ),
        migrations.AlterField(
            model_name='pathalias',
            name='collection',
            field=models.CharField(choices=[('projects', 'Projects'), ('articles', 'Articles'), ('pages', 'Pages')], max_length=20),
        ),
    ]
