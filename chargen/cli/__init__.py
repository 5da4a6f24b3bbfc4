"""The ``chargen`` command line: a thin shell over the library.

Library errors (:class:`ChargenError`) become one ``Error: ...`` line and exit
status 1; Click's usage errors exit 2; ``--debug`` shows the traceback. This
package is the only part of chargen that imports Click: ``options`` holds the
option bundles the commands share, and each command group has its module
(``generate``: generate and render; ``roll``; ``rules``: systems and rules).
"""

from __future__ import annotations

import os
import signal
import sys

import click

from chargen import __version__
from chargen.cli.options import CONTEXT
from chargen.errors import ChargenError, printable


class PipeClosed(Exception):
    """stdout's reader closed the pipe (not an OSError, which Click would turn into exit status 1)."""


class ChargenGroup(click.Group):
    """Turns library errors into ``Error: ...`` at the edge, unless ``--debug``."""

    def invoke(self, ctx: click.Context):
        own_interrupts()
        try:
            return super().invoke(ctx)
        except BrokenPipeError:
            raise PipeClosed() from None  # the reader went away: main() ends quietly, as a Unix tool does
        except ChargenError as e:
            if ctx.meta.get("chargen.debug"):
                raise
            error = click.ClickException(printable(str(e)))
            error.exit_code = getattr(e, "exit_code", 1)
            raise error from None
        except OSError as e:  # the file system refused something the library did not expect to fail
            if ctx.meta.get("chargen.debug"):
                raise
            where = f" ({str(e.filename)[:200]})" if e.filename else ""
            raise click.ClickException(printable(f"{e.strerror or e}{where}")) from None
        except KeyboardInterrupt as e:  # Ctrl-C, or SIGTERM or SIGHUP (chargen.run.procs.Stopped)
            if ctx.meta.get("chargen.debug"):
                raise
            why = f"stopped by {e.name}" if hasattr(e, "signum") else "interrupted"
            click.echo(f"Error: {why}; only complete files were written", err=True)
            ctx.exit(getattr(e, "exit_code", 130))


@click.group(cls=ChargenGroup, context_settings=CONTEXT)
@click.version_option(__version__, "--version", prog_name="chargen")
@click.option("--debug", is_flag=True, help="Show the full traceback on errors.")
@click.pass_context
def cli(ctx: click.Context, debug: bool) -> None:
    """Roll seed-reproducible tabletop RPG characters and print their sheets.

    \b
    Example:
        chargen generate --system d100 --seed 42 --count 20 --format json -o guards/
    """
    ctx.meta["chargen.debug"] = debug or ctx.meta.get("chargen.debug", False)


def main() -> None:
    """The ``chargen`` program: Click's standalone handling, except that a closed pipe ends it
    as SIGPIPE ends a Unix tool (Click would print nothing but exit 1)."""
    _streams()
    from chargen.run.procs import stop_on_signals

    stop_on_signals()  # SIGTERM and SIGHUP stop a run as Ctrl-C does
    try:
        try:
            status = cli.main(prog_name="chargen", standalone_mode=False)
            sys.stdout.flush()
        except click.ClickException as e:
            e.show()
            status = e.exit_code
        except click.Abort:
            click.echo("Aborted!", err=True)
            status = 1
        except KeyboardInterrupt:  # Ctrl-C after the command ended (its output flushed)
            click.echo("Error: interrupted", err=True)
            status = 130
    except (BrokenPipeError, PipeClosed):
        _die_of_sigpipe()
    sys.exit(status if isinstance(status, int) else 0)


def own_interrupts() -> None:
    """From here on Ctrl-C is a ``KeyboardInterrupt``, which the commands and the runs' clean-up handle
    (until now the launcher's :func:`chargen.interrupts.interrupted_early` ended the program)."""
    from chargen.interrupts import interrupted_early

    if signal.getsignal(signal.SIGINT) is interrupted_early:
        signal.signal(signal.SIGINT, signal.default_int_handler)


def _streams() -> None:
    """Data on stdout (JSON, YAML, HTML) is UTF-8 whatever the locale or PYTHONIOENCODING say: the
    same bytes as the file ``-o`` writes. Chatter on stderr that its encoding cannot show is
    backslash-escaped, never a traceback."""
    if (sys.stdout.encoding or "").lower().replace("-", "").replace("_", "") != "utf8" and hasattr(sys.stdout, "reconfigure"):
        sys.stdout.reconfigure(encoding="utf-8")
    if hasattr(sys.stderr, "reconfigure"):
        sys.stderr.reconfigure(errors="backslashreplace")


def _die_of_sigpipe() -> None:
    """End as a Unix tool ends when its reader closes the pipe (``chargen systems | head -1``):
    silently, killed by SIGPIPE (status 141 in a shell); nothing is printed."""
    try:
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())  # so the interpreter's last flush cannot fail again
    except OSError:
        pass
    if hasattr(signal, "SIGPIPE"):
        signal.signal(signal.SIGPIPE, signal.SIG_DFL)
        os.kill(os.getpid(), signal.SIGPIPE)
    sys.exit(141)


def _debug_option(ctx: click.Context, param: click.Parameter, value: bool) -> None:
    if value:
        ctx.meta["chargen.debug"] = True


def debug_anywhere(command: click.Command) -> None:
    """``--debug`` after the subcommand too (``chargen generate ... --debug``), for it and its subcommands."""
    command.params.append(click.Option(["--debug"], is_flag=True, expose_value=False, is_eager=True,
                                       callback=_debug_option, help="Show the full traceback on errors."))
    for sub in getattr(command, "commands", {}).values():
        debug_anywhere(sub)


from chargen.cli import edit, fight, generate, npcs, roll, rules  # noqa: E402,F401 - register the commands

for _command in cli.commands.values():
    debug_anywhere(_command)
