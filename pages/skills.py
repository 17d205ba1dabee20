"""The agent skills index (Cloudflare's agent-skills discovery RFC, v0.2.0): at
/.well-known/agent-skills/index.json, one `skill-md` skill whose SKILL.md tells an agent how to
read this site (the API, its OpenAPI document, llms.txt, the markdown twins and forms). The index
gives the SHA-256 digest of the SKILL.md served; the build checks that the two agree
(portfolio/export/verify.py).
"""

import hashlib
import json
import re
from urllib.parse import urlsplit

from django.http import Http404, HttpResponse
from django.template.loader import render_to_string
from django.urls import reverse

from portfolio.content.models import Site

from .plain_text import oneline
from .twins import MARKDOWN

SCHEMA = "https://schemas.agentskills.io/discovery/0.2.0/schema.json"
INDEX_PATH = "/.well-known/agent-skills/index.json"
# Agent Skills names: lowercase letters, digits and single hyphens, at most 64 characters.
NAME_MAX = 64


def skill_name():
    """The skill's name: the site's host, as a name an agent can install beside other sites'
    (`example-com`)."""
    host = urlsplit(Site.load().base_url).hostname or ""
    name = re.sub(r"[^a-z0-9]+", "-", host.lower()).strip("-")[:NAME_MAX].strip("-")
    return name or "site"


def skill_names():
    """django-distill's parameters: the one skill."""
    yield skill_name()


def description():
    site = Site.load()
    text = (
        f"Read {oneline(site.title)} ({site.base_url}), the portfolio of {oneline(site.author)}: its "
        "projects, articles and stack through a read-only JSON API (/api/v1, described by /openapi.json), "
        "llms.txt, and a markdown form of every page. Use it to find, summarise or cite what the site "
        "publishes."
    )
    return text[:1024]


def skill_markdown(request):
    """The SKILL.md's text."""
    context = {"name": skill_name(), "description": description()}
    return render_to_string("pages/agent_skill.md", context, request=request)


def skill_file(request, name):
    if name != skill_name():
        raise Http404("No such skill")
    return HttpResponse(skill_markdown(request), content_type=MARKDOWN)


def index(request):
    name = skill_name()
    body = skill_markdown(request).encode()
    document = {
        "$schema": SCHEMA,
        "skills": [
            {
                "name": name,
                "type": "skill-md",
                "description": description(),
                "url": reverse("pages:agent-skill", args=[name]),
                "digest": "sha256:" + hashlib.sha256(body).hexdigest(),
            }
        ],
    }
    response = HttpResponse(json.dumps(document, indent=2) + "\n", content_type="application/json")
    response["Access-Control-Allow-Origin"] = "*"  # as the hosts' headers say (any agent's page may read it)
    return response
