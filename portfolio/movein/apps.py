from django.apps import AppConfig


class MoveInConfig(AppConfig):
    """`manage.py import_from`: converts another generator's site into a content folder."""

    name = "portfolio.movein"
    label = "movein"
    verbose_name = "Moving in"
