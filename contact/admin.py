"""Messages come only from the form: the admin reads them, newest first, filters them by status
(spam or not), marks them spam or not spam (contact/review.py: not spam queues the notification,
sent once) and deletes them (a sender's request to be forgotten: contact/forget.py). It never
adds or edits one."""

from django.contrib import admin, messages

from portfolio.readonly_admin import ReadOnlyAdminMixin

from . import forget, review
from .models import ContactMessage


@admin.register(ContactMessage)
class ContactMessageAdmin(ReadOnlyAdminMixin, admin.ModelAdmin):
    list_display = [
        "created_at",
        "name",
        "email",
        "short_message",
        "status",
        "spam_reason",
        "notified_at",
        "origin",
    ]
    list_filter = ["status", "spam_reason", ("notified_at", admin.EmptyFieldListFilter)]
    search_fields = ["name", "email", "message"]
    date_hierarchy = "created_at"
    ordering = ["-created_at", "-id"]
    actions = ["mark_spam", "mark_not_spam"]

    def has_delete_permission(self, request, obj=None):
        return admin.ModelAdmin.has_delete_permission(self, request, obj)

    # Deleting is forgetting (contact/forget.py): the log records that a message was deleted,
    # never its sender, and loses every entry that named them.
    def log_deletions(self, request, queryset):
        return forget.log_deletions(request.user, queryset)

    def delete_model(self, request, obj):
        forget.delete([obj])

    def delete_queryset(self, request, queryset):
        forget.delete(queryset)

    def has_review_permission(self, request):
        """Reviewing changes a status only: whoever may change messages at all (the mixin keeps
        their fields read-only)."""
        return admin.ModelAdmin.has_change_permission(self, request)

    @admin.display(description="message")
    def short_message(self, obj):
        return obj.message if len(obj.message) <= 80 else obj.message[:79] + "…"

    @admin.action(description="Mark selected messages as spam", permissions=["review"])
    def mark_spam(self, request, queryset):
        count = review.mark_spam(queryset)
        self.message_user(request, f"{count} message(s) marked as spam.", messages.SUCCESS)

    @admin.action(description="Mark selected messages as not spam (and notify)", permissions=["review"])
    def mark_not_spam(self, request, queryset):
        count = review.mark_not_spam(queryset)
        queued = "their notifications queued (manage.py send_contact_notifications sends them)"
        self.message_user(request, f"{count} message(s) marked as not spam, {queued}.", messages.SUCCESS)
