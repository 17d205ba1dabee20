from django.apps import AppConfig


class ContactConfig(AppConfig):
    """The contact form's POST handler: the only code that runs in production."""

    name = "contact"
