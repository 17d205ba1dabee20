"""The contact paths, spelled once. The production service's urlconf has no page routes to
reverse(), yet its redirects and error pages must point at the site's pages."""

FORM_PATH = "/contact"
THANKS_PATH = "/contact/thanks"
POST_PATH = "/api/contact"
CHALLENGE_PATH = "/api/contact/challenge"
