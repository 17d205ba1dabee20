from django.apps import AppConfig


class PreviewConfig(AppConfig):
    """The local preview of a built folder as a static host serves it: `manage.py preview`. Not
    part of the build (portfolio.export), which it only reads the output of."""

    name = "portfolio.preview"
    label = "preview"
