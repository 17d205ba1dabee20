from functools import cache
from urllib.parse import urlsplit

from django.conf import settings
from django.urls import reverse
from django.utils import translation

from pages.context_processors import LINKS
from portfolio.content.languages import Language
from portfolio.content.models import Site


@cache
def _service_context(site_url):
    links = {key: site_url + reverse(name, urlconf=settings.SITE_URLCONF) for key, name in LINKS.items()}
    name = urlsplit(site_url).hostname or "Contact"
    # An unsaved Site: every field the site's templates read has its model default.
    site = Site(title=name, description="", author=name, url=site_url)
    return {"site": site, "base_url": site_url, "links": links}


def service_site(request):
    """`site`, `base_url`, `links`, `page_language` and `written_in` on the production contact service
    (CONTACT_SERVICE=1), in place of the site's context processors: its database holds no
    imported site, so its pages (an error, the thanks page) name the site by SITE_URL's host,
    link to the site's pages, and say the language they answer in (the form page's `?lang=`)."""
    code = translation.get_language() or settings.LANGUAGE_CODE
    language = Language(code, code, default=True)
    return {**_service_context(settings.SITE_URL), "page_language": language, "written_in": {}}
