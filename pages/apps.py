from django.apps import AppConfig


class PagesConfig(AppConfig):
    """Human pages and the machine surfaces around the API (llms.txt, feed, sitemaps)."""

    name = "pages"
