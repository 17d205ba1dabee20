"""/.well-known/api-catalog (RFC 9727): where an agent that knows only the site's host finds its
API. A linkset (RFC 9264) whose one context is the v1 API base: its OpenAPI description
(`service-desc`), its human documentation (`service-doc`) and its index document (`item`).
Beyond the spec: it adds a surface and changes none of the v1 documents."""

import json

from django.http import HttpResponse

from portfolio.content.models import Site

# RFC 9727, section 4.2: the linkset media type with the catalog's profile.
CONTENT_TYPE = 'application/linkset+json; profile="https://www.rfc-editor.org/info/rfc9727"'


def document(base_url):
    api = f"{base_url}/api/v1"
    return {
        "linkset": [
            {
                "anchor": api,
                "service-desc": [{"href": f"{base_url}/openapi.json", "type": "application/json"}],
                "service-doc": [{"href": f"{base_url}/developers", "type": "text/html"}],
                "item": [{"href": f"{api}.json", "type": "application/json"}],
            }
        ]
    }


def api_catalog(request):
    body = json.dumps(document(Site.load().base_url), indent=2) + "\n"
    return HttpResponse(body, content_type=CONTENT_TYPE)
