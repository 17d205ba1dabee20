"""The one settings module. Every knob comes from the environment, with safe local defaults.

Writing content (runserver) and building the static site (distill-local) need no environment
variable at all; only the contact service that runs in production needs a real SECRET_KEY.
"""

import os
from pathlib import Path

import dj_database_url

BASE_DIR = Path(__file__).resolve().parent.parent


def env_bool(name, default=False):
    value = os.environ.get(name)
    if value is None or value == "":
        return default
    return value.strip().lower() in {"1", "true", "yes", "on"}


def env_list(name, default=""):
    return [item.strip() for item in os.environ.get(name, default).split(",") if item.strip()]


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

INSTALLED_APPS = [
    "portfolio.content",
    "api",
    "pages",
    "contact",
    "django.contrib.admin",
    "django.contrib.auth",
    "django.contrib.contenttypes",
    "django.contrib.sessions",
    "django.contrib.messages",
    "django.contrib.staticfiles",
    "django.contrib.sitemaps",
    "rest_framework",
    "drf_spectacular",
    "django_distill",
]

MIDDLEWARE = [
    "django.middleware.security.SecurityMiddleware",
    "django.contrib.sessions.middleware.SessionMiddleware",
    "django.middleware.common.CommonMiddleware",
    "django.middleware.csrf.CsrfViewMiddleware",
    "django.contrib.auth.middleware.AuthenticationMiddleware",
    "django.contrib.messages.middleware.MessageMiddleware",
    "django.middleware.clickjacking.XFrameOptionsMiddleware",
]

ROOT_URLCONF = "portfolio.urls"

TEMPLATES = [
    {
        "BACKEND": "django.template.backends.django.DjangoTemplates",
        "DIRS": [BASE_DIR / "templates"],
        "APP_DIRS": True,
        "OPTIONS": {
            "context_processors": [
                "django.template.context_processors.request",
                "django.contrib.auth.context_processors.auth",
                "django.contrib.messages.context_processors.messages",
                "portfolio.content.context_processors.site",
            ],
        },
    },
]

WSGI_APPLICATION = "portfolio.wsgi.application"

DATABASES = {
    "default": dj_database_url.config(default=f"sqlite:///{BASE_DIR / 'db.sqlite3'}", conn_max_age=600)
}

DEFAULT_AUTO_FIELD = "django.db.models.BigAutoField"

LANGUAGE_CODE = "en"
TIME_ZONE = "UTC"
USE_I18N = False
USE_TZ = True

STATIC_URL = "/static/"
STATIC_ROOT = BASE_DIR / "staticfiles"

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
    "DEFAULT_SCHEMA_CLASS": "drf_spectacular.openapi.AutoSchema",
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
