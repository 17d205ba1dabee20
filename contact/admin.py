"""Messages come only from the form: the admin reads them, newest first, and deletes them (spam;
a sender's request to be forgotten). It never adds or changes one."""

from django.contrib import admin

from portfolio.readonly_admin import ReadOnlyAdminMixin

from .models import ContactMessage


@admin.register(ContactMessage)
class ContactMessageAdmin(ReadOnlyAdminMixin, admin.ModelAdmin):
    list_display = ["created_at", "name", "email", "short_message", "notified_at", "origin"]
    list_filter = [("notified_at", admin.EmptyFieldListFilter)]
    search_fields = ["name", "email", "message"]
    date_hierarchy = "created_at"
    ordering = ["-created_at", "-id"]

    def has_delete_permission(self, request, obj=None):
        return admin.ModelAdmin.has_delete_permission(self, request, obj)

    @admin.display(description="message")
    def short_message(self, obj):
        return obj.message if len(obj.message) <= 80 else obj.message[:79] + "…"
