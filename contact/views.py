"""The contact form's pages (frozen by the static export) and its POST handler (the only code
that runs in production)."""

import json
import logging
from urllib.parse import parse_qsl

from django.conf import settings
from django.http import HttpResponse, JsonResponse
from django.shortcuts import render
from django.utils import translation
from django.utils.translation import gettext, gettext_lazy
from django.views.decorators.csrf import csrf_exempt

from . import challenge, client_address, dedupe, delivery, hosting, ratelimit
from .forms import HONEYPOT, SOLUTION, ContactForm
from .models import ContactMessage
from .origins import allowed_request_origin
from .paths import FORM_PATH, POST_PATH, THANKS_PATH

logger = logging.getLogger(__name__)

MAX_BODY_BYTES = 32 * 1024
ALLOWED_METHODS = "OPTIONS, POST"
FORM_CONTENT_TYPES = {"application/x-www-form-urlencoded"}
JSON_CONTENT_TYPES = {"application/json"}


def contact_page(request):
    return render(
        request,
        "contact/contact.html",
        {
            "form_action": hosting.form_action() + language_query(),
            "challenge_url": hosting.challenge_url(),
            "honeypot": HONEYPOT,
        },
    )


def thanks_page(request):
    return render(request, "contact/thanks.html")


class ContactError(Exception):
    """An answer other than success. Every JSON error body has this one shape:
    {"ok": false, "error": {"status": 400, "code": "...", "message": "...", "fields": {...}}}
    where `fields` maps a field name to a list of messages (empty unless code is "invalid")."""

    def __init__(self, status, code, message, fields=None, headers=None):
        super().__init__(message)
        self.status, self.code, self.message = status, code, message
        self.fields = fields or {}
        self.headers = headers or {}


# The answer to an unexpected failure (logged): the same shape, status 500.
SERVER_ERROR = (
    500,
    "server_error",
    gettext_lazy("Something went wrong on our side; please try again later."),
)


def language_query():
    """`?lang=<code>` for a form page in another language than the default (none in English): the
    service answers a post in the language of the page that sent it (requested_language)."""
    language = translation.get_language()
    return "" if language in (None, settings.LANGUAGE_CODE) else f"?lang={language}"


def requested_language(request):
    """The language of the page that posted (`?lang=`), one of settings.LANGUAGES; else the
    default. The messages a person reads (the fields' errors, the rate limit, the error page) are
    in it; the protocol's, for programs, stay English."""
    language = request.GET.get("lang")
    return language if language in dict(settings.LANGUAGES) else settings.LANGUAGE_CODE


@csrf_exempt
def contact_post(request):
    """POST /api/contact: JSON or form-encoded `name`, `email`, `message`, the empty honeypot and
    the proof of work `altcha` (without a valid one the message is stored as spam).

    CSRF-exempt on purpose: the form page is a static file, so there is no server-rendered page to
    carry a CSRF token, and no session or cookie for a forged request to ride on. What CSRF
    protection guards against (another site making a visitor's browser post here) is stopped by
    the origin allowlist instead: a browser's POST carries an Origin (or Referer) it cannot lie
    about, and anything not from the site's own origins gets 403 before the body is read.
    """
    with translation.override(requested_language(request)):
        wants_html = prefers_html(request)
        origin = None
        try:
            origin = allowed_request_origin(request)
            return answer(request, origin, wants_html)
        except ContactError as error:
            return failure(request, error, origin, wants_html)
        except Exception:
            logger.exception("Contact request failed")
            return failure(request, ContactError(*SERVER_ERROR), origin, wants_html)


@csrf_exempt
def challenge_get(request):
    """GET /api/contact/challenge: a fresh proof-of-work challenge (contact/challenge.py) for a
    page of an allowed origin, rate-limited per client as the post is (on a count of its own);
    never cached. Errors are JSON in the one shape."""
    origin = None
    try:
        origin = allowed_request_origin(request)
        if request.method != "GET":
            raise ContactError(405, "method_not_allowed", "Use GET.", headers={"Allow": "GET"})
        if origin is None:
            raise ContactError(403, "origin_not_allowed", "Challenges are only for pages of this site.")
        limit(request, scope="contact-challenge")
        response = cors(JsonResponse(challenge.create()), origin)
    except ContactError as error:
        response = failure(request, error, origin, wants_html=False)
    except Exception:
        logger.exception("Contact challenge failed")
        response = failure(request, ContactError(*SERVER_ERROR), origin, wants_html=False)
    response["Cache-Control"] = "no-store"
    return response


