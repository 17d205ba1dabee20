from django.apps import AppConfig


class ContactConfig(AppConfig):
    """The contact form's POST handler: the only code that runs in production."""

    name = "contact"
    verbose_name = "Contact messages"

    def ready(self):
        from . import checks  # noqa: F401  (registers the settings checks)
