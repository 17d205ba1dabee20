"""Read-only admin: the content files are the source of truth, the admin is for inspecting
what was imported."""

from django.contrib import admin
from django.utils.html import format_html_join
from django.utils.safestring import mark_safe

from portfolio.readonly_admin import ReadOnlyAdminMixin

from .models import Article, DailyDriver, Page, PathAlias, Project, Site, Stack, StackModel


class TagFilter(admin.SimpleListFilter):
    title = "tag"
    parameter_name = "tag"

    def lookups(self, request, model_admin):
        tags = {tag for tags in Article.objects.values_list("tags", flat=True) for tag in tags}
        return [(tag, tag) for tag in sorted(tags, key=str.lower)]

    def queryset(self, request, queryset):
        if self.value() is None:
            return queryset
        # JSON containment is not portable (SQLite lacks it): match in Python, filter by key.
        slugs = [slug for slug, tags in queryset.values_list("slug", "tags") if self.value() in tags]
        return queryset.filter(slug__in=slugs)


@admin.register(Project)
class ProjectAdmin(ReadOnlyAdminMixin, admin.ModelAdmin):
    list_display = ["title", "slug", "status", "featured", "date", "source_path"]
    list_filter = ["status", "featured"]
    search_fields = ["slug", "title", "tagline", "description", "body"]
    date_hierarchy = "date"
    exclude = ["body_html", "case_study_items"]
    readonly_fields = ["case_study"]


@admin.register(Article)
class ArticleAdmin(ReadOnlyAdminMixin, admin.ModelAdmin):
    list_display = ["title", "slug", "date", "draft", "tag_list", "source_path"]
    list_filter = ["draft", TagFilter]
    search_fields = ["slug", "title", "description", "body"]
    date_hierarchy = "date"
    exclude = ["body_html"]

    @admin.display(description="tags")
    def tag_list(self, obj):
        return ", ".join(obj.tags)


@admin.register(Page)
class PageAdmin(ReadOnlyAdminMixin, admin.ModelAdmin):
    list_display = ["title", "slug", "nav", "order", "draft", "source_path"]
    list_filter = ["nav", "draft"]
    search_fields = ["slug", "title", "description", "body"]
    exclude = ["body_html", "image"]


class StackModelInline(ReadOnlyAdminMixin, admin.TabularInline):
    model = StackModel
    fields = ["name", "type", "description", "url"]


class DailyDriverInline(ReadOnlyAdminMixin, admin.TabularInline):
    model = DailyDriver
    fields = ["tool", "role", "status", "url"]


@admin.register(Stack)
class StackAdmin(ReadOnlyAdminMixin, admin.ModelAdmin):
    list_display = ["__str__", "current_focus", "source_path"]
    inlines = [StackModelInline, DailyDriverInline]


@admin.register(Site)
class SiteAdmin(ReadOnlyAdminMixin, admin.ModelAdmin):
    list_display = ["title", "author", "url", "source_path"]
    # site.yaml's redirects as the writer reads them, one old address to its new one a line.
    exclude = ["redirects"]
    readonly_fields = ["moves"]

    @admin.display(description="redirects")
    def moves(self, site):
        return format_html_join(mark_safe("<br>"), "{} → {}", site.redirects) or "none"


@admin.register(PathAlias)
class PathAliasAdmin(ReadOnlyAdminMixin, admin.ModelAdmin):
    list_display = ["path", "collection", "target"]
    list_filter = ["collection"]
    search_fields = ["path", "target"]
