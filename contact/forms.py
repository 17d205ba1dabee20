import unicodedata

from django import forms
from django.core.exceptions import ValidationError
from django.utils.translation import gettext

# The honeypot's name: a field people never see and bots happily fill in.
HONEYPOT = "website"
# The proof of work's solution (contact/challenge.py), as the ALTCHA widget names it.
SOLUTION = "altcha"


def validate_storable(value):
    """Text that both databases store: a lone surrogate (valid in a JSON string, not in UTF-8)
    would fail the save with an encoding error. NUL characters, which PostgreSQL refuses, are
    refused by every CharField already; the lengths below are the model's."""
    try:
        value.encode("utf-8")
    except UnicodeEncodeError:
        raise ValidationError(gettext("Contains characters that are not valid Unicode.")) from None


def validate_one_line(value):
    """No control character or line separator anywhere: the address becomes the notification's
    Reply-To header, and a vertical tab or U+2028 inside a quoted local part (which the email
    validator allows) would break that header into two."""
    if any(unicodedata.category(char) in ("Cc", "Zl", "Zp") for char in value):
        raise ValidationError(gettext("Must not contain control characters or line breaks."))


class ContactForm(forms.Form):
    name = forms.CharField(max_length=200, validators=[validate_storable])
    email = forms.EmailField(max_length=254, validators=[validate_storable, validate_one_line])
    message = forms.CharField(max_length=5000, validators=[validate_storable])
