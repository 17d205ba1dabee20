"""Who sent a request, for the rate limit and the record: an address the client cannot choose.

X-Forwarded-For is a list anyone can write; only the entries our own proxies appended are true.
CONTACT_TRUSTED_PROXIES says which those are (settings.py): a count of proxies (the entry the
outermost one appended; the service must then be reachable only through them), or a list of proxy
addresses and networks, read like nginx's `real_ip_recursive`: the header counts only when the
socket peer is a listed proxy, and then from the right, skipping listed proxies. Header and address
parsing is python-ipware's (django-ipware's engine): ports, brackets and IPv4-mapped IPv6 addresses.
"""

import ipaddress
from functools import lru_cache

from django.conf import settings
from django.core.exceptions import ImproperlyConfigured
from python_ipware.modern.parsers import parse_ip, split_proxy_chain, unwrap_ipv4_network

# IPv6 clients get a /64 each (one household or server network), not one per address.
IPV6_BUCKET_PREFIX = 64


@lru_cache
def trusted_networks(entries):
    """The networks of a CONTACT_TRUSTED_PROXIES list (a tuple of strings)."""
    networks = []
    for entry in entries:
        try:
            networks.append(unwrap_ipv4_network(ipaddress.ip_network(entry, strict=False)))
        except ValueError:
            raise ImproperlyConfigured(
                f"CONTACT_TRUSTED_PROXIES has {entry!r}, which is not an address or a network"
            ) from None
    return tuple(networks)


def client_ip(request):
    """The client's address (an ipaddress object, IPv4-mapped IPv6 as IPv4, no IPv6 zone), or None
    when the socket peer is not an address (a unix socket)."""
    ip = _client_ip(request)
    return type(ip)(int(ip)) if ip is not None else None


def _client_ip(request):
    peer = parse_ip(request.META.get("REMOTE_ADDR"))
    trusted = settings.CONTACT_TRUSTED_PROXIES
    if not trusted:
        return peer
    # Malformed entries are dropped: only the client can have written them, left of our proxies'.
    chain = split_proxy_chain(request.META.get("HTTP_X_FORWARDED_FOR", ""))
    if isinstance(trusted, int):
        # Fewer entries than proxies: the request skipped one; the peer is all we know.
        return chain[-trusted] if len(chain) >= trusted else peer
    networks = trusted_networks(tuple(trusted))
    hops = [peer, *reversed(chain)]  # nearest first
    for hop in hops:
        if hop is None or not any(hop.version == net.version and hop in net for net in networks):
            return hop
    return hops[-1]  # every hop is one of our proxies: the farthest is the client


def bucket(ip):
    """The rate-limit key of an address: the address itself, or its /64 for IPv6."""
    if ip is None:
        return "unknown"
    if ip.version == 6:
        return str(ipaddress.IPv6Network((int(ip), IPV6_BUCKET_PREFIX), strict=False))
    return str(ip)


def axes_client_ip(request):
    """django-axes's AXES_CLIENT_IP_CALLABLE: the client's address as a string, an IPv6 client's
    /64 as its first address (a locked-out client does not escape by changing the other 64 bits)."""
    ip = client_ip(request)
    if ip is not None and ip.version == 6:
        ip = ipaddress.IPv6Network((int(ip), IPV6_BUCKET_PREFIX), strict=False).network_address
    return str(ip) if ip is not None else None
