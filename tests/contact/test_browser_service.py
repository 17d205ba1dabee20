"""The whole path as deployed, in headless Chromium: the built site served by nginx with
deploy/nginx.conf (its Content-Security-Policy), which routes /api/contact* to the contact
service (as a Cloudflare Worker route does) behind deploy/contact-nginx.conf, gunicorn's 2 workers,
PostgreSQL and Redis. The form proves its work at the default difficulty, and the message arrives
once by mail and once by webhook."""

import hashlib
import hmac
import json
import subprocess
import time

import pytest
from django.conf import settings
from selenium.webdriver.common.by import By
from selenium.webdriver.support.ui import WebDriverWait

from tests.browser import console_errors
from tests.server import free_port, nginx_command, wait_for

from .helpers import SERVICE_TIMINGS
from .receiver import receiver
from .servers import gunicorn, nginx, redis_server, stop
from .test_service import Service, start_service

pytestmark = [pytest.mark.browser, SERVICE_TIMINGS]

SECRET = "the receiver's shared secret"

# Runs before any script of the page (DevTools protocol; the page's CSP does not apply to it).
RECORD = """
window.cspViolations = [];
document.addEventListener("securitypolicyviolation", (event) => {
  window.cspViolations.push(`${event.violatedDirective} ${event.blockedURI}`);
});
"""


def serve_site(site, port, edge_port, folder):
    """deploy/nginx.conf on `port`, plus the route of /api/contact* to the contact edge."""
    server = (settings.BASE_DIR / "deploy" / "nginx.conf").read_text()
    route = (
        f"location /api/contact {{ proxy_pass https://127.0.0.1:{edge_port}; proxy_ssl_verify off; }}\n"
        "    location / {"
    )
    assert server.count("    location / {") == 1
    server = (
        server.replace("listen 8080;", f"listen 127.0.0.1:{port};")
        .replace("/srv/portfolio/dist", str(site))
        .replace("    location / {", "    " + route)
    )
    return nginx_command(folder, server)


def test_the_built_form_reaches_the_production_service(built_site, tmp_path, chromium, shared_postgres):
    site_port = free_port()
    site_origin = f"http://127.0.0.1:{site_port}"
    with (
        redis_server(tmp_path) as redis_url,
        receiver() as hook,
    ):
        env = start_service(
            tmp_path,
            redis_url,
            shared_postgres.create_database(),
            CONTACT_ALLOWED_ORIGINS=site_origin,
            CONTACT_WEBHOOK_URL=hook.url,
            CONTACT_WEBHOOK_SECRET=SECRET,
            CONTACT_CHALLENGE_MAXNUMBER="",  # the default difficulty, as deployed
        )
        with gunicorn(env, tmp_path, workers=2) as port, nginx(port, tmp_path) as edge:
            folder = tmp_path / "site-nginx"
            folder.mkdir()
            command = serve_site(built_site, site_port, edge.port, folder)
            process = subprocess.Popen(command, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
            try:
                wait_for(f"{site_origin}/", process, timeout=20)
                send_and_check(chromium, site_origin, Service(port, env, tmp_path), hook)
            finally:
                stop(process)


def send_and_check(chromium, site_origin, service, hook):
    """Send the form in Chromium; check the states it showed and what arrived where."""
    driver = chromium()
    driver.execute_cdp_cmd("Page.addScriptToEvaluateOnNewDocument", {"source": RECORD})
    driver.get(f"{site_origin}/contact")
    driver.execute_script(
        "const status = document.querySelector('[data-status]'); window.states = [];"
        "new MutationObserver(() => window.states.push([status.getAttribute('data-state'),"
        " performance.now()])).observe(status, {attributes: true, attributeFilter: ['data-state']});"
    )
    driver.find_element(By.ID, "contact-name").send_keys("Ada Lovelace")
    driver.find_element(By.ID, "contact-email").send_keys("ada@example.com")
    driver.find_element(By.ID, "contact-message").send_keys("Through every layer.")
    started = time.monotonic()
    driver.find_element(By.CSS_SELECTOR, "main button[type=submit]").click()
    status = driver.find_element(By.CSS_SELECTOR, "[data-status]")
    WebDriverWait(driver, 30).until(lambda d: status.get_attribute("data-state") in ("sent", "error"))
    elapsed = time.monotonic() - started
    assert status.text == "Thank you: your message was sent.", status.text
    states = driver.execute_script("return window.states")
    assert [state for state, _ in states] == ["verifying", "sending", "sent"]
    verifying = states[1][1] - states[0][1]
    print(f"default difficulty: verifying took {verifying / 1000:.2f} s, the whole send {elapsed:.2f} s")
    assert driver.execute_script("return window.cspViolations") == []
    assert console_errors(driver) == []

    assert service.rows("select name, status from contact_contactmessage") == [("Ada Lovelace", "ham")]
    service.delivered("Ada Lovelace")  # after the answer, by the worker's delivery thread
    assert len(service.mails("Through every layer.")) == 1
    [(headers, body, _)] = hook.posts
    expected = "sha256=" + hmac.new(SECRET.encode(), body, hashlib.sha256).hexdigest()
    assert headers["X-Signature-256"] == expected
    assert json.loads(body)["message"] == "Through every layer."