def limit(request, scope="contact-rate"):
    """Count the request against its client's rate (ContactError 429 past it); the client."""
    client = client_address.client_ip(request)
    retry_after = ratelimit.hit(client_address.bucket(client), scope=scope)
    if retry_after:
        raise ContactError(
            429,
            "rate_limited",
            gettext("Too many messages; try again in %(seconds)s seconds.") % {"seconds": retry_after},
            headers={"Retry-After": str(retry_after)},
        )
    return client


def prefers_html(request):
    """A browser's plain form post (Accept prefers text/html) gets pages, not JSON."""
    try:
        return request.get_preferred_type(["application/json", "text/html"]) == "text/html"
    except Exception:  # whatever an odd Accept header does, the answer is JSON
        return False


def answer(request, origin, wants_html):
    """The answer to a request from `origin` (None: not allowed), or ContactError."""
    if request.method == "OPTIONS":
        return preflight(origin)
    if request.method != "POST":
        raise ContactError(405, "method_not_allowed", "Use POST.", headers={"Allow": ALLOWED_METHODS})
    if origin is None:
        # Nothing is read, counted or stored for a page that is not ours.
        raise ContactError(
            403, "origin_not_allowed", gettext("This form only accepts posts from its own site.")
        )
    client = limit(request)
    data = read_fields(request)
    form = ContactForm(data)
    if not form.is_valid():
        if data.get(HONEYPOT):
            # A bot filled the hidden field and sent what cannot be stored: it is told "thanks"
            # all the same, so it learns nothing.
            logger.info("Contact honeypot filled from %s with invalid fields: dropped", origin)
            return success(origin, wants_html)
        fields = {name: [str(error) for error in errors] for name, errors in form.errors.items()}
        raise ContactError(400, "invalid", gettext("Some fields need attention."), fields=fields)

    # A filled honeypot, or no valid proof of work: stored as spam and answered as a success (a bot
    # learns nothing), never notified; the owner reviews it in the admin.
    if data.get(HONEYPOT):
        verdict = challenge.Verdict(challenge.HONEYPOT)
    else:
        verdict = challenge.verify(data.get(SOLUTION))
    # Stored (committed) or already stored before this line returns; else it raises and the
    # client is told to try again.
    message, created = dedupe.store(
        client_address.bucket(client),
        form.cleaned_data,
        verdict=verdict,
        origin=origin,
        client_address=str(client) if client else None,
        user_agent=request.headers.get("User-Agent", "").replace("\x00", "")[:500],
    )
    if not created:
        logger.info("Contact message from %s sent again: stored once", origin)
        return success(origin, wants_html)
    if message.status == ContactMessage.Status.SPAM:
        logger.info("Contact message %s from %s stored as spam (%s)", message.pk, origin, message.spam_reason)
        return success(origin, wants_html)
    # From here on the answer is success whatever fails: what was not sent stays owed. The mail
    # and the webhook go after the answer, from this process's delivery thread (contact/delivery.py).
    try:
        delivery.after_commit(message)
    except Exception:
        logger.exception("Contact message %s stored, but what followed failed", message.pk)
    return success(origin, wants_html)


