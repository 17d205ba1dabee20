"""The articles held back by their date (portfolio/content/schedule.py): a table of their own, so
the articles' rows keep their bodies last (0004) and their listing index (0005) as it is."""

from django.db import migrations, models


class Migration(migrations.Migration):

    dependencies = [
        ('content', '0010_tags'),
    ]

    operations = [
        migrations.CreateModel(
            name='ScheduledArticle',
            fields=[
                ('slug', models.SlugField(max_length=200, primary_key=True, serialize=False)),
                ('date', models.DateField(db_index=True)),
            ],
            options={
                'ordering': ['date', 'slug'],
            },
        ),
    ]
