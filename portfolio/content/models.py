"""What the content folder holds, mirrored in the database. The files are the source of truth:
rows are written only by the importer (portfolio.content.importer)."""

from contextlib import contextmanager

from django.conf import settings
from django.db import models
from django.urls import reverse

from portfolio.reversing import reverse_slug

from .loader import LINE_MAX, SLUG_MAX


class Imported(models.Model):
    """Where a row came from, and what the importer needs to tell whether that file changed."""

    source_path = models.CharField(max_length=255, help_text="Path inside the content folder.")
    content_hash = models.CharField(max_length=64, editable=False)
    source_mtime_ns = models.BigIntegerField(default=0, editable=False)
    source_size = models.BigIntegerField(default=0, editable=False)

    class Meta:
        abstract = True


class SourceFile(Imported):
    """Fields every imported markdown file carries."""

    body = models.TextField(blank=True, help_text="Raw markdown, line endings normalised to \\n.")
    body_html = models.TextField(blank=True, editable=False)

    class Meta:
        abstract = True


class Project(SourceFile):
    class Status(models.TextChoices):
        ACTIVE = "active"
        REFERENCE = "reference"
        EXPERIMENTAL = "experimental"

    slug = models.SlugField(max_length=SLUG_MAX, primary_key=True)
    title = models.CharField(max_length=LINE_MAX)
    tagline = models.CharField(max_length=LINE_MAX)
    description = models.TextField()
    github = models.CharField(max_length=LINE_MAX)
    status = models.CharField(max_length=20, choices=Status)
    stack = models.JSONField(default=list)
    featured = models.BooleanField(default=False)
    date = models.DateField()
    # A list of [key, value] pairs, not a dict: some databases (PostgreSQL's jsonb) reorder keys.
    case_study_items = models.JSONField(default=list)

    class Meta:
        ordering = ["-date", "slug"]
        indexes = [models.Index(fields=["-date", "slug"], name="project_date_slug")]

    def __str__(self):
        return self.title

    def get_absolute_url(self):
        return reverse_slug("pages:project", self.slug)

    @property
    def case_study(self):
        return dict(self.case_study_items)


class ArticleQuerySet(models.QuerySet):
    def published(self):
        """The only way a public surface reads articles: drafts are never published anywhere."""
        return self.filter(draft=False)


class Article(SourceFile):
    slug = models.SlugField(max_length=SLUG_MAX, primary_key=True)
    title = models.CharField(max_length=LINE_MAX)
    description = models.TextField()
    date = models.DateField()
    tags = models.JSONField(default=list)
    draft = models.BooleanField(default=False)

    objects = ArticleQuerySet.as_manager()

    class Meta:
        ordering = ["-date", "slug"]
        indexes = [models.Index(fields=["draft", "-date", "slug"], name="article_draft_date_slug")]

    def __str__(self):
        return self.title

    def get_absolute_url(self):
        return reverse_slug("pages:article", self.slug)


class Site(Imported):
    """The site's identity from site.yaml (one row)."""

    title = models.CharField(max_length=LINE_MAX)
    description = models.TextField()
    author = models.CharField(max_length=LINE_MAX)
    url = models.CharField(max_length=LINE_MAX, help_text="site.yaml's url; SITE_URL overrides it.")

    class Meta:
        verbose_name = "site identity"
        verbose_name_plural = "site identity"

    def __str__(self):
        return self.title

    # Set while a build renders: the identity cannot change then, so it is read once, not per page.
    _pinned = None

    @classmethod
    def load(cls):
        """The imported site identity (the importer guarantees there is one)."""
        return cls._pinned or cls.objects.get()

    @classmethod
    @contextmanager
    def pinned(cls):
        """Read the identity once for everything rendered inside this block (a build)."""
        cls._pinned = cls.objects.get()
        try:
            yield cls._pinned
        finally:
            cls._pinned = None

    @property
    def base_url(self):
        """Where the site is published: SITE_URL when set, else site.yaml's url."""
        return settings.SITE_URL or self.url


class Stack(Imported):
    """The stack profile from stack.yaml (one row), with its ordered models and daily drivers."""

    last_updated = models.DateField()
    current_focus = models.TextField()

    class Meta:
        verbose_name = "stack profile"
        verbose_name_plural = "stack profile"

    def __str__(self):
        return f"Stack profile (updated {self.last_updated:%Y-%m-%d})"

    def get_absolute_url(self):
        return reverse("pages:stack")


class StackModel(models.Model):
    class Type(models.TextChoices):
        SUBSCRIPTION = "subscription"
        LOCAL = "local"

    stack = models.ForeignKey(Stack, on_delete=models.CASCADE, related_name="models")
    position = models.PositiveIntegerField()
    name = models.CharField(max_length=LINE_MAX)
    type = models.CharField(max_length=20, choices=Type)
    description = models.TextField()
    url = models.CharField(max_length=LINE_MAX, blank=True)

    class Meta:
        ordering = ["position"]
        verbose_name = "model"

    def __str__(self):
        return self.name


class DailyDriver(models.Model):
    class Status(models.TextChoices):
        DAILY = "daily"
        EXPLORING = "exploring"

    stack = models.ForeignKey(Stack, on_delete=models.CASCADE, related_name="daily_drivers")
    position = models.PositiveIntegerField()
    tool = models.CharField(max_length=LINE_MAX)
    role = models.CharField(max_length=LINE_MAX)
    url = models.CharField(max_length=LINE_MAX, blank=True)
    status = models.CharField(max_length=20, choices=Status)

    class Meta:
        ordering = ["position"]

    def __str__(self):
        return self.tool