def read_fields(request):
    """The submitted fields as {name: str}, or ContactError (413, 415, 400)."""
    try:
        declared = int(request.headers.get("Content-Length") or 0)
    except ValueError:
        raise ContactError(400, "bad_request", "Content-Length is not a number.") from None
    if request.content_type not in JSON_CONTENT_TYPES | FORM_CONTENT_TYPES:
        raise ContactError(
            415, "unsupported_media_type", "Send application/json or application/x-www-form-urlencoded."
        )
    if request.content_params.get("charset", "utf-8").lower() not in ("utf-8", "utf8"):
        raise ContactError(415, "unsupported_media_type", "Send UTF-8 (charset=utf-8 or none).")
    if declared > MAX_BODY_BYTES:
        raise ContactError(413, "too_large", f"The body is over {MAX_BODY_BYTES} bytes.")
    # Also bound what is actually read: a body without (or with a wrong) Content-Length must not
    # get past the limit either.
    body = request.read(MAX_BODY_BYTES + 1)
    if len(body) > MAX_BODY_BYTES:
        raise ContactError(413, "too_large", f"The body is over {MAX_BODY_BYTES} bytes.")
    try:
        text = body.decode("utf-8")
    except UnicodeDecodeError:
        raise ContactError(400, "bad_encoding", "The body is not UTF-8.") from None

    if request.content_type in JSON_CONTENT_TYPES:
        try:
            data = json.loads(text, object_pairs_hook=unique_keys, parse_constant=refuse_constant)
        except DuplicateKey as key:
            raise ContactError(400, "bad_json", f"The body names {key} more than once.") from None
        except (ValueError, RecursionError):  # RecursionError: nested deeper than Python recurses
            raise ContactError(400, "bad_json", "The body is not valid JSON.") from None
        if not isinstance(data, dict):
            raise ContactError(400, "bad_json", "The body must be a JSON object.")
        fields = {}
        for name in ("name", "email", "message", HONEYPOT):
            value = data.get(name)
            if value is not None and not isinstance(value, str):
                fields[name] = [gettext("Must be a string.")]
        if fields:
            raise ContactError(400, "invalid", gettext("Some fields need attention."), fields=fields)
        return {name: value for name, value in data.items() if isinstance(value, str)}

    try:
        pairs = parse_qsl(text, keep_blank_values=True, encoding="utf-8", errors="strict")
    except UnicodeDecodeError:
        raise ContactError(400, "bad_encoding", "The body is not UTF-8.") from None
    return dict(pairs)  # the last value of a repeated field wins, as in request.POST


class DuplicateKey(ValueError):
    pass


def unique_keys(pairs):
    """A JSON object whose keys are unique (json.loads would keep the last one silently)."""
    data = dict(pairs)
    if len(data) != len(pairs):
        seen = set()
        raise DuplicateKey(next(repr(k) for k, _ in pairs if k in seen or seen.add(k)))
    return data


def refuse_constant(name):
    """NaN and Infinity are not JSON."""
    raise ValueError(f"{name} is not JSON")


def cors(response, origin):
    """Let the allowed origin read the answer (the form may post cross-origin to the service)."""
    if origin is not None:
        response["Access-Control-Allow-Origin"] = origin
    response["Vary"] = "Origin, Accept"
    return response


def preflight(origin):
    if origin is None:
        raise ContactError(403, "origin_not_allowed", "This form only accepts posts from its own site.")
    response = HttpResponse(status=204)
    response["Access-Control-Allow-Methods"] = "POST"
    response["Access-Control-Allow-Headers"] = "Content-Type, Accept"
    response["Access-Control-Max-Age"] = "600"
    return cors(response, origin)


def success(origin, wants_html):
    if wants_html:
        # The page that posted is on an allowed origin (checked above), so sending the browser back
        # to that origin's thanks page is no open redirect, and it works for the authoring server,
        # the proxied site and the cross-origin service alike.
        response = HttpResponse(status=303)
        response["Location"] = origin + THANKS_PATH
        return cors(response, origin)
    return cors(JsonResponse({"ok": True}, status=201), origin)


def failure(request, error, origin, wants_html):
    if wants_html:
        response = render(
            request,
            "contact/error.html",
            {"error": error, "form_url": (origin or settings.SITE_URL) + FORM_PATH},
            status=error.status,
        )
    else:
        response = json_failure(error)
    for name, value in error.headers.items():
        response[name] = value
    return cors(response, origin)


def json_failure(error):
    shape = {
        "status": error.status,
        "code": error.code,
        "message": str(error.message),
        "fields": error.fields,
    }
    return JsonResponse({"ok": False, "error": shape}, status=error.status)


# The service's answers outside the route (contact/service_urls.py): the same JSON shape.
def bad_request(request, exception=None):
    return json_failure(ContactError(400, "bad_request", "The request is malformed."))


def forbidden(request, exception=None):
    return json_failure(ContactError(403, "forbidden", "Not allowed."))


def not_found(request, exception=None):
    return json_failure(ContactError(404, "not_found", f"Nothing here; the form posts to {POST_PATH}."))


def server_error(request):
    return json_failure(ContactError(*SERVER_ERROR))
