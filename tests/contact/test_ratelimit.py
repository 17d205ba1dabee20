"""The per-client rate limit: CONTACT_RATE, 429 with Retry-After, the client address."""

import pytest
from django.core.exceptions import ImproperlyConfigured

from contact import ratelimit
from contact.models import ContactMessage
from contact.ratelimit import Rate, parse_rate

from .helpers import BROWSER_ACCEPT, assert_error, numbered

pytestmark = pytest.mark.django_db


class Clock:
    """A clock that moves only when the test moves it (for ratelimit.wall_clock, pause_clock)."""

    def __init__(self, now):
        self.now = now

    def __call__(self):
        return self.now


@pytest.mark.parametrize(
    "text, rate",
    [
        ("5/10m", Rate(5, 600)),
        ("3/1m", Rate(3, 60)),
        ("100/h", Rate(100, 3600)),
        ("2/30s", Rate(2, 30)),
        ("1/d", Rate(1, 86400)),
        (" 7 / 2h ", Rate(7, 7200)),
    ],
)
def test_parse_rate(text, rate):
    assert parse_rate(text) == rate


@pytest.mark.parametrize("text", ["", "5", "5/", "5/10", "5/10w", "0/m", "5/0m", "-1/m", "five/m", "5/m/h"])
def test_bad_rates_are_refused(text):
    with pytest.raises(ImproperlyConfigured, match="CONTACT_RATE"):
        parse_rate(text)


def test_a_bad_rate_fails_the_system_check(settings):
    from django.core.management import call_command
    from django.core.management.base import SystemCheckError

    settings.CONTACT_RATE = "5 per minute"
    with pytest.raises(SystemCheckError, match="contact.E001"):
        call_command("check")


def test_past_the_limit_429_with_retry_after(post, settings):
    settings.CONTACT_RATE = "3/10m"
    assert [post(numbered(n)).status_code for n in range(3)] == [201, 201, 201]
    response = post(numbered(3))
    error = assert_error(response, 429, "rate_limited")
    retry_after = int(response["Retry-After"])
    assert 1 <= retry_after <= 600
    assert str(retry_after) in error["message"]
    assert ContactMessage.objects.count() == 3


def test_every_allowed_attempt_counts_even_invalid_ones(post, settings):
    settings.CONTACT_RATE = "2/m"
    assert post({}).status_code == 400
    assert post(numbered(1)).status_code == 201
    assert post(numbered(2)).status_code == 429


def test_forbidden_origins_are_not_counted(post, settings):
    settings.CONTACT_RATE = "1/m"
    for _ in range(3):
        assert post(origin="https://evil.test").status_code == 403
    assert post().status_code == 201


def test_429_is_an_html_page_for_a_browser(post, settings):
    settings.CONTACT_RATE = "1/m"
    post()
    response = post(as_json=False, headers={"Accept": BROWSER_ACCEPT})
    assert response.status_code == 429
    assert response["Retry-After"]
    assert "Too many messages" in response.content.decode()


def test_the_window_ends(post, settings, monkeypatch):
    settings.CONTACT_RATE = "1/1s"
    clock = Clock(1_000_000.5)  # half-way through a one-second window
    monkeypatch.setattr(ratelimit, "wall_clock", clock)
    assert post(numbered(1)).status_code == 201
    response = post(numbered(2))
    assert response.status_code == 429
    assert response["Retry-After"] == "1"
    clock.now = 1_000_000.999
    assert post(numbered(3)).status_code == 429, "the same window"
    clock.now = 1_000_001.0
    assert post(numbered(4)).status_code == 201, "the next window"


def test_each_client_address_has_its_own_count(post, settings):
    settings.CONTACT_RATE = "1/m"
    assert post(numbered(1), REMOTE_ADDR="192.0.2.1").status_code == 201
    assert post(numbered(2), REMOTE_ADDR="192.0.2.1").status_code == 429
    assert post(numbered(3), REMOTE_ADDR="192.0.2.2").status_code == 201


def test_ipv6_clients_share_one_count_per_64_and_mapped_ipv4_is_ipv4(post, settings):
    settings.CONTACT_RATE = "1/m"
    assert post(numbered(1), REMOTE_ADDR="2001:db8:1:2::1").status_code == 201
    assert post(numbered(2), REMOTE_ADDR="2001:db8:1:2:ffff::9").status_code == 429  # same /64
    assert post(numbered(3), REMOTE_ADDR="2001:db8:1:3::1").status_code == 201  # the next /64
    assert post(numbered(4), REMOTE_ADDR="192.0.2.7").status_code == 201
    assert post(numbered(5), REMOTE_ADDR="::ffff:192.0.2.7").status_code == 429
    stored = set(ContactMessage.objects.values_list("client_address", flat=True))
    assert stored == {"2001:db8:1:2::1", "2001:db8:1:3::1", "192.0.2.7"}


def test_x_forwarded_for_is_ignored_without_trusted_proxies(post, settings):
    settings.CONTACT_RATE = "1/m"
    assert post(numbered(1), headers={"X-Forwarded-For": "198.51.100.1"}).status_code == 201
    assert post(numbered(2), headers={"X-Forwarded-For": "198.51.100.2"}).status_code == 429
    assert ContactMessage.objects.get().client_address == "127.0.0.1"


