"""The one settings module. Every knob comes from the environment, with safe local defaults.

Writing content (runserver) and building the static site (distill-local) need no environment
variable at all; only the contact service that runs in production needs a real SECRET_KEY.
"""

import os
import re
from datetime import date, timedelta
from pathlib import Path

import dj_database_url
from django.core.exceptions import ImproperlyConfigured

BASE_DIR = Path(__file__).resolve().parent.parent


def env_bool(name, default=False):
    value = os.environ.get(name)
    if value is None or value == "":
        return default
    return value.strip().lower() in {"1", "true", "yes", "on"}


def env_list(name, default=""):
    return [item.strip() for item in os.environ.get(name, default).split(",") if item.strip()]


def env_date(name):
    """A YYYY-MM-DD date from the environment, or None when unset."""
    value = os.environ.get(name, "").strip()
    if not value:
        return None
    try:
        if not re.fullmatch(r"\d{4}-\d{2}-\d{2}", value):
            raise ValueError
        return date.fromisoformat(value)
    except ValueError:
        raise ImproperlyConfigured(f"{name}: expected a date YYYY-MM-DD; got {value!r}") from None


DEBUG = env_bool("DEBUG")

# A fixed key is fine for authoring and building: nothing signed with it leaves this machine.
# The contact service checks that it has been replaced before it starts.
INSECURE_SECRET_KEY = "django-insecure-local-authoring-only"
SECRET_KEY = os.environ.get("SECRET_KEY") or INSECURE_SECRET_KEY

ALLOWED_HOSTS = env_list("ALLOWED_HOSTS", "127.0.0.1,localhost,[::1]")

# The production base URL. When set it overrides site.yaml's `url` (see portfolio.content.site).
SITE_URL = os.environ.get("SITE_URL", "").strip().rstrip("/")

# The markdown folder the site is built from.
CONTENT_DIR = Path(os.environ.get("CONTENT_DIR") or BASE_DIR / "content").resolve()
# The resized variants of content images, named by content hash: kept across imports and builds
# so that an unchanged image is never resized twice (portfolio.content.media).
MEDIA_CACHE_DIR = Path(os.environ.get("MEDIA_CACHE_DIR") or BASE_DIR / ".cache" / "media").resolve()
# The import's rendered bodies, named by a hash of the file and of the renderer: a new database
# (a CI runner, a clone) does not render again a body an earlier import rendered
# (portfolio.content.content_cache).
CONTENT_CACHE_DIR = Path(os.environ.get("CONTENT_CACHE_DIR") or BASE_DIR / ".cache" / "content").resolve()
# Copies of a freshly migrated SQLite database, named by what decides its bytes: a new, empty
# database starts as one instead of replaying every migration (portfolio.content.schema).
SCHEMA_CACHE_DIR = Path(os.environ.get("SCHEMA_CACHE_DIR") or BASE_DIR / ".cache" / "schema").resolve()
# The site's Jinja2 templates, compiled, kept between processes (portfolio.jinja2.bytecode_cache).
JINJA2_CACHE_DIR = Path(os.environ.get("JINJA2_CACHE_DIR") or BASE_DIR / ".cache" / "jinja2").resolve()

# The authoring server renders draft articles at their address (with a "Draft" banner, noindex);
# they stay off every list and machine surface, and the build ignores this setting.
SHOW_DRAFTS = env_bool("SHOW_DRAFTS")
# The build's date: an article dated after it is scheduled, published by the first build (or
# import) on or after its date and absent everywhere until then, as a draft is
# (portfolio.content.schedule). Unset: today's date, read when the import runs.
BUILD_DATE = env_date("BUILD_DATE")
# The built folder (`make build` writes dist/) whose search index the authoring server answers
# /pagefind/ with, so that /search works there after a build (pages.views.search_index_file).
SEARCH_BUILD_DIR = Path(os.environ.get("SEARCH_BUILD_DIR") or BASE_DIR / "dist").resolve()

