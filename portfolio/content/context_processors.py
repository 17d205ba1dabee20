from .models import Site


def site(request):
    """`site` (the identity from site.yaml) and `base_url` (SITE_URL or site.yaml's url) for
    every template. Absolute URLs come from base_url, never from the request."""
    try:
        site = Site.load()
    except Site.DoesNotExist:  # the admin works before the first import too
        site = None
    return {"site": site, "base_url": site.base_url if site else ""}
