"""The /contact form in headless Chromium on a live server, with and without JavaScript: with it,
the page proves its work (the challenge, solved in a worker) before it sends."""

import json

import altcha
import pytest
from django.core import mail
from selenium.webdriver.common.by import By
from selenium.webdriver.support.ui import WebDriverWait

from contact.models import ContactMessage, UsedChallenge

from ..browser import console_errors
from .helpers import delivered
from .receiver import receiver

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


@pytest.fixture
def site(live_server, settings, imported):
    """The live server is the site: its origin is the one the contact route allows."""
    settings.SITE_URL = live_server.url
    return live_server.url


def fill(driver, name="Ada Lovelace", email="ada@example.com", message="Hello from Chromium"):
    driver.find_element(By.ID, "contact-name").send_keys(name)
    driver.find_element(By.ID, "contact-email").send_keys(email)
    driver.find_element(By.ID, "contact-message").send_keys(message)
    driver.find_element(By.CSS_SELECTOR, "main button[type=submit]").click()


def test_without_javascript_the_form_posts_and_lands_on_the_thanks_page(chromium, site):
    driver = chromium(javascript=False)
    driver.get(f"{site}/contact")
    assert "kept with the spam for review" in driver.find_element(By.TAG_NAME, "main").text
    fill(driver)
    WebDriverWait(driver, 10).until(lambda d: d.current_url == f"{site}/contact/thanks")
    assert "Your message was sent" in driver.find_element(By.TAG_NAME, "main").text
    message = ContactMessage.objects.get()
    assert (message.name, message.origin) == ("Ada Lovelace", site)
    # Nothing proved it was not a robot: kept with the spam for the owner's review, not mailed.
    assert (message.status, message.spam_reason) == ("spam", "missing")
    assert not mail.outbox


@pytest.fixture
def hook(settings):
    with receiver() as hook:
        settings.CONTACT_WEBHOOK_URL, settings.CONTACT_WEBHOOK_SECRET = hook.url, "secret"
        yield hook


def test_with_javascript_the_form_answers_in_place(chromium, site, hook):
    driver = chromium(javascript=True)
    driver.get(f"{site}/contact")
    status = driver.find_element(By.CSS_SELECTOR, "[data-status]")
    # Every state the status line shows, in order.
    driver.execute_script(
        "const status = document.querySelector('[data-status]'); window.states = [];"
        "new MutationObserver(() => window.states.push(status.getAttribute('data-state')))"
        ".observe(status, {attributes: true, attributeFilter: ['data-state']});"
    )
    # Record the button's disabled state and the form's aria-busy (the spinner) at every change,
    # to see the sending state while the post is under way.
    driver.execute_script(
        "const button = document.querySelector('main button[type=submit]'); window.buttonStates = [];"
        "new MutationObserver(() => window.buttonStates.push(button.disabled))"
        ".observe(button, {attributes: true, attributeFilter: ['disabled']});"
        "const form = button.form; window.busyStates = [];"
        "new MutationObserver(() => window.busyStates.push(form.getAttribute('aria-busy')))"
        ".observe(form, {attributes: true, attributeFilter: ['aria-busy']});"
    )

    # "a@b" passes the browser's own check of type=email but not the server's: an inline error.
    fill(driver, email="a@b")
    WebDriverWait(driver, 10).until(lambda d: "not sent" in status.text)
    email_input = driver.find_element(By.ID, "contact-email")
    assert email_input.get_attribute("aria-invalid") == "true"
    assert driver.find_element(By.ID, "contact-email-error").text == "Enter a valid email address."
    assert driver.switch_to.active_element == email_input
    assert status.get_attribute("data-state") == "error"
    assert not ContactMessage.objects.exists()

    email_input.clear()
    email_input.send_keys("ada@example.com")
    # Editing the field clears its error at once.
    assert driver.find_element(By.ID, "contact-email-error").text == ""
    assert email_input.get_attribute("aria-invalid") is None
    driver.find_element(By.CSS_SELECTOR, "main button[type=submit]").click()
    WebDriverWait(driver, 10).until(lambda d: "message was sent" in status.text)
    assert driver.current_url == f"{site}/contact"  # no navigation
    assert email_input.get_attribute("aria-invalid") is None
    assert driver.find_element(By.ID, "contact-email-error").text == ""
    assert driver.find_element(By.ID, "contact-name").get_attribute("value") == ""  # the form was reset
    assert driver.execute_script("return window.buttonStates") == [True, False, True, False]
    assert driver.execute_script("return window.busyStates") == ["true", None, "true", None]
    assert status.get_attribute("data-state") == "sent"
    assert driver.execute_script("return window.states") == [
        "verifying", "sending", "error", "verifying", "sending", "sent"
    ]  # fmt: skip
    delivered()  # the mail and the webhook go after the answer
    message = ContactMessage.objects.get()
    assert (message.email, message.status) == ("ada@example.com", "ham")
    # Only the second submit spent its solution: the first one's was refused (400) before it was read.
    assert UsedChallenge.objects.count() == 1
    assert len(mail.outbox) == 1
    assert [json.loads(body)["id"] for _, body, _ in hook.posts] == [message.pk]
    # The only console error is the browser's own note of the 400 answer to the invalid email.
    errors = console_errors(driver)
    assert len(errors) == 1 and "status of 400" in errors[0]["message"], errors


def test_when_the_proof_fails_the_message_is_sent_all_the_same_and_waits_for_review(chromium, site):
    driver = chromium(javascript=True)
    # The challenge never comes (a network that drops it): the browser itself refuses the request.
    driver.execute_cdp_cmd("Network.enable", {})
    driver.execute_cdp_cmd("Network.setBlockedURLs", {"urls": ["*/api/contact/challenge*"]})
    driver.get(f"{site}/contact")
    fill(driver, message="Typed with care")
    status = driver.find_element(By.CSS_SELECTOR, "[data-status]")
    WebDriverWait(driver, 10).until(lambda d: status.get_attribute("data-state") == "sent")
    assert "waits for review" in status.text
    message = ContactMessage.objects.get()
    assert (message.message, message.status, message.spam_reason) == ("Typed with care", "spam", "missing")
    assert not mail.outbox


def test_the_solver_hashes_as_python_does_for_salts_of_every_length(chromium, site):
    """solver.js computes SHA-256 itself: around the block boundaries (55, 56, 64 bytes and on)
    it must find the same number as hashlib."""
    driver = chromium(javascript=True)
    driver.get(f"{site}/contact")
    solve_in_page = """
        const done = arguments[1];
        const worker = new Worker(document.querySelector('[data-contact-form]').dataset.solver);
        worker.onmessage = (event) => done(event.data.number);
        worker.postMessage(arguments[0]);
    """
    for length in (1, 40, 50, 51, 52, 56, 60, 64, 100, 119, 120, 180):
        number = 1234 + length
        salt = ("s" * length)[: length - 1] + "&"
        made = altcha.create_challenge_v1(hmac_key="k", salt=salt, number=number, max_number=2000)
        assert len(made.salt) == length
        task = {"challenge": made.challenge, "salt": made.salt, "maxnumber": 2000}
        assert driver.execute_async_script(solve_in_page, task) == number, length
    none = {"challenge": "0" * 64, "salt": "x&", "maxnumber": 50}
    assert driver.execute_async_script(solve_in_page, none) is None
