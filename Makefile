# One command to write (make serve), one to test (make test). Both install what they need.
PYTHON ?= python3
VENV := .venv
PY := $(VENV)/bin/python
PORT ?= 8000

.PHONY: install install-site install-contact system-deps host-tools serve test build preview bench lint format messages

# Layers: what the site needs (serve, build, preview), the production contact service's
# (gunicorn, PostgreSQL, Redis) on top, and the test toolchain on top of both (test, lint, bench),
# so the first page does not wait for selenium, schemathesis and ruff.
$(VENV)/.site-installed: requirements.txt
	test -x $(PY) || $(PYTHON) -m venv $(VENV)
	$(PY) -m pip install --quiet --disable-pip-version-check -r requirements.txt
	touch $@

$(VENV)/.contact-installed: $(VENV)/.site-installed requirements-contact.txt
	$(PY) -m pip install --quiet --disable-pip-version-check -r requirements-contact.txt
	touch $@

$(VENV)/.installed: $(VENV)/.contact-installed requirements-dev.txt
	$(PY) -m pip install --quiet --disable-pip-version-check -r requirements-dev.txt
	touch $@

install-site: $(VENV)/.site-installed
install-contact: $(VENV)/.contact-installed
install: $(VENV)/.installed

# Browser, Redis, nginx and PostgreSQL tests need Debian's chromium, redis-server, nginx and
# postgresql (its server programs live in /usr/lib/postgresql/<version>/bin, off PATH; the tests
# start their own temporary cluster, never the system service). Installed when we are root with
# apt (CI, these machines); elsewhere those tests skip and say why.
system-deps:
	@if command -v chromium >/dev/null && command -v chromedriver >/dev/null && command -v redis-server >/dev/null \
		&& command -v nginx >/dev/null && ls /usr/lib/postgresql/*/bin/initdb >/dev/null 2>&1; then :; \
	elif [ "$$(id -u)" = 0 ] && command -v apt-get >/dev/null; then \
		echo "Installing chromium, chromium-driver, redis-server, nginx and postgresql from Debian's packages..."; \
		apt-get update -qq >/dev/null && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq \
			chromium chromium-driver redis-server nginx postgresql >/dev/null; \
	else echo "note: chromium, chromedriver, redis-server, nginx or postgresql is missing: their tests will be skipped"; fi

# The static hosts' own tools (wrangler, Netlify's parsers) and axe-core, pinned in tests/hosts/package.json.
tests/hosts/node_modules/.installed: tests/hosts/package.json tests/hosts/package-lock.json
	@if command -v npm >/dev/null; then \
		npm ci --prefix tests/hosts --no-audit --no-fund --loglevel=error && touch $@; \
	else echo "note: npm is missing: the static-host tests will be skipped"; fi

host-tools: tests/hosts/node_modules/.installed

# The authoring server: migrates, imports content/, re-imports what you edit and reloads the open
# page (SHOW_DRAFTS=1 make serve renders drafts too, with a banner).
serve: install-site
	DEBUG=$${DEBUG:-1} $(PY) manage.py runserver 127.0.0.1:$(PORT)

test: install system-deps host-tools
	$(PY) -m pytest

build: install-site
	$(PY) manage.py distill-local dist $(BUILD_ARGS)

# dist/ as Cloudflare Pages serves it, contact form included. The build is incremental: when
# nothing changed it only checks ("Up to date").
preview: install-site
	$(PY) manage.py distill-local dist --quiet
	$(PY) manage.py preview dist --port 8001

# The build benchmark of bench/README.md: S content and 3 runs unless BENCH_ARGS says otherwise,
# e.g. make bench BENCH_ARGS="--size L --runs 3". Prints a table; missed targets do not fail it.
bench: install
	$(PY) bench/run.py $(BENCH_ARGS)

lint: install
	$(VENV)/bin/ruff check .
	$(VENV)/bin/ruff format --check .

# The catalogs of the site's words (docs/languages.md): every locale/*/LC_MESSAGES/django.po
# updated from the templates and the code, then compiled into its django.mo (GNU gettext's
# msgfmt). Only after changing a word: the .po and .mo files are committed, a build needs neither.
messages: install-site
	$(PY) tools/messages.py

format: install
	$(VENV)/bin/ruff check --fix .
	$(VENV)/bin/ruff format .
