"""The headers a static host sends for a path, worked out from the `_headers` rules the build
writes (portfolio/export/hosts.py): what the tests hold the hosts' own tools and servers to."""

from portfolio.export.hosts import header_rules, rule_pattern


def headers_for(path, rules=None, *, netlify=False):
    """{lowercase name: [values]} of the `_headers` rules matching URL `path`, as Cloudflare
    matches them (all rules apply in order; a splat `*` matches anything, a placeholder one
    segment and fills the same placeholder in a value; `! Name` removes what earlier rules set).
    `netlify`: as Netlify applies them, which neither fills a value's placeholders nor knows
    `! Name` (docs/hosting.md says what that leaves)."""
    found = {}
    for pattern, headers in rules or header_rules():
        match = rule_pattern(pattern).fullmatch(path)
        if match:
            for header in headers:
                if header.startswith("! "):
                    if not netlify:
                        found.pop(header[2:].lower(), None)
                    continue
                name, value = header.split(": ", 1)
                for placeholder, filled in match.groupdict().items() if not netlify else ():
                    value = value.replace(f":{placeholder}", filled)
                found.setdefault(name.lower(), []).append(value)
    return found
