from django import forms

# The honeypot's name: a field people never see and bots happily fill in.
HONEYPOT = "website"


class ContactForm(forms.Form):
    name = forms.CharField(max_length=200)
    email = forms.EmailField(max_length=254)
    message = forms.CharField(max_length=5000)
