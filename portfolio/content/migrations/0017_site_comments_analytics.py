"""site.yaml's `comments` (giscus) and `analytics` (one provider), each off unless asked for."""

from django.db import migrations, models


class Migration(migrations.Migration):

    dependencies = [
        ('content', '0016_series'),
    ]

    operations = [
        migrations.AddField(
            model_name='site',
            name='comments',
            field=models.JSONField(blank=True, default=dict, help_text="site.yaml's comments: {giscus: {...}}."),
        ),
        migrations.AddField(
            model_name='site',
            name='analytics',
            field=models.JSONField(blank=True, default=dict, help_text="site.yaml's analytics: {provider: {...}}."),
        ),
    ]
