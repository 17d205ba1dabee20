"""The /contact form in headless Chromium on a live server, with and without JavaScript."""

import pytest
from django.core import mail
from selenium.webdriver.common.by import By
from selenium.webdriver.support.ui import WebDriverWait

from contact.models import ContactMessage

from ..browser import console_errors

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
    fill(driver)
    WebDriverWait(driver, 10).until(lambda d: d.current_url == f"{site}/contact/thanks")
    assert "Your message was sent" in driver.find_element(By.TAG_NAME, "main").text
    message = ContactMessage.objects.get()
    assert (message.name, message.origin) == ("Ada Lovelace", site)
    assert len(mail.outbox) == 1


def test_with_javascript_the_form_answers_in_place(chromium, site):
    driver = chromium(javascript=True)
    driver.get(f"{site}/contact")
    status = driver.find_element(By.CSS_SELECTOR, "[data-status]")
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
    assert ContactMessage.objects.get().email == "ada@example.com"
    assert len(mail.outbox) == 1
    # The only console error is the browser's own note of the 400 answer to the invalid email.
    errors = console_errors(driver)
    assert len(errors) == 1 and "status of 400" in errors[0]["message"], errors