def test_a_count_of_trusted_proxies_takes_the_entry_the_outermost_appended(post, settings):
    settings.CONTACT_RATE = "1/m"
    settings.CONTACT_TRUSTED_PROXIES = 1
    # The client may put anything on the left; the entry our one proxy appended is the last.
    assert post(numbered(1), headers={"X-Forwarded-For": "203.0.113.9, 198.51.100.1"}).status_code == 201
    assert post(numbered(2), headers={"X-Forwarded-For": "203.0.113.10, 198.51.100.1"}).status_code == 429
    assert post(numbered(3), headers={"X-Forwarded-For": "[2001:db8::1]:443"}).status_code == 201
    assert set(ContactMessage.objects.values_list("client_address", flat=True)) == {
        "198.51.100.1",
        "2001:db8::1",
    }


def test_two_trusted_proxies(post, settings):
    settings.CONTACT_RATE = "1/m"
    settings.CONTACT_TRUSTED_PROXIES = 2
    assert (
        post(numbered(1), headers={"X-Forwarded-For": "6.6.6.6, 198.51.100.1, 10.0.0.1"}).status_code == 201
    )
    assert post(numbered(2), headers={"X-Forwarded-For": "198.51.100.1, 10.0.0.2"}).status_code == 429
    # Fewer entries than trusted proxies: the request skipped a proxy; the socket peer counts.
    assert post(numbered(3), headers={"X-Forwarded-For": "198.51.100.3"}).status_code == 201
    assert post(numbered(4), headers={"X-Forwarded-For": "not-an-ip, 10.0.0.1"}).status_code == 429


@pytest.mark.parametrize(
    "peer, forwarded_for, expected",
    [
        # The peer is not a listed proxy: whatever the header says, the peer is the client.
        ("198.51.100.7", "203.0.113.1", "198.51.100.7"),
        # A listed proxy: the header from the right, skipping listed proxies.
        ("10.1.2.3", "203.0.113.1", "203.0.113.1"),
        ("10.1.2.3", "6.6.6.6, 203.0.113.1, 10.9.9.9, 127.0.0.1", "203.0.113.1"),
        ("::1", "203.0.113.1", "203.0.113.1"),
        ("::ffff:10.0.0.5", "203.0.113.1", "203.0.113.1"),  # a listed proxy, IPv4-mapped
        ("10.1.2.3", "::ffff:203.0.113.1", "203.0.113.1"),
        ("10.1.2.3", "fe80::1%eth0", "fe80::1"),  # stored without its zone
        # Only proxies: the farthest one is the client.
        ("10.1.2.3", "10.0.0.9", "10.0.0.9"),
        ("10.1.2.3", "", "10.1.2.3"),
        # The client's own junk is dropped; the next entry to its left is never reached.
        ("10.1.2.3", "6.6.6.6, junk", "6.6.6.6"),
    ],
)
def test_a_list_of_trusted_proxies_reads_the_header_only_from_them(
    post, settings, peer, forwarded_for, expected
):
    settings.CONTACT_TRUSTED_PROXIES = ["10.0.0.0/8", "127.0.0.1", "::1"]
    headers = {"X-Forwarded-For": forwarded_for} if forwarded_for else {}
    assert post(REMOTE_ADDR=peer, headers=headers).status_code == 201
    assert ContactMessage.objects.get().client_address == expected


def test_a_bad_trusted_proxy_fails_the_system_check(settings):
    from django.core.management import call_command
    from django.core.management.base import SystemCheckError

    settings.CONTACT_TRUSTED_PROXIES = ["10.0.0.0/8", "10.0.0.300"]
    with pytest.raises(SystemCheckError, match="contact.E003.*10.0.0.300"):
        call_command("check")


def test_an_unreachable_redis_lets_messages_through_and_logs(post, settings, caplog, monkeypatch):
    from .servers import free_port

    settings.CONTACT_RATE = "1/m"
    settings.CACHES = {
        "default": {
            "BACKEND": "django.core.cache.backends.redis.RedisCache",
            "LOCATION": f"redis://127.0.0.1:{free_port()}/0",
            "OPTIONS": {"socket_connect_timeout": 1, "socket_timeout": 1},
        }
    }
    clock = Clock(100.0)
    monkeypatch.setattr(ratelimit, "pause_clock", clock)
    failed = "The contact cache failed: no rate limit"
    assert [post(numbered(n)).status_code for n in range(2)] == [201, 201]
    assert ContactMessage.objects.count() == 2
    # Logged once; the cache is left alone for a while rather than tried (and waited for) again.
    assert caplog.text.count(failed) == 1
    clock.now = 100.0 + ratelimit.CACHE_PAUSE_SECONDS - 0.001
    assert post(numbered(2)).status_code == 201
    assert caplog.text.count(failed) == 1, "still left alone at the end of the pause"
    clock.now = 100.0 + ratelimit.CACHE_PAUSE_SECONDS
    assert post(numbered(3)).status_code == 201
    assert caplog.text.count(failed) == 2, "tried again (and failed again) after the pause"
    assert ContactMessage.objects.count() == 4
