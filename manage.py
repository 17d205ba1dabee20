#!/usr/bin/env python
"""Django's command-line utility for administrative tasks."""

import gc
import logging
import os
import sys


def main():
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "portfolio.settings")
    from portfolio.export import early, quick

    # A build that may import early (its folder's lock taken): the no-change check runs in a
    # child while Django starts here. Otherwise the check runs first, here (a rebuild with
    # nothing to do needs no Django).
    held = early.locked(sys.argv)
    checked = early.check(sys.argv) if held else None
    if not held and quick.main(sys.argv):
        return
    from django.core.management import execute_from_command_line

    if sys.argv[1:2] != ["distill-local"]:
        execute_from_command_line(sys.argv)
        return
    # Starting Django and importing the build's libraries makes about 170,000 objects that live
    # as long as the build: collecting garbage meanwhile only walks them again and again. The
    # command freezes them and turns collection back on when it starts (its handle()).
    gc.disable()
    # DRF imports PostgreSQL's model fields when psycopg is installed (the contact service's
    # driver), which imports psycopg: 70 ms of every build's start for fields no model uses.
    # Marked missing, DRF goes on without them, as it does where psycopg is not installed.
    sys.modules.setdefault("django.contrib.postgres.fields", None)
    if held:
        summary = early.start(held, checked)  # the import, on the other core while Django starts
        if summary:
            sys.stdout.write(summary + "\n")
            sys.stdout.flush()
            os._exit(0)
    # A build ends with a large heap, and Python's teardown of it took 0.4 s, longer than a
    # small build: once the command is done, flush and leave without it.
    try:
        execute_from_command_line(sys.argv)
        status = 0
    except SystemExit as exc:
        status = exc.code if isinstance(exc.code, int) else 0 if exc.code is None else 1
        if isinstance(exc.code, str):
            sys.stderr.write(exc.code + "\n")
    logging.shutdown()
    sys.stdout.flush()
    sys.stderr.flush()
    os._exit(status)


if __name__ == "__main__":
    main()
