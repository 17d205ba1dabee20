from django import template

from pages.plain_text import link_text, oneline

register = template.Library()
register.filter(oneline)
register.filter(link_text)
