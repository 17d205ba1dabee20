from django.apps import AppConfig


class ExportConfig(AppConfig):
    """The static export: `manage.py distill-local` (listed before django_distill, so ours wins)."""

    name = "portfolio.export"
    label = "export"
