"""English dates as the site shows them (settings.FORMAT_MODULE_PATH): an item's date "5 May 2026",
a project card's "May 2026". What is not set here is Django's English format."""

DATE_FORMAT = "j F Y"
YEAR_MONTH_FORMAT = "M Y"