# The largest content file the importer accepts (bytes; docs/content-format.md, "Limits"): a bigger one is a
# named error, so every accepted file is rendered within a time bound linear in its size.
CONTENT_MAX_FILE_BYTES = int(os.environ.get("CONTENT_MAX_FILE_BYTES") or 1_000_000)
# llms-full.txt is cut into parts of about this many bytes (docs/pages-and-api.md): an agent
# reads a part whole, so a part should fit a model's context window (1 MB is about 250,000 tokens).
LLMS_FULL_PART_BYTES = int(os.environ.get("LLMS_FULL_PART_BYTES") or 1_000_000)
# How many items one page of /projects or /articles shows (docs/pages-and-api.md): the later pages
# are /projects/page/2 and on. The API's lists stay whole.
LIST_PAGE_SIZE = int(os.environ.get("LIST_PAGE_SIZE") or 50)
# The largest media file (an image under content/media/): it is read whole to hash and measure it.
MEDIA_MAX_FILE_BYTES = int(os.environ.get("MEDIA_MAX_FILE_BYTES") or 25_000_000)

# The static host's limits (docs/hosting.md, "Host limits"): a build whose output would break one
# fails, naming it, and publishes nothing (portfolio/export/limits.py). The defaults are Cloudflare
# Pages' free plan; its paid plans take HOST_MAX_FILES=100000.
HOST_MAX_FILES = int(os.environ.get("HOST_MAX_FILES") or 20_000)
HOST_MAX_FILE_BYTES = int(os.environ.get("HOST_MAX_FILE_BYTES") or 25 * 2**20)
HOST_MAX_STATIC_REDIRECTS = int(os.environ.get("HOST_MAX_STATIC_REDIRECTS") or 2_000)
HOST_MAX_DYNAMIC_REDIRECTS = int(os.environ.get("HOST_MAX_DYNAMIC_REDIRECTS") or 100)
HOST_MAX_HEADER_RULES = int(os.environ.get("HOST_MAX_HEADER_RULES") or 100)
# For a host without redirect rules (GitHub Pages, whose workflow sets it): the build writes each
# renamed item's old page address as a small page that sends the reader on (portfolio/export/
# hosts.py, redirect_pages). Off elsewhere: Netlify would serve such a page instead of the 301.
REDIRECT_PAGES = env_bool("REDIRECT_PAGES")

INSTALLED_APPS = [
    "portfolio.content",
    "api",
    "pages",
    "contact",
    "portfolio.movein",
    "django.contrib.admin",
    "django.contrib.auth",
    "django.contrib.contenttypes",
    "django.contrib.sessions",
    "django.contrib.messages",
    "django.contrib.staticfiles",
    "django.contrib.sitemaps",
    "rest_framework",
    "drf_spectacular",
    "portfolio.preview",
    "portfolio.export",  # before django_distill: its distill-local command replaces distill's
    "django_distill",
]

MIDDLEWARE = [
    "django.middleware.security.SecurityMiddleware",
    # The site's Content-Security-Policy and the other headers the hosts send (not in the
    # contact service).
    "pages.middleware.SecurityHeadersMiddleware",
    # Each page in its language: /<lang>/'s, the site's default elsewhere (pages/languages.py).
    "pages.middleware.LanguageMiddleware",
    "django.contrib.sessions.middleware.SessionMiddleware",
    "django.middleware.common.CommonMiddleware",
    "django.middleware.csrf.CsrfViewMiddleware",
    "django.contrib.auth.middleware.AuthenticationMiddleware",
    "django.contrib.messages.middleware.MessageMiddleware",
    "django.middleware.clickjacking.XFrameOptionsMiddleware",
    # A renamed item's old addresses move to the new ones (what the hosts' rules do in a build).
    "pages.middleware.AliasRedirectMiddleware",
    # A page asked for with `Accept: text/markdown` answers its markdown form (as every host does).
    "pages.negotiation.MarkdownNegotiationMiddleware",
    # Both answer before the view: the site's own 404 page with DEBUG on too, and the content
    # folder's problems while an edit is invalid (authoring server only).
    "pages.middleware.SiteNotFoundMiddleware",
    "portfolio.content.middleware.ContentErrorMiddleware",
]

ROOT_URLCONF = "portfolio.urls"

