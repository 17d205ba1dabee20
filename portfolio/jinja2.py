"""The Jinja2 environment of the site's own templates (settings.TEMPLATES' first engine).

Jinja2 rather than the Django template language for speed: it renders a page in a fraction of
the DTL's time, and a build renders every page and lists of thousands of items. The admin
and django.contrib.sitemaps keep their own DTL templates (the second engine).

The templates see what the DTL ones did: `static` (content-hashed names, pages.assets) and `url`
(reverse, positional arguments: `url("pages:project", slug)`) as globals, and the filters below;
`tag_address(tag)` gives a tag pill's link (pages.tags).
`{% csrf_token %}` would be `{{ csrf_input }}` (the backend provides it, with `request`).

The site's own words are translated with Jinja2's i18n extension over Django's gettext, in the
active language (English when none is): `{{ _("Projects") }}`, `{{ _("Page %(number)s", number=n) }}`,
`{{ ngettext("%(num)s item", "%(num)s items", n) }}` (newstyle: the values are escaped, the
text is not, and a literal percent sign is written %%). The catalogs: locale/, docs/languages.md.
`script_words(...)`: the scripts' words in the active language (below).
"""

import datetime
import functools
import hashlib
import json
from pathlib import Path

import django
import jinja2
from django.conf import settings
from django.template import defaultfilters
from django.urls import reverse
from django.utils.encoding import escape_uri_path
from django.utils.text import capfirst
from django.utils.timezone import template_localtime
from django.utils.translation import get_language, gettext, ngettext
from markupsafe import Markup

from pages import assets
from pages.plain_text import link_text, oneline
from pages.social import social_image, structured_data
from pages.tags import tag_address


def url(viewname, *args):
    return reverse(viewname, args=args)


def static(path):
    """The static() tag with content-hashed names when DEBUG is off (pages.assets), remembered:
    every page asks for the same three files."""
    return _static(path, settings.STATIC_URL, settings.DEBUG)


@functools.cache
def _static(path, static_url, debug):
    return assets.url(path)


def date(value, format_string=None):
    """DTL's `date` filter, same output (English month names, DATE_FORMAT by default); a
    datetime is shown in the current time zone first, as DTL does. A day's text is remembered
    (by format and language): lists show thousands of items over far fewer days."""
    if type(value) is datetime.date and format_string:
        return _day(value, format_string, get_language())
    return defaultfilters.date(template_localtime(value), format_string)


@functools.lru_cache(maxsize=10_000)
def _day(value, format_string, language):
    return defaultfilters.date(value, format_string)


def script_words(*words):
    """` data-words='{...}'`: the translations, in the active language, of the English `words` a
    script says (pages/static/pages/*.js, contact.js read it with their English as the fallback);
    nothing when none is translated, so an English page carries none. The words are msgids of
    the catalogs (tools/messages.py finds them in these calls); a pair (singular, plural) is
    given as its forms for 1 and for 2, keyed by the singular (a script says "1 result" or "2
    results"; enough for the languages of settings.LANGUAGES, not for those with more forms)."""
    translated = {}
    for word in words:
        if isinstance(word, tuple):
            forms = [ngettext(*word, 1), ngettext(*word, 2)]
            if all(forms) and forms != list(word):
                translated[word[0]] = forms
        elif (text := gettext(word)) and text != word:
            translated[word] = text
    if not translated:
        return Markup("")
    return Markup(" data-words='{}'").format(json.dumps(translated, ensure_ascii=False, sort_keys=True))


def environment(**options):
    options.update(
        # HTML and XML are escaped; the plain-text surfaces (llms.txt, robots.txt) are not.
        autoescape=jinja2.select_autoescape(["html", "xml"]),
        # Keep a template's final newline, as DTL does: the pages end with one.
        keep_trailing_newline=True,
        # A missing value renders as "", as in DTL, in DEBUG too (the backend would otherwise use
        # DebugUndefined there): the authoring server shows the bytes the build writes.
        undefined=jinja2.Undefined,
    )
    options.setdefault("bytecode_cache", bytecode_cache())
    options["extensions"] = [*options.get("extensions", ()), "jinja2.ext.i18n"]
    env = jinja2.Environment(**options)
    env.install_gettext_callables(gettext, ngettext, newstyle=True)
    env.globals.update(
        static=static,
        url=url,
        social_image=social_image,
        structured_data=structured_data,
        tag_address=tag_address,
        script_words=script_words,
    )
    # `uri`: a request's path as an address (percent-encoded, as a tag's in another script is).
    env.filters.update(
        date=date, capfirst=capfirst, oneline=oneline, link_text=link_text, uri=escape_uri_path
    )
    return env


def bytecode_cache():
    """The compiled templates, kept between processes: compiling the site's templates costs every
    build's and authoring server's start far more than loading them. Jinja2 checks
    each file against its template's source (and Python's version); what else decides the
    compiled code (Jinja2's and Django's versions, the options above and in settings.TEMPLATES)
    names the folder, so that a change there starts a new one. None (compile every time) where
    the folder cannot be made, e.g. a read-only deploy."""
    key = hashlib.sha256(
        repr((jinja2.__version__, django.__version__, settings.TEMPLATES)).encode()
        + Path(__file__).read_bytes()
    ).hexdigest()[:16]
    folder = Path(settings.JINJA2_CACHE_DIR) / key
    try:
        folder.mkdir(parents=True, exist_ok=True)
    except OSError:
        return None
    return KeptTemplates(str(folder))


class KeptTemplates(jinja2.FileSystemBytecodeCache):
    def dump_bytecode(self, bucket):
        try:
            super().dump_bytecode(bucket)
        except OSError:
            pass  # the folder went or the disk is full: the template is compiled, only not kept
