from django import forms
from django.core.exceptions import ValidationError

# The honeypot's name: a field people never see and bots happily fill in.
HONEYPOT = "website"


def validate_storable(value):
    """Text that both databases store: a lone surrogate (valid in a JSON string, not in UTF-8)
    would fail the save with an encoding error. NUL characters, which PostgreSQL refuses, are
    refused by every CharField already; the lengths below are the model's."""
    try:
        value.encode("utf-8")
    except UnicodeEncodeError:
        raise ValidationError("Contains characters that are not valid Unicode.") from None


class ContactForm(forms.Form):
    name = forms.CharField(max_length=200, validators=[validate_storable])
    email = forms.EmailField(max_length=254, validators=[validate_storable])
    message = forms.CharField(max_length=5000, validators=[validate_storable])