# Live reload while writing (DEBUG on): its middleware adds a script to every HTML answer, outside
# the two above so that their pages reload too. Never in a build: the export renders with DEBUG
# off, and the middleware adds nothing then; the build exports only the project's static files.
BROWSER_RELOAD = DEBUG and not env_bool("CONTACT_SERVICE")
if BROWSER_RELOAD:
    INSTALLED_APPS.append("django_browser_reload")
    MIDDLEWARE.insert(MIDDLEWARE.index("pages.middleware.SiteNotFoundMiddleware"),
                      "django_browser_reload.middleware.BrowserReloadMiddleware")  # fmt: skip

# Two engines, searched in this order. The site's own templates are Jinja2 (portfolio/jinja2.py
# says why): templates/ (base.html, includes/, pages/) and each app's jinja2/ folder (contact's
# pages). No installed app ships a jinja2/ folder of its own, so the admin's and the sitemaps'
# templates are not seen by this engine; they are found by the second, the Django template
# language, which looks only in the apps' templates/ folders and so never sees a Jinja2 file.
TEMPLATES = [
    {
        "BACKEND": "django.template.backends.jinja2.Jinja2",
        "DIRS": [BASE_DIR / "templates"],
        "APP_DIRS": True,
        "OPTIONS": {
            "environment": "portfolio.jinja2.environment",
            # `request` (and `csrf_input`) come with the backend.
            "context_processors": [
                "portfolio.content.context_processors.site",
                "pages.context_processors.links",
                "pages.context_processors.navigation",
                "pages.context_processors.readers",
                "pages.context_processors.page_languages",
            ],
        },
    },
    {
        "BACKEND": "django.template.backends.django.DjangoTemplates",
        "APP_DIRS": True,
        "OPTIONS": {
            "context_processors": [
                "django.template.context_processors.request",
                "django.contrib.auth.context_processors.auth",
                "django.contrib.messages.context_processors.messages",
            ],
        },
    },
]

WSGI_APPLICATION = "portfolio.wsgi.application"

# Connections are kept between requests, and checked before a request reuses one: after a
# database restart, the first request of each worker would otherwise fail on its stale connection.
DATABASES = {
    "default": dj_database_url.config(
        default=f"sqlite:///{BASE_DIR / 'db.sqlite3'}", conn_max_age=600, conn_health_checks=True
    )
}
if DATABASES["default"]["ENGINE"] == "django.db.backends.postgresql":
    # A hung or unreachable server fails the request within seconds, not at gunicorn's timeout.
    DATABASES["default"].setdefault("OPTIONS", {}).setdefault("connect_timeout", 5)

DEFAULT_AUTO_FIELD = "django.db.models.BigAutoField"

LANGUAGE_CODE = "en"
TIME_ZONE = "UTC"
# The site's own words (labels, headings, messages, dates) follow the active language through the
# gettext catalogs of locale/ (docs/languages.md); none active: English, LANGUAGE_CODE.
USE_I18N = True
# The languages the site's words are translated into (locale/<code>/LC_MESSAGES/django.po).
LANGUAGES = [
    ("en", "English"),
    ("fr", "Français"),
    ("de", "Deutsch"),
    ("es", "Español"),
    ("ja", "日本語"),
    ("zh-hans", "简体中文"),
    ("fa", "فارسی"),
]
LOCALE_PATHS = [BASE_DIR / "locale"]
# English dates as the pages have always shown them ("5 May 2026", "May 2026" on a card): the
# other languages use Django's own formats ("5 mai 2026", "2026年5月5日").
FORMAT_MODULE_PATH = ["portfolio.formats"]
USE_TZ = True

STATIC_URL = "/static/"
STATIC_ROOT = BASE_DIR / "staticfiles"
# The last finder knows the content-hashed names pages link with DEBUG off (pages/assets.py).
STATICFILES_FINDERS = [
    "django.contrib.staticfiles.finders.FileSystemFinder",
    "django.contrib.staticfiles.finders.AppDirectoriesFinder",
    "pages.assets.HashedNameFinder",
]

# Paths are spelled exactly as the spec writes them (`/projects`, not `/projects/`).
APPEND_SLASH = False

LOGGING = {
    "version": 1,
    "disable_existing_loggers": False,
    "handlers": {"console": {"class": "logging.StreamHandler"}},
    "root": {"handlers": ["console"], "level": os.environ.get("LOG_LEVEL", "WARNING")},
}

