from django.apps import AppConfig


class ContentConfig(AppConfig):
    """Models of the imported markdown, and the importer that keeps them in sync with the files."""

    name = "portfolio.content"
    label = "content"
    verbose_name = "Imported content"
