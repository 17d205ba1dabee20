"""The site's languages (site.yaml's `languages`, the first the default) and its items'
translations (model Translation): which there are, and an item as a translation shows it.

Without `languages` the site has one language, settings.LANGUAGE_CODE, and no translation: every
function here then answers as if nothing were translated, so no page changes."""

import contextvars
import copy
import gettext
import re
from dataclasses import dataclass
from types import SimpleNamespace

from django.conf import settings
from django.utils.text import capfirst
from django.utils.translation import get_language_info, to_locale

from .models import ITEM_MODELS, Collection, Page, Site, Stack, StackTranslation, Translation

# Written right to left: <html dir="rtl">.
RIGHT_TO_LEFT = {"ar", "fa", "he", "ur"}


@dataclass(frozen=True)
class Language:
    code: str
    name: str  # the switcher's label: its own name unless site.yaml names it
    title: str = ""  # the site's title and description in it ("" for the site's own)
    description: str = ""
    default: bool = False

    @property
    def rtl(self):
        return self.code.split("-")[0] in RIGHT_TO_LEFT

    @property
    def dir(self):
        return "rtl" if self.rtl else "ltr"

    @property
    def prefix(self):
        """The start of its addresses: "" for the default language, "/fr" for the others."""
        return "" if self.default else f"/{self.code}"


def native_name(code):
    """The language's own name, as Django knows it: for a code it does not know, that of its
    nearest general form (zh-hant-tw is zh-hant's, 繁體中文; pt-ao is pt's); else the code."""
    parts = code.split("-")
    for end in range(len(parts), 0, -1):
        try:
            return capfirst(get_language_info("-".join(parts[:end]))["name_local"])
        except KeyError:
            continue
    return code


# The start of the addresses of the page being answered: "/fr" on another language's page
# (pages.middleware.LanguageMiddleware sets it), "" elsewhere. Its tag pills lead to its tags.
page_prefix = contextvars.ContextVar("page_prefix", default="")


def languages(site=None):
    """The site's languages, the default first (one, settings.LANGUAGE_CODE, without a list)."""
    try:
        site = site or Site.load()
        listed = site.languages
    except Site.DoesNotExist:
        listed = []
    if not listed:
        return [Language(settings.LANGUAGE_CODE, native_name(settings.LANGUAGE_CODE), default=True)]
    return [
        Language(
            entry["code"],
            entry.get("name") or native_name(entry["code"]),
            entry.get("title", ""),
            entry.get("description", ""),
            default=index == 0,
        )
        for index, entry in enumerate(listed)
    ]


def declared():
    """Does site.yaml list its languages? Without a list the site has one, whichever is active."""
    try:
        return bool(Site.load().languages)
    except Site.DoesNotExist:
        return False


def default_language():
    return languages()[0]


def other_codes():
    """The codes of the languages other than the default, in site.yaml's order."""
    return [lang.code for lang in languages()[1:]]


def other_language(code):
    """The listed language `code` other than the default, or None."""
    return next((lang for lang in languages()[1:] if lang.code == code), None)


def language_of(code):
    return next((lang for lang in languages() if lang.code == code), None) or default_language()


@Site.build_cached
def published_translations():
    """{(kind, slug): {language: content hash}} of every published translation."""
    found = {}
    rows = Translation.objects.published().values_list("kind", "slug", "language", "content_hash")
    for kind, slug, language, content_hash in rows:
        found.setdefault((kind, slug), {})[language] = content_hash
    return found


def translated(original, translation):
    """The item as its translation shows it: the translation's fields where it wrote them, the
    original's elsewhere; its address under the language's prefix."""
    item = copy.copy(original)
    for field in ("title", "description", "tagline", "body", "body_html"):
        value = getattr(translation, field, "")
        if value and hasattr(item, field):
            setattr(item, field, value)
    if translation.body_html:
        item.contents = translation.contents
    if getattr(item, "body_html", ""):
        item.body_html = localized_links(item.body_html, translation.language)
    if translation.date:
        item.date = translation.date
    if translation.tags is not None and hasattr(item, "tags"):
        item.tags = translation.tags
    item.language = translation.language
    item.translation = translation
    item.address = item_address(translation.kind, item.slug, translation.language)
    for side in ("older", "newer"):  # the default language's neighbours are not this one's
        item.__dict__.pop(f"{side}_slug", None)
        item.__dict__.pop(f"{side}_address", None)
    return item


