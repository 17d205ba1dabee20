"""The contact form's routes on the authoring server. The two pages are frozen by the static
export; the POST handler is a plain path() and never is (it ships as the contact service)."""

from django.urls import path

from portfolio.shows import SITE, distill_path

from . import views

app_name = "contact"

urlpatterns = [
    distill_path("contact", views.contact_page, name="form", distill_file="contact.html", shows=SITE),
    distill_path(
        "contact/thanks", views.thanks_page, name="thanks", distill_file="contact/thanks.html", shows=SITE
    ),
    path("api/contact", views.contact_post, name="api"),
    path("api/contact/challenge", views.challenge_get, name="challenge"),
]
