"""The articles' series (front matter `series`, `seriesOrder`): a table of their own, as the tags'
index, so the articles' rows keep their bodies last (0004)."""

from django.db import migrations, models


class Migration(migrations.Migration):

    dependencies = [
        ('content', '0015_page'),
    ]

    operations = [
        migrations.CreateModel(
            name='SeriesPart',
            fields=[
                ('article', models.SlugField(help_text="The article's slug.", max_length=200, primary_key=True, serialize=False)),
                ('slug', models.CharField(help_text="The series' slug (rules.tag_slug).", max_length=200)),
                ('name', models.CharField(help_text='The series as this article spells it.', max_length=500)),
                ('order', models.PositiveIntegerField(blank=True, help_text='Its seriesOrder, if any.', null=True)),
                ('date', models.DateField()),
            ],
            options={
                'verbose_name': 'series part',
                'ordering': ['slug', 'order', 'date', 'article'],
                'indexes': [models.Index(fields=['slug', 'order', 'date', 'article'], name='series_part_order')],
            },
        ),
    ]