# The read API: JSON only (no browsable API), no authentication (so no CSRF check: other methods
# get a 405, not a 403), and no `?format=` override (a static file has one format).
REST_FRAMEWORK = {
    "DEFAULT_RENDERER_CLASSES": ["rest_framework.renderers.JSONRenderer"],
    "DEFAULT_AUTHENTICATION_CLASSES": [],
    "DEFAULT_PERMISSION_CLASSES": [],
    "UNAUTHENTICATED_USER": None,
    "URL_FORMAT_OVERRIDE": None,
    "DEFAULT_SCHEMA_CLASS": "api.schema.AutoSchema",
}

# /openapi.json is generated from the API's serializers and views (api.openapi holds the hooks),
# so the contract cannot drift from the code.
SPECTACULAR_SETTINGS = {
    "OAS_VERSION": "3.1.0",
    "VERSION": "1.0.0",
    "TITLE": "Portfolio API",  # replaced by the site's name (api.openapi.finish)
    "DESCRIPTION": "",  # api.openapi.DESCRIPTION
    "SERVE_INCLUDE_SCHEMA": False,
    "PREPROCESSING_HOOKS": ["api.openapi.only_read_api"],
    "POSTPROCESSING_HOOKS": ["drf_spectacular.hooks.postprocess_schema_enums", "api.openapi.finish"],
    "ENUM_NAME_OVERRIDES": {
        "ProjectStatusEnum": "portfolio.content.models.Project.Status",
        "ModelTypeEnum": "portfolio.content.models.StackModel.Type",
        "DailyDriverStatusEnum": "portfolio.content.models.DailyDriver.Status",
    },
    "ENUM_GENERATE_CHOICE_DESCRIPTION": False,
}

# Cache: the contact route's rate-limit counters live here. Local memory is right for one
# process (the authoring server, a single gunicorn worker); REDIS_URL shares the counters between
# every process and host that serves the route.
REDIS_URL = os.environ.get("REDIS_URL", "").strip()
if REDIS_URL:
    CACHES = {
        "default": {
            "BACKEND": "django.core.cache.backends.redis.RedisCache",
            "LOCATION": REDIS_URL,
            # Fail fast: the limiter lets messages through (and logs) when Redis is down or hung,
            # and after a failed call Redis is skipped for a while (contact.ratelimit.cache_call).
            "OPTIONS": {"socket_connect_timeout": 0.25, "socket_timeout": 0.25},
        }
    }
else:
    CACHES = {"default": {"BACKEND": "django.core.cache.backends.locmem.LocMemCache"}}

# Email: the console by default (authoring), SMTP when EMAIL_HOST is set.
EMAIL_HOST = os.environ.get("EMAIL_HOST", "").strip()
EMAIL_BACKEND = os.environ.get("EMAIL_BACKEND") or (
    "django.core.mail.backends.smtp.EmailBackend"
    if EMAIL_HOST
    else "django.core.mail.backends.console.EmailBackend"
)
# The folder of EMAIL_BACKEND=django.core.mail.backends.filebased.EmailBackend (one file a mail).
EMAIL_FILE_PATH = os.environ.get("EMAIL_FILE_PATH") or None
EMAIL_USE_SSL = env_bool("EMAIL_USE_SSL")
EMAIL_USE_TLS = env_bool("EMAIL_USE_TLS", default=not EMAIL_USE_SSL)
EMAIL_PORT = int(os.environ.get("EMAIL_PORT") or (465 if EMAIL_USE_SSL else 587))
EMAIL_HOST_USER = os.environ.get("EMAIL_HOST_USER", "")
EMAIL_HOST_PASSWORD = os.environ.get("EMAIL_HOST_PASSWORD", "")
# A hung SMTP server must not hold a contact request for long (the message is already saved).
EMAIL_TIMEOUT = int(os.environ.get("EMAIL_TIMEOUT") or 10)
DEFAULT_FROM_EMAIL = os.environ.get("DEFAULT_FROM_EMAIL", "webmaster@localhost")

