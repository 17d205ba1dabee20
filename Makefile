# One command to write (make serve), one to test (make test). Both install what they need.
PYTHON ?= python3
VENV := .venv
PY := $(VENV)/bin/python

.PHONY: install system-deps serve test build lint format

$(VENV)/.installed: requirements.txt requirements-dev.txt
	$(PYTHON) -m venv $(VENV)
	$(PY) -m pip install --quiet --disable-pip-version-check -r requirements-dev.txt
	touch $@

install: $(VENV)/.installed

# Browser and Redis tests need Debian's chromium and redis-server. Installed when we are root
# with apt (CI, these machines); elsewhere those tests skip and say why.
system-deps:
	@if command -v chromium >/dev/null && command -v chromedriver >/dev/null && command -v redis-server >/dev/null; then :; \
	elif [ "$$(id -u)" = 0 ] && command -v apt-get >/dev/null; then \
		echo "Installing chromium, chromium-driver and redis-server from Debian's packages..."; \
		apt-get update -qq >/dev/null && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq \
			chromium chromium-driver redis-server >/dev/null; \
	else echo "note: chromium, chromedriver or redis-server is missing: their tests will be skipped"; fi

# The authoring server: migrates, imports content/ and re-imports what you edit.
serve: install
	DEBUG=$${DEBUG:-1} $(PY) manage.py runserver 127.0.0.1:8000

test: install system-deps
	$(PY) -m pytest

build: install
	$(PY) manage.py distill-local dist --force

lint: install
	$(VENV)/bin/ruff check .
	$(VENV)/bin/ruff format --check .

format: install
	$(VENV)/bin/ruff check --fix .
	$(VENV)/bin/ruff format .
