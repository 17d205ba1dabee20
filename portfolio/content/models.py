"""What the content folder holds, mirrored in the database. The files are the source of truth:
rows are written only by the importer (portfolio.content.importer)."""

import contextvars
import functools
import re
from contextlib import contextmanager

from django.conf import settings
from django.db import models
from django.db.models import OuterRef, Subquery
from django.db.models.functions import Coalesce
from django.db.models.query import ModelIterable
from django.urls import reverse

from portfolio.reversing import reverse_slug, slug_reverser

from .rules import ALIAS_PATH_MAX, LINE_MAX, SLUG_MAX, TAG_SLUG_MAX_BYTES


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
    # The body's table of contents, made with body_html (portfolio.content.headings.contents):
    # [{"id", "name"}] of its `##` headings, or [] when it has too few for one.
    contents = models.JSONField(default=list, blank=True, editable=False)
    # Front matter `image` and `imageAlt`, resolved at import (portfolio.content.media.Media.as_image):
    # {"path", "src", "width", "height", "srcset", "alt"}, or {} without an image.
    image = models.JSONField(default=dict, blank=True)

    class Meta:
        abstract = True


NEIGHBOURS = ("older", "newer")


class AddressedIterable(ModelIterable):
    """Items that know their page's address (`address`), reversed from one URL template per
    query: each item's get_absolute_url() would read Django's urlconf and script prefix
    (thread-locals) once per item, a large part of rendering a list of thousands."""

    def __iter__(self):
        address = slug_reverser(self.queryset.model.PAGE_ROUTE)
        for item in super().__iter__():
            item.address = address(item.slug)
            for side in NEIGHBOURS:  # with_neighbours(): `older_address`, `newer_address`
                slug = item.__dict__.get(f"{side}_slug")
                if slug:
                    setattr(item, f"{side}_address", address(slug))
            yield item


class ItemQuerySet(models.QuerySet):
    """Projects and articles: loaded as items that know their address (values() is unchanged)."""

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        self._iterable_class = AddressedIterable


class Project(SourceFile):
    PAGE_ROUTE = "pages:project"

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

    objects = ItemQuerySet.as_manager()

    class Meta:
        ordering = ["-date", "slug"]
        indexes = [models.Index(fields=["-date", "slug"], name="project_date_slug")]

    def __str__(self):
        return self.title

    def get_absolute_url(self):
        return getattr(self, "address", None) or reverse_slug(self.PAGE_ROUTE, self.slug)

    @property
    def case_study(self):
        return dict(self.case_study_items)


WORDS_PER_MINUTE = 230
TAGS = re.compile(r"<[^>]*>")


class ArticleQuerySet(ItemQuerySet):
    def published(self):
        """The only way a public surface reads articles: drafts are never published anywhere.
        Spelled `IN (false)` because SQLite cannot seek the (draft, -date, slug) index for the
        `NOT draft` that `draft=False` becomes (the neighbours' subqueries below need it)."""
        return self.filter(draft__in=[False])

    def with_neighbours(self):
        """Each article with the published articles just before and after it in the lists' order
        (newest first, then slug), for its page's links: `newer_slug`, `newer_title`,
        `older_slug`, `older_title` (None at either end), and `newer_address`, `older_address`.
        Each is the nearest one on the same day, else on another day: two subqueries that seek
        the (draft, -date, slug) index, where one with an OR scans every article. A build's run
        of 500 pages still makes one query."""
        published = Article.objects.published()
        date, slug = OuterRef("date"), OuterRef("slug")
        same_day = published.filter(date=date)
        newer = (
            same_day.filter(slug__lt=slug).order_by("-slug"),
            published.filter(date__gt=date).order_by("date", "-slug"),
        )
        older = (
            same_day.filter(slug__gt=slug).order_by("slug"),
            published.filter(date__lt=date).order_by("-date", "slug"),
        )

        def nearest(candidates, field):
            return Coalesce(*(Subquery(queryset.values(field)[:1]) for queryset in candidates))

        return self.annotate(
            newer_slug=nearest(newer, "slug"),
            newer_title=nearest(newer, "title"),
            older_slug=nearest(older, "slug"),
            older_title=nearest(older, "title"),
        )


