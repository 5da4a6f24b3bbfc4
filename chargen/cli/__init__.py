"""The ``chargen`` command line: a thin shell over the library.

Library errors (:class:`ChargenError`) become one ``Error: ...`` line and exit
status 1; Click's usage errors exit 2; ``--debug`` shows the traceback. This
package is the only part of chargen that imports Click: ``options`` holds the
option bundles the commands share, and each command group has its module
(``generate``: generate and render; ``roll``; ``rules``: systems and rules).
"""

from __future__ import annotations

import click

from chargen import __version__
from chargen.cli.options import CONTEXT
from chargen.errors import ChargenError, printable


class ChargenGroup(click.Group):
    """Turns library errors into ``Error: ...`` at the edge, unless ``--debug``."""

    def invoke(self, ctx: click.Context):
        try:
            return super().invoke(ctx)
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
        except KeyboardInterrupt:
            if ctx.meta.get("chargen.debug"):
                raise
            click.echo("Error: interrupted; only complete files were written", err=True)
            ctx.exit(130)


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
    ctx.meta["chargen.debug"] = debug


def main() -> None:
    cli(prog_name="chargen")


from chargen.cli import generate, roll, rules  # noqa: E402,F401 - register the commands
