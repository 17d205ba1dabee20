import sys
from pathlib import Path

from django.core.management.base import BaseCommand, CommandError

from portfolio.interrupts import Interrupted, interruptible, raise_if_interrupted, signals_held
from portfolio.movein.convert import GENERATORS, Move
from portfolio.movein.posts import NotASite
from portfolio.movein.writer import MoveRunning, SiteUnreadable, move_lock, site_files, write
from portfolio.progress import Progress


class Command(BaseCommand):
    help = (
        "Move an Astro, Hugo or Jekyll blog into a content folder: every post becomes "
        "articles/<slug>.md, its old addresses kept as aliases, its images copied to media/. "
        "A file that cannot be read stops the move and DEST is left as it was (docs/moving-in.md)."
    )

    def add_arguments(self, parser):
        parser.add_argument(
            "generator", choices=sorted(GENERATORS), help="The generator SOURCE is a site of."
        )
        parser.add_argument("source", type=Path, help="The old site's folder (its repository).")
        parser.add_argument(
            "--into", type=Path, required=True, dest="dest", metavar="DEST",
            help="The content folder: created when missing, added to when it exists.",
        )  # fmt: skip

    def handle(self, *args, generator, source, dest, **options):
        if not source.is_dir():
            raise CommandError(f"{source}: no such folder")
        if dest.is_symlink() and not dest.exists():
            raise CommandError(f"{dest}: a symbolic link to nothing; nothing was written")
        if dest.exists() and not dest.is_dir():
            raise CommandError(f"{dest}: not a folder")
        self.written = False
        try:
            with interruptible(), move_lock(dest):
                self.move(generator, source, dest)
        except MoveRunning as exc:
            raise CommandError(str(exc)) from None
        except Interrupted as exc:
            done = f"{dest} was written whole" if self.written else f"nothing was written to {dest}"
            raise CommandError(f"Interrupted by {exc}: {done}", returncode=128 + exc.signum) from None
        except RecursionError:
            raise CommandError(
                f"a file of {source} is nested too deep to read; nothing was written"
            ) from None
        except OSError as exc:
            raise CommandError(f"{exc.filename or dest}: {exc.strerror or exc}: the move stopped") from None

    def move(self, generator, source, dest):
        try:
            move = Move(generator, source, dest)
        except NotASite as exc:
            raise CommandError(str(exc)) from None
        plan = move.plan(progress=Progress(sys.stderr, "converting"))
        try:
            extra, notes = site_files(dest, move.site, plan)
        except SiteUnreadable as exc:
            raise CommandError(f"{exc}; nothing was written") from None
        self.report(plan)
        if plan.failed:
            count = len(plan.failed)
            files = "file" if count == 1 else "files"
            raise CommandError(f"{count} {files} could not be converted; nothing was written to {dest}")
        with signals_held():  # DEST changes whole or not at all
            raise_if_interrupted()
            written = write(dest, {**plan.files, **extra}, plan.copies)
            self.written = True
        for note in [*plan.notes, *notes]:  # the old config's, then site.yaml's and stack.yaml's
            self.stdout.write(f"note: {note}")
        self.stdout.write(self.summary(move, plan, dest, written))

    def report(self, plan):
        width = max((len(o.status) for o in plan.outcomes), default=0)
        for outcome in plan.outcomes:
            arrow = " ->" if outcome.status == "converted" else ":"
            line = f"{outcome.status:<{width}}  {outcome.rel}{arrow} {outcome.detail}"
            (self.stderr if outcome.status == "failed" else self.stdout).write(line)
            for where, message in outcome.warnings:
                self.stdout.write(f"{'':<{width}}  warning: {f'line {where}: ' if where else ''}{message}")
            if outcome.dropped:
                self.stdout.write(f"{'':<{width}}  dropped: {', '.join(outcome.dropped)}")

    def summary(self, move, plan, dest, written):
        counts = {
            status: sum(o.status == status for o in plan.outcomes) for status in ("converted", "skipped")
        }
        warned = sum(bool(o.warnings) for o in plan.outcomes if o.status == "converted")
        pages = sum(o.detail.startswith("pages/") for o in plan.outcomes if o.status == "converted")
        converted = counted(counts["converted"] - pages, "post")
        if pages:
            converted += f" and {counted(pages, 'page')}"
        skipped, addresses = (
            counted(counts["skipped"], "file"),
            counted(plan.addresses, "old address", "old addresses"),
        )
        copied, hosts = counted(len(plan.copies), "file"), counted(len(plan.hosts), "image host")
        return (
            f"Moved in from {move.site.label}: {converted} converted ({warned} with warnings), {skipped} "
            f"skipped; {addresses} kept, {copied} copied to media/, {hosts} allowed; "
            f"{counted(written, 'file')} written to {dest}."
        )


def counted(number, word, plural=None):
    """`1 post`, `2 posts`."""
    return f"{number} {word if number == 1 else plural or word + 's'}"
