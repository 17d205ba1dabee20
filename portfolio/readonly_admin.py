class ReadOnlyAdminMixin:
    """For models the admin only shows: their rows come from files or from the contact form."""

    def has_add_permission(self, request, obj=None):
        return False

    def has_change_permission(self, request, obj=None):
        return False

    def has_delete_permission(self, request, obj=None):
        return False