# A link of a rendered body to an item of the site (body_links.py writes them as its address).
ITEM_LINK = re.compile(
    r'href="/(?:(?P<kind>articles|projects)/)?(?P<slug>[a-z0-9]+(?:[-_][a-z0-9]+)*)(?P<rest>[#?][^"]*)?"'
)


def localized_links(html, code):
    """A translation's body with its links to items that are translated into `code` leading to
    their translation (/fr/articles/<slug>), the others to the original."""
    translated = published_translations()

    def link(match):
        kind = match["kind"] or "pages"
        if code not in translated.get((kind, match["slug"]), {}):
            return match[0]
        return f'href="{item_address(kind, match["slug"], code)}{match["rest"] or ""}"'

    return ITEM_LINK.sub(link, html)


def item_address(kind, slug, code):
    name = {"projects": "project", "articles": "article", "pages": "page"}[kind]
    return page_address(name, code, slug=slug)


def page_address(name, code, **kwargs):
    """The address of the page of route `name` (as the default language names it: "projects",
    "tag-page") in the language `code`: that route in the default language, `lang-<name>` under
    `/<code>/` in the others (pages/urls.py)."""
    from django.urls import reverse

    if language_of(code).default:
        return reverse(f"pages:{name}", kwargs=kwargs)
    return reverse(f"pages:lang-{name}", kwargs={"lang": code, **kwargs})


def translated_items(kind, code, queryset=None):
    """The published items of `kind` translated into `code`, as their translations show them,
    newest first (pages by slug)."""
    model = ITEM_MODELS[kind]
    translations = {row.slug: row for row in Translation.objects.published().filter(kind=kind, language=code)}
    if queryset is None:
        queryset = model.objects.published() if hasattr(model.objects, "published") else model.objects.all()
    items = [
        translated(item, translations[item.slug]) for item in queryset.filter(slug__in=list(translations))
    ]
    if kind != "pages":
        items.sort(key=lambda item: item.slug)
        items.sort(key=lambda item: item.date, reverse=True)
    return items


class Listed(list):
    """A list that answers `.all()`, as the stack's related managers do in its template."""

    def all(self):
        return self


def translated_stack(code):
    """The stack profile as stack.<code>.yaml shows it, or None without one: its `models` and
    `daily_drivers` are lists (answering `.all()`)."""
    translation = StackTranslation.objects.filter(language=code).first()
    original = Stack.objects.prefetch_related("models", "daily_drivers").first()
    if translation is None or original is None:
        return None
    shown = SimpleNamespace(
        current_focus=translation.current_focus or original.current_focus,
        last_updated=translation.last_updated or original.last_updated,
    )
    own = {"models": translation.stack_models, "daily_drivers": translation.daily_drivers}
    for name, items in own.items():
        if items is None:
            items = list(getattr(original, name).all())
        else:
            items = [SimpleNamespace(**{"url": "", **item}) for item in items]
        setattr(shown, name, Listed(items))
    return shown


def catalog_missing(code):
    """Whether the site's own words have no catalog in `code`: its pages then show English
    labels. Looked up as Django's translations look (gettext's search from the code's locale
    name: `zh_Hant-tw`, then `zh`), in LOCALE_PATHS."""
    if code.split("-")[0] == "en":
        return False
    return not any(
        gettext.find("django", folder, [to_locale(code)]) for folder in getattr(settings, "LOCALE_PATHS", [])
    )


def catalog_warnings(site=None):
    return [
        f"site.yaml: languages: {lang.code} has no catalog of the site's words "
        f"(locale/{to_locale(lang.code)}/LC_MESSAGES/django.mo): its pages show English labels"
        for lang in languages(site)
        if catalog_missing(lang.code)
    ]


def page_addresses():
    """The addresses of the published standalone pages and of their published translations."""
    translated = Translation.objects.published().filter(kind=Collection.PAGES).order_by("language", "slug")
    return [page.get_absolute_url() for page in Page.objects.published()] + [
        item_address(row.kind, row.slug, row.language) for row in translated if other_language(row.language)
    ]
