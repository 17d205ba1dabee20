"""Read-only admin: messages come only from the form; the admin is for reading them."""

from django.contrib import admin

from portfolio.readonly_admin import ReadOnlyAdminMixin

from .models import ContactMessage


@admin.register(ContactMessage)
class ContactMessageAdmin(ReadOnlyAdminMixin, admin.ModelAdmin):
    list_display = ["created_at", "name", "email", "short_message", "notified_at", "origin"]
    list_filter = [("notified_at", admin.EmptyFieldListFilter)]
    search_fields = ["name", "email", "message"]
    date_hierarchy = "created_at"

    @admin.display(description="message")
    def short_message(self, obj):
        return obj.message if len(obj.message) <= 80 else obj.message[:79] + "…"