# The contact route (docs/contact.md).
# Who is told about a new message; empty: messages are only stored (and visible in the admin).
CONTACT_NOTIFY_EMAIL = os.environ.get("CONTACT_NOTIFY_EMAIL", "").strip()
# Origins whose pages may post the form. Empty: the origin of SITE_URL (or site.yaml's url), plus
# the local authoring origins when DEBUG is on.
CONTACT_ALLOWED_ORIGINS = env_list("CONTACT_ALLOWED_ORIGINS")
# N/<window>: N messages per client per window; the window is an optional count and s, m, h or d.
CONTACT_RATE = os.environ.get("CONTACT_RATE", "").strip() or "5/10m"
# Who may say where a request comes from (contact/client_address.py): a count of proxies that
# append to X-Forwarded-For (0: the socket peer is the client), or a list of proxy addresses and
# networks ("10.0.0.0/8,127.0.0.1,::1") whose X-Forwarded-For is read only when they are the peer.
_trusted_proxies = os.environ.get("CONTACT_TRUSTED_PROXIES", "").strip() or "0"
CONTACT_TRUSTED_PROXIES = (
    int(_trusted_proxies) if _trusted_proxies.isdigit() else env_list("CONTACT_TRUSTED_PROXIES")
)
# Where the contact service runs when it is not the host serving the static site (no trailing
# slash). With CONTACT_CROSS_ORIGIN the form posts straight to it (CORS); otherwise the static
# host proxies /api/contact to it (contact.hosting.redirect_rules()).
CONTACT_SERVICE_URL = os.environ.get("CONTACT_SERVICE_URL", "").strip().rstrip("/")
# Where giscus (site.yaml's comments) is served from: its script, frame and stylesheet, which the
# articles' Content-Security-Policy allows. Another origin only for a self-hosted giscus, or the
# tests' stand-in on the loopback address.
GISCUS_ORIGIN = os.environ.get("GISCUS_ORIGIN", "https://giscus.app").strip().rstrip("/")
CONTACT_CROSS_ORIGIN = env_bool("CONTACT_CROSS_ORIGIN")
# The proof of work the form's script solves before posting (contact/challenge.py, ALTCHA v1): the
# largest number a challenge may hide (a browser tries half of them on average), how long a
# challenge stays valid, and the key that signs it (default: derived from SECRET_KEY).
CONTACT_CHALLENGE_MAXNUMBER = int(os.environ.get("CONTACT_CHALLENGE_MAXNUMBER") or 100_000)
CONTACT_CHALLENGE_EXPIRY = int(os.environ.get("CONTACT_CHALLENGE_EXPIRY") or 600)
CONTACT_CHALLENGE_HMAC_KEY = os.environ.get("CONTACT_CHALLENGE_HMAC_KEY", "")
# Retention (manage.py prune_contact_messages): spam older than this many days is deleted; other
# messages only when CONTACT_KEEP_DAYS is set.
CONTACT_SPAM_KEEP_DAYS = int(os.environ.get("CONTACT_SPAM_KEEP_DAYS") or 30)
CONTACT_KEEP_DAYS = int(os.environ["CONTACT_KEEP_DAYS"]) if os.environ.get("CONTACT_KEEP_DAYS") else None
# Every message that is not spam is also POSTed here as signed JSON (contact/webhooks.py).
CONTACT_WEBHOOK_URL = os.environ.get("CONTACT_WEBHOOK_URL", "").strip()
CONTACT_WEBHOOK_SECRET = os.environ.get("CONTACT_WEBHOOK_SECRET", "")
CONTACT_WEBHOOK_TIMEOUT = float(os.environ.get("CONTACT_WEBHOOK_TIMEOUT") or 3)

