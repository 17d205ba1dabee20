from django.db import models


class ContactMessage(models.Model):
    """A message sent through the contact form. Saved before anyone is notified, so a failing
    mail server never loses one; `notified_at` stays empty until the notification went out."""

    name = models.CharField(max_length=200)
    email = models.EmailField(max_length=254)
    message = models.TextField(max_length=5000)
    created_at = models.DateTimeField(auto_now_add=True, db_index=True)
    origin = models.CharField(max_length=255, help_text="The allowed origin the form was posted from.")
    client_address = models.GenericIPAddressField(null=True, blank=True)
    user_agent = models.CharField(max_length=500, blank=True)
    notified_at = models.DateTimeField(
        null=True, blank=True, help_text="When the notification email was sent; empty if it was not."
    )
    # Who sent what, hashed (contact/dedupe.py): the same message again is not stored twice.
    fingerprint = models.CharField(max_length=64, blank=True, db_index=True, editable=False)

    class Meta:
        ordering = ["-created_at", "-id"]

    def __str__(self):
        return f"{self.name} <{self.email}>"
