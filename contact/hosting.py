"""How the frozen `/contact` page reaches the contact service, decided at build time.

- CONTACT_SERVICE_URL unset: the form posts to `/api/contact` on the page's own origin (the
  authoring server; or a host that routes that path to the service itself, e.g. a Cloudflare
  Worker route on the same zone).
- CONTACT_SERVICE_URL set: the form still posts to `/api/contact` on the site, and the static
  host proxies it to the service: `redirect_rules()` is the Netlify `_redirects` line for that.
- CONTACT_SERVICE_URL set and CONTACT_CROSS_ORIGIN on (Cloudflare Pages, whose `_redirects`
  cannot proxy to another host): the form posts straight to the service, which answers with CORS
  headers for the allowed origins only. No redirect rule is written.
"""

from django.conf import settings

from .paths import CHALLENGE_PATH, POST_PATH


def form_action():
    """Where the `/contact` form posts."""
    if settings.CONTACT_SERVICE_URL and settings.CONTACT_CROSS_ORIGIN:
        return settings.CONTACT_SERVICE_URL + POST_PATH
    return POST_PATH


def challenge_url():
    """Where the form's script fetches its proof-of-work challenge: beside the post."""
    if settings.CONTACT_SERVICE_URL and settings.CONTACT_CROSS_ORIGIN:
        return settings.CONTACT_SERVICE_URL + CHALLENGE_PATH
    return CHALLENGE_PATH


def redirect_rules():
    """Lines for the static host's `_redirects` file (Netlify syntax): a proxy (status 200,
    forced) of `/api/contact` to the contact service when the static host must forward it; else
    none. The export writes them before any catch-all rule."""
    if settings.CONTACT_SERVICE_URL and not settings.CONTACT_CROSS_ORIGIN:
        service = settings.CONTACT_SERVICE_URL
        return [f"{path}  {service}{path}  200!" for path in (POST_PATH, CHALLENGE_PATH)]
    return []