# The production contact service (gunicorn portfolio.wsgi with CONTACT_SERVICE=1) serves only
# POST /api/contact, plus the admin when CONTACT_SERVICE_ADMIN=1. It is the only code on the
# internet, so it refuses to start with DEBUG on or without a real secret key.
CONTACT_SERVICE = env_bool("CONTACT_SERVICE")
CONTACT_SERVICE_ADMIN = env_bool("CONTACT_SERVICE_ADMIN")
# The admin's login form behind a TLS-terminating proxy: e.g. https://contact.example.net
CSRF_TRUSTED_ORIGINS = env_list("CSRF_TRUSTED_ORIGINS")
# The site's own pages are routed here even when another urlconf serves a request.
SITE_URLCONF = "portfolio.urls"
# HSTS on the service's answers (SecurityMiddleware sends it over HTTPS only).
SECURE_HSTS_SECONDS = int(os.environ.get("SECURE_HSTS_SECONDS") or 0)
if CONTACT_SERVICE:
    ROOT_URLCONF = "contact.service_urls"
    # Its database holds no imported site: its pages take the site's name and links from SITE_URL.
    TEMPLATES[0]["OPTIONS"]["context_processors"] = ["contact.context_processors.service_site"]
    # gunicorn alone serves the static files its pages and the admin use: WhiteNoise, reading
    # the apps' static folders (no collectstatic step in the deploy).
    MIDDLEWARE.insert(1, "whitenoise.middleware.WhiteNoiseMiddleware")
    WHITENOISE_USE_FINDERS = True
    STATIC_ROOT = None
    if CONTACT_TRUSTED_PROXIES:
        # The proxy in front terminates TLS and says so (deploy/contact-nginx.conf sets it).
        SECURE_PROXY_SSL_HEADER = ("HTTP_X_FORWARDED_PROTO", "https")
    # The admin's session and CSRF cookies travel over HTTPS only, out of reach of scripts, and a
    # plain-HTTP request is redirected before any view sees it: a session made over HTTPS is never
    # accepted over HTTP. SECURE_SSL_REDIRECT=0 only for a deploy without TLS (not production:
    # the admin cannot log in there, its cookies being Secure).
    SESSION_COOKIE_SECURE = True
    SESSION_COOKIE_HTTPONLY = True
    CSRF_COOKIE_SECURE = True
    SECURE_SSL_REDIRECT = env_bool("SECURE_SSL_REDIRECT", default=True)
    # The service's host has no subdomains of its own; HSTS covers any that appear.
    SECURE_HSTS_INCLUDE_SUBDOMAINS = True
    # HSTS preloading is decided for the site's registrable domain (hstspreload.org takes only
    # that, from its own header), not for the contact service's host.
    SILENCED_SYSTEM_CHECKS = ["security.W021"]
    if CONTACT_SERVICE_ADMIN:
        # The admin's login, throttled (django-axes): 5 failures for one account (from anywhere)
        # or from one client (for any accounts) lock it out for 15 minutes; a locked-out attempt
        # is answered 429 before its password is hashed, so guesses cannot hold the 2 workers.
        # The database keeps the count, shared by every worker (the admin lists the attempts).
        INSTALLED_APPS.append("axes")
        MIDDLEWARE.append("axes.middleware.AxesMiddleware")  # last, as axes asks
        AUTHENTICATION_BACKENDS = [
            "axes.backends.AxesStandaloneBackend",  # first: it refuses before ModelBackend hashes
            "django.contrib.auth.backends.ModelBackend",
        ]
        AXES_FAILURE_LIMIT = 5
        AXES_LOCKOUT_PARAMETERS = ["username", "ip_address"]  # either one locks
        AXES_COOLOFF_TIME = timedelta(minutes=15)
        # The client as the contact route sees it: CONTACT_TRUSTED_PROXIES, IPv6 by /64.
        AXES_CLIENT_IP_CALLABLE = "contact.client_address.axes_client_ip"
    if DATABASES["default"]["ENGINE"] == "django.db.backends.sqlite3":
        # Several workers write (messages; the admin's sessions and login attempts): a transaction
        # takes SQLite's write lock when it begins, waiting for another's, instead of failing with
        # "database is locked" when two upgrade their read locks at once.
        DATABASES["default"].setdefault("OPTIONS", {})["transaction_mode"] = "IMMEDIATE"
    if DEBUG:
        raise ImproperlyConfigured("CONTACT_SERVICE=1 refuses to run with DEBUG on: unset DEBUG.")
    if SECRET_KEY == INSECURE_SECRET_KEY or SECRET_KEY.startswith("django-insecure") or len(SECRET_KEY) < 32:
        raise ImproperlyConfigured(
            "CONTACT_SERVICE=1 needs a real SECRET_KEY (at least 32 random characters), for example "
            "from: python -c 'import secrets; print(secrets.token_urlsafe(50))'"
        )
