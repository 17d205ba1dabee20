from django.apps import AppConfig


class ApiConfig(AppConfig):
    """The public read API v1: DRF serializers and views, and its OpenAPI document."""

    name = "api"