class Article(SourceFile):
    PAGE_ROUTE = "pages:article"
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
        return getattr(self, "address", None) or reverse_slug(self.PAGE_ROUTE, self.slug)

    @property
    def scheduled(self):
        """Held back by its date alone (a ScheduledArticle), not by its front matter's `draft`."""
        return self.draft and ScheduledArticle.objects.filter(slug=self.slug).exists()

    @property
    def reading_minutes(self):
        """Minutes to read the body at 230 words a minute (rounded up, at least 1), counted in
        the stored HTML with its tags taken out (the page defers the raw markdown)."""
        words = len(TAGS.sub(" ", self.body_html).split())
        return max(1, -(-words // WORDS_PER_MINUTE))


class PageQuerySet(ItemQuerySet):
    def published(self):
        """The only way a public surface reads standalone pages: drafts are never published."""
        return self.filter(draft=False)

    def in_nav(self):
        """The published pages the site's header links to (`nav: true`), by `order`, then slug."""
        return self.published().filter(nav=True).order_by("order", "slug")


class Page(SourceFile):
    """A standalone page (`pages/<slug>.md`: an about page, a colophon), at `/<slug>`: not an
    article, so in no list, feed, tag or API document; a published page is on the surfaces every
    human page is on (the sitemap, llms.txt, the search index) and has a markdown twin."""

    PAGE_ROUTE = "pages:page"
    slug = models.SlugField(max_length=SLUG_MAX, primary_key=True)
    title = models.CharField(max_length=LINE_MAX)
    description = models.TextField()
    draft = models.BooleanField(default=False)
    nav = models.BooleanField(default=False, help_text="Linked from the site's header.")
    order = models.IntegerField(default=0, help_text="Its place among the header's pages, smallest first.")

    objects = PageQuerySet.as_manager()

    class Meta:
        ordering = ["slug"]

    def __str__(self):
        return self.title

    def get_absolute_url(self):
        return getattr(self, "address", None) or reverse_slug(self.PAGE_ROUTE, self.slug)


class TranslationQuerySet(models.QuerySet):
    def published(self):
        """The only way a public surface reads translations: a translation is published when its
        original is and it is not a draft (or scheduled) itself. A draft translation is nowhere,
        not even among its original's alternates."""
        return self.filter(draft=False).filter(
            models.Q(kind="projects")
            | models.Q(kind="articles", slug__in=Article.objects.published().values("slug"))
            | models.Q(kind="pages", slug__in=Page.objects.published().values("slug"))
        )


class Collection(models.TextChoices):
    """The content folders whose files are items with a slug (translations and aliases name them)."""

    PROJECTS = "projects"
    ARTICLES = "articles"
    PAGES = "pages"


# The model of each collection: the rows its files (`<collection>/<slug>.md`) are imported as.
ITEM_MODELS = {"projects": Project, "articles": Article, "pages": Page}


class Translation(SourceFile):
    """A project, article or standalone page in another of the site's languages
    (`articles/<slug>.<lang>.md`): what its file writes (title, description, body, tags, date,
    draft); a field it leaves out (blank, or None) is its original's, read with it
    (portfolio.content.languages.translated). One per (kind, slug, language)."""

    kind = models.CharField(max_length=10, choices=Collection)
    slug = models.SlugField(max_length=SLUG_MAX, db_index=False, help_text="The original's slug.")
    language = models.CharField(max_length=20, help_text="One of site.yaml's languages, not the default.")
    title = models.CharField(max_length=LINE_MAX, blank=True)
    tagline = models.CharField(max_length=LINE_MAX, blank=True)
    description = models.TextField(blank=True)
    date = models.DateField(null=True, blank=True)
    tags = models.JSONField(
        null=True, blank=True, help_text="Its own tags (an article's), or the original's."
    )
    # Stored resolved: its own `draft`, or true while its own date is after the build's
    # (`scheduled`: the first import on or after that date publishes it, portfolio.content.schedule).
    draft = models.BooleanField(default=False)
    scheduled = models.BooleanField(default=False)
    aliases = models.JSONField(
        default=list, blank=True, help_text="Its earlier slugs and old paths, under its language's prefix."
    )

    objects = TranslationQuerySet.as_manager()

    class Meta:
        ordering = ["kind", "slug", "language"]
        constraints = [
            models.UniqueConstraint(fields=["kind", "slug", "language"], name="translation_unique")
        ]

    def __str__(self):
        return f"{self.kind}/{self.slug} ({self.language})"


class ScheduledArticle(models.Model):
    """An article dated after the build's date, and not a draft by its own front matter: its row
    is stored as a draft (so absent wherever a draft is) until the first import on or after its
    date (portfolio/content/schedule.py). A table of its own, not a column of the articles': the
    bodies stay the last columns of their rows (migration 0004)."""

    slug = models.SlugField(max_length=SLUG_MAX, primary_key=True)
    date = models.DateField(db_index=True)

    class Meta:
        ordering = ["date", "slug"]

    def __str__(self):
        return f"{self.slug} ({self.date})"


class Alias(models.Model):
    """An earlier slug of a project, article or page (its front matter's `aliases`), whose old addresses
    answer 301 to the item's (portfolio.content.aliases). Written by the importer with its item."""

    collection = models.CharField(max_length=20, choices=Collection)
    slug = models.SlugField(max_length=SLUG_MAX, db_index=False, help_text="The earlier slug.")
    target = models.SlugField(max_length=SLUG_MAX, db_index=False, help_text="The item's slug now.")

    class Meta:
        ordering = ["collection", "slug"]
        verbose_name_plural = "aliases"
        constraints = [models.UniqueConstraint(fields=["collection", "slug"], name="alias_unique_slug")]
        indexes = [models.Index(fields=["collection", "target"], name="alias_target")]

    def __str__(self):
        return f"{self.collection}/{self.slug} -> {self.target}"


class PathAlias(models.Model):
    """An earlier absolute path of a project or article (its front matter's `aliases`: an address
    on the site before this one), which answers 301 to the item's page
    (portfolio.content.aliases). Written by the importer with its item."""

    collection = models.CharField(max_length=20, choices=Collection)
    path = models.CharField(max_length=ALIAS_PATH_MAX, unique=True, help_text="The path as written.")
    target = models.SlugField(max_length=SLUG_MAX, db_index=False, help_text="The item's slug now.")

    class Meta:
        ordering = ["path"]
        verbose_name = "path alias"
        verbose_name_plural = "path aliases"
        indexes = [models.Index(fields=["collection", "target"], name="path_alias_target")]

    def __str__(self):
        return f"{self.path} -> {self.collection}/{self.target}"


class Tagging(models.Model):
    """One published item's use of one tag (an article's `tags` entry, a project's `stack` entry),
    written by the importer with the item: the tag pages' index. A draft's tags are not here:
    drafts never count. The item's date is repeated so that a tag's items are read newest first
    from one index, as the tag pages list them (then by slug, a project before an article)."""

    class Kind(models.TextChoices):
        PROJECTS = "projects"
        ARTICLES = "articles"

    slug = models.CharField(max_length=TAG_SLUG_MAX_BYTES, help_text="The tag's slug (rules.tag_slug).")
    name = models.CharField(max_length=LINE_MAX, help_text="The tag as this item spells it.")
    kind = models.CharField(max_length=10, choices=Kind)
    item = models.CharField(max_length=SLUG_MAX, help_text="The item's slug.")
    date = models.DateField()

    class Meta:
        ordering = ["slug", "-date", "item", "-kind"]
        indexes = [
            models.Index(fields=["slug", "-date", "item", "-kind"], name="tagging_newest"),
            models.Index(fields=["kind", "item"], name="tagging_item"),
        ]
        constraints = [models.UniqueConstraint(fields=["slug", "kind", "item"], name="tagging_once")]

    def __str__(self):
        return f"{self.kind}/{self.item}: {self.name}"


class SeriesPart(models.Model):
    """One published article's place in its series (front matter `series`, `seriesOrder`), written
    by the importer with the article, as Tagging is: a draft's or a scheduled article's series is
    not here, so a series of drafts alone leaves no trace. A table of its own: the articles' rows
    keep their bodies last (0004)."""

    article = models.SlugField(max_length=SLUG_MAX, primary_key=True, help_text="The article's slug.")
    slug = models.CharField(max_length=TAG_SLUG_MAX_BYTES, help_text="The series' slug (rules.tag_slug).")
    name = models.CharField(max_length=LINE_MAX, help_text="The series as this article spells it.")
    order = models.PositiveIntegerField(null=True, blank=True, help_text="Its seriesOrder, if any.")
    date = models.DateField()

    class Meta:
        ordering = ["slug", "order", "date", "article"]
        indexes = [models.Index(fields=["slug", "order", "date", "article"], name="series_part_order")]
        verbose_name = "series part"

    def __str__(self):
        return f"{self.name}: {self.article}"


# The site identity read in the current request, when Site.read_once() is on.
_request_reads = contextvars.ContextVar("site_reads", default=None)


class Site(Imported):
    """The site's identity from site.yaml (one row)."""

    title = models.CharField(max_length=LINE_MAX)
    description = models.TextField()
    author = models.CharField(max_length=LINE_MAX)
    url = models.CharField(max_length=LINE_MAX, help_text="site.yaml's url; SITE_URL overrides it.")
    image = models.JSONField(default=dict, blank=True, help_text="The default social image, resolved.")
    links = models.JSONField(default=list, blank=True, help_text="The owner's profiles: [{name, url}].")
    content_signals = models.JSONField(
        default=dict, blank=True, help_text="robots.txt's Content-Signal: {search, ai-input, ai-train}."
    )
    image_hosts = models.JSONField(
        default=list, blank=True, help_text="site.yaml's imageHosts: hosts whose images bodies may show."
    )
    redirects = models.JSONField(
        default=list,
        blank=True,
        help_text="site.yaml's redirects: [[old address, address of this site]], each answering 301.",
    )
    comments = models.JSONField(default=dict, blank=True, help_text="site.yaml's comments: {giscus: {...}}.")
    analytics = models.JSONField(
        default=dict, blank=True, help_text="site.yaml's analytics: {provider: {...}}."
    )
    languages = models.JSONField(
        default=list,
        blank=True,
        help_text="site.yaml's languages, the default first: [{code, title, description, name}]; [] for one.",
    )

    class Meta:
        verbose_name = "site identity"
        verbose_name_plural = "site identity"

    def __str__(self):
        return self.title

    # The build cache, filled while a build renders: the content cannot change then, so the
    # identity is read once, not per page, and so is what build_cached functions compute from the
    # whole content.
    _build_site = None
    _kept = {}

    @classmethod
    def load(cls):
        """The imported site identity (the importer guarantees there is one)."""
        if cls._build_site:
            return cls._build_site
        read = _request_reads.get()
        if read is None:
            return cls.objects.get()
        if "site" not in read:
            read["site"] = cls.objects.get()
        return read["site"]

    @classmethod
    @contextmanager
    def read_once(cls):
        """Within one request (pages.middleware.SecurityHeadersMiddleware), the identity is read
        at most once, by whichever asks first: a page's context and its security headers share it.
        Per request context, so the authoring server's threads each have their own."""
        token = _request_reads.set({})
        try:
            yield
        finally:
            _request_reads.reset(token)

    @classmethod
    @contextmanager
    def build_cache(cls):
        """The build cache, for everything rendered inside this block (a build): the identity
        read once, and build_cached functions computed once."""
        cls.start_build_cache(cls.objects.get())
        try:
            yield cls._build_site
        finally:
            cls._build_site, cls._kept = None, {}

    @classmethod
    def start_build_cache(cls, site):
        """Start the build cache in this process with the build's `site` (what a build's render
        workers run first)."""
        cls._build_site, cls._kept = site, {}

    @classmethod
    def has_build_cache(cls):
        return cls._build_site is not None

    @classmethod
    def build_cached(cls, function):
        """Decorate a function of the whole content (no arguments): its answer is kept in the
        build cache while there is one, else for the request being answered (read_once: the
        authoring server imports between requests, and one page may ask many times, as a
        sitemap asks each tag's pages in each language), and computed on every call otherwise."""

        @functools.wraps(function)
        def kept():
            if cls._build_site is not None:
                store = cls._kept
            elif (read := _request_reads.get()) is not None:
                store = read.setdefault("kept", {})
            else:
                return function()
            if function not in store:
                store[function] = function()
            return store[function]

        return kept

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


class StackTranslation(Imported):
    """The stack profile in another of the site's languages (`stack.<lang>.yaml`), at /<lang>/stack:
    what it writes (its current focus, date, models, daily drivers: each list whole), the rest from
    stack.yaml (portfolio.content.languages.translated_stack)."""

    language = models.CharField(max_length=20, unique=True)
    current_focus = models.TextField(blank=True)
    last_updated = models.DateField(null=True, blank=True)
    stack_models = models.JSONField(null=True, blank=True, help_text="Its models, or stack.yaml's.")
    daily_drivers = models.JSONField(null=True, blank=True, help_text="Its daily drivers, or stack.yaml's.")

    class Meta:
        ordering = ["language"]
        verbose_name = "stack profile translation"

    def __str__(self):
        return f"Stack profile ({self.language})"


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


class MediaFile(Imported):
    """A file under the content folder's media/, published at /media/<path>. Images carry their
    size (for width/height) and the widths of their resized WebP variants (portfolio.content.media)."""

    path = models.CharField(max_length=500, primary_key=True, help_text="Path under media/.")
    width = models.PositiveIntegerField(null=True, blank=True)
    height = models.PositiveIntegerField(null=True, blank=True)
    variants = models.JSONField(default=list, blank=True)
    # What names its variants (media.Media.variant_key): /media/_v/<key>-<width>.webp finds its
    # image with one indexed query.
    variant_key = models.CharField(max_length=20, blank=True, db_index=True, editable=False)

    class Meta:
        ordering = ["path"]
        verbose_name = "media file"

    def __str__(self):
        return self.path


class Reference(models.Model):
    """A media file or item that a content file references (portfolio.content.references): kept
    so that deleting or drafting the target, or changing the media file, is noticed by the next
    import even though the referencing file did not change."""

    source = models.CharField(max_length=255, db_index=True, help_text="The referencing file.")
    line = models.PositiveIntegerField()
    target = models.CharField(max_length=500, db_index=True, help_text="media/<path> or <collection>/<slug>.")
    written = models.CharField(max_length=1000, help_text="The reference as written in the file.")

    class Meta:
        ordering = ["source", "line"]

    def __str__(self):
        return f"{self.source}:{self.line} -> {self.target}"


class ImportState(models.Model):
    """What made the imported rows (importer.IMPORT_VERSION: how bodies render, how the image
    variants they show are named), in one row. The importer does not read a file whose stat is
    unchanged, so rows made by other code would stay; when this is not the code's, the next
    import parses and renders every file."""

    version = models.CharField(max_length=100)

    class Meta:
        verbose_name = "import state"

    def __str__(self):
        return self.version

    @classmethod
    def version_stored(cls):
        return cls.objects.filter(pk=1).values_list("version", flat=True).first()

    @classmethod
    def store(cls, version):
        cls.objects.update_or_create(pk=1, defaults={"version": version})
