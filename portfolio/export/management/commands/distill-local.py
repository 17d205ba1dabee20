"""`manage.py distill-local DIR`: the whole static site, built, verified and put in place.

Replaces django-distill's command of the same name (this app is listed before django_distill):
django-distill's renders every URL again and writes into DIR as it goes, so a failed build leaves
a broken folder. django-distill still supplies every URL and file name (its `distill_path`
registry); the build is portfolio/export/build.py.
"""

import io
from pathlib import Path

from django.core.management.base import BaseCommand, CommandError

from portfolio.caches import sweep
from portfolio.content.rules import ContentInvalid
from portfolio.export.build import build
from portfolio.export.state import BuildFailed
from portfolio.interrupts import Interrupted, interruptible


class Command(BaseCommand):
    help = (
        "Import the content folder and freeze every URL of the site into DIR: rendered into a "
        "temporary folder, verified, then swapped in. A failed build leaves DIR as it was."
    )

    def add_arguments(self, parser):
        parser.add_argument("output_dir", nargs="?", default="dist", type=Path, help="Default: dist")
        parser.add_argument(
            "--force", action="store_true", help="Replace DIR even if it is not a previous build."
        )
        parser.add_argument(
            "--full", action="store_true", help="Render every URL instead of only what changed."
        )
        parser.add_argument("--workers", type=int, help="Render processes (default: one per core).")
        parser.add_argument("--quiet", action="store_true", help="No progress line.")
        parser.add_argument(
            "--wait",
            action="store_true",
            help="If another build of DIR is running, wait for it instead of failing at once.",
        )
        parser.add_argument(
            "--gc",
            action="store_true",
            help="After the build, remove from .cache/ what the site no longer uses (old rendered "
            "bodies, image variants and cards), as Hugo's --gc does.",
        )
        # django-distill's own options, accepted so that its usual command lines keep working.
        parser.add_argument(
            "--parallel-render", type=int, dest="workers", help="Same as --workers (processes, not threads)."
        )
        for flag in ("--collectstatic", "--exclude-staticfiles", "--generate-redirects"):
            parser.add_argument(
                flag,
                action="store_true",
                help="Accepted and ignored: static assets and _redirects are always built.",
            )
        parser.add_argument(
            "--debug",
            action="store_true",
            help="Accepted and ignored: the site is always rendered with DEBUG off.",
        )

    def handle(self, *args, output_dir, force, full, workers, quiet, wait, gc, **options):
        progress = io.StringIO() if quiet else self.stderr
        result = None
        try:
            with interruptible():
                result = build(
                    output_dir, full=full, force=force, workers=workers, wait=wait, stderr=progress
                )
                self.stdout.write(result.summary())
                if gc:
                    removed, size = sweep()
                    self.stdout.write(
                        f"Removed {removed} unused cache files ({size / 1e6:.1f} MB) from .cache/"
                    )
        except Interrupted as exc:
            if result is None:
                message = f"the build stopped and {output_dir} was left as it was."
            else:
                message = f"{output_dir} is built; the unused cache files left go with the next --gc."
            raise CommandError(f"Interrupted by {exc}: {message}", returncode=128 + exc.signum) from None
        except ContentInvalid as exc:
            for error in exc.errors:
                self.stderr.write(str(error))
            raise CommandError(
                f"{len(exc.errors)} problem(s) in the content folder; nothing was built."
            ) from None
        except BuildFailed as exc:
            problems = exc.problems
            for problem in problems:
                self.stderr.write(problem)
            raise CommandError(
                f"The build failed ({len(problems)} problem(s)); {output_dir} was left as it was."
            ) from None
