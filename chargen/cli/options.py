"""Options and helpers the commands share (option bundles as decorators)."""

from __future__ import annotations

import contextlib
import os
import re
import sys
from collections.abc import Callable, Iterable
from pathlib import Path

import click

from chargen import choices
from chargen.engines import DEFAULT_LAYOUT
from chargen.seeds import MAX_SEED

CONTEXT = {"help_option_names": ["-h", "--help"], "max_content_width": 100}


_ASCII_INTEGER = re.compile(r"[+-]?[0-9]+")
MAX_DIGITS = 20  # digits of an integer option: a seed (up to 2^64-1) has 20; checked before it is converted


class Integer(click.IntRange):
    """An integer option written in ASCII digits only: Python's ``int()`` would also read
    ``4_2``, `` 42 `` and Arabic-Indic digits (``\u0664\u0662``) as 42. At most ``MAX_DIGITS`` digits,
    checked before it is converted. Optionally bounded, as IntRange."""

    def convert(self, value, param, ctx):
        if isinstance(value, str) and len(value.lstrip("+-")) > MAX_DIGITS:
            self.fail(f"{value[:24]!r}{'...' if len(value) > 24 else ''} ({len(value):,} characters) is not a valid "
                      f"integer (at most {MAX_DIGITS} digits).", param, ctx)
        if isinstance(value, str) and not _ASCII_INTEGER.fullmatch(value) and _reads_as_int(value):
            self.fail(f"{value!r} is not a valid integer (ASCII digits 0-9 only).", param, ctx)
        return super().convert(value, param, ctx)  # Click's own message for anything else


def _reads_as_int(text: str) -> bool:
    try:
        int(text)
    except ValueError:
        return False
    return True


def bundle(*options):
    """Several click options applied as one decorator (an option bundle), in the order given."""
    def decorate(f):
        for option in reversed(options):
            f = option(f)
        return f
    return decorate


def seed_option(f):
    return click.option("--seed", type=Integer(0, MAX_SEED),
                        help="Batch seed (0 to 2^64-1). Without it a seed is drawn and reported.")(f)


def request_options(f):
    """``--archetype ID``, ``--profession ID`` and ``--years N|DICE``: what each character is made as."""
    return bundle(
        click.option("--archetype", metavar="ID", default=None,
                     help="Make each character from this archetype (see 'chargen archetypes')."),
        click.option("--profession", metavar="ID", default=None,
                     help="d100: previous experience in this profession (see professions.yaml); needs --years "
                          "unless the archetype gives them."),
        click.option("--years", metavar="N|DICE", default=None,
                     help="d100: years of previous experience, a number or dice such as 1D6+2 (age 16 + years)."),
    )(f)


def make_request(archetype: str | None, profession: str | None, years: str | None):
    from chargen.generate import GenerationRequest

    return GenerationRequest(archetype=archetype, profession=profession, years=years)


def any_case(ctx, param, value):
    """A choice as the user may type it: ids and names are lower-case, any case is accepted (``--system D100``)."""
    return value.lower() if isinstance(value, str) else value


def system_option(f):
    return click.option("--system", "system_id", default="d100", show_default=True, metavar="ID", callback=any_case,
                        help="Rules module id (see 'chargen systems').")(f)


def rules_options(overlays: bool = True):
    """``--rules FILE`` (overlays, repeatable, applied in order) and ``--rules-dir DIR`` (own modules)."""
    def decorate(f):
        f = click.option("--rules-dir", "rules_dirs", multiple=True, metavar="DIR",
                         type=click.Path(path_type=Path, file_okay=False),
                         help="Also use the rules modules in DIR (repeatable; see 'chargen systems').")(f)
        if overlays:
            f = click.option("--rules", "overlays", multiple=True, metavar="FILE",
                             type=click.Path(path_type=Path, dir_okay=False),
                             help="House-rules overlay to apply (repeatable, applied in order).")(f)
        return f
    return decorate


def given_value(ctx: click.Context, name: str, value):
    """``value`` if the option was given on the command line, else None."""
    source = ctx.get_parameter_source(name)
    return value if source is not None and source.name != "DEFAULT" else None


def resolve_seed(seed: int | None) -> int:
    from chargen.seeds import draw_batch_seed

    return draw_batch_seed() if seed is None else seed


def parse_formats(value: str, known: tuple[str, ...] | None = None) -> tuple[str, ...]:
    """A ``--format`` comma list, checked against ``known`` (default: every registered format)."""
    from chargen.formats import names

    known = known or names()
    formats = tuple(dict.fromkeys(f.strip().lower() for f in value.split(",") if f.strip()))
    bad = [f for f in formats if f not in known]
    if not formats or bad:
        raise click.BadParameter(f"{', '.join(bad) or repr(value)} is not a format (expected a comma list of: {', '.join(known)})",
                                 param_hint="'--format'")
    return formats


class Declared(click.Choice):
    """A choice whose values are read from their declaration (:mod:`chargen.choices`) whenever Click
    asks (help, checking, completion): a paper added to ``PAPERS`` is offered and accepted."""

    def __init__(self, values: Callable[[], Iterable], case_sensitive: bool = False):
        self._values = values
        self.case_sensitive = case_sensitive

    @property
    def choices(self) -> tuple[str, ...]:
        return tuple(str(v) for v in self._values())


class LayoutChoice(Declared):
    """``--layout``: a layout of the registered engines (:func:`chargen.engines.layout_ids`). Help
    lists the built-in ones and those of the engines registered so far (no engine is imported for
    it); a value not among them is looked up in the registry (every engine imported), so a layout
    an installed engine or a registration adds is accepted."""

    def __init__(self):
        from chargen.engines import listed_layout_ids

        super().__init__(listed_layout_ids)

    def convert(self, value, param, ctx):
        if isinstance(value, str) and value.lower() not in self.choices:
            from chargen.engines import layout_ids

            return Declared(layout_ids).convert(value, param, ctx)
        return super().convert(value, param, ctx)


def _cards_help() -> str:
    grids = [f"{n} ({choices.cards_grid(n)})" for n in choices.CARDS_PER_PAGE]
    return f"Cards a page in --layout card: {_either(grids)}."


def _variants_help() -> str:
    return "; ".join(f"{v}: {what}" for v, what in choices.PDF_VARIANTS.items()) + "."


def _either(items: list[str]) -> str:
    return ", ".join(items[:-1]) + " or " + items[-1] if len(items) > 1 else "".join(items)


sheet_options = bundle(  # how html and pdf sheets are rendered: generate, render and party
    click.option("--paper", type=Declared(choices.paper_ids), default=choices.DEFAULT_PAPER, show_default=True,
                 help="Paper size of html and pdf sheets."),
    click.option("--template-dir", type=click.Path(path_type=Path, file_okay=False, exists=True),
                 help="Render sheets with the templates in this folder instead of the built-in ones."),
    click.option("--party-name", metavar="NAME", help="Title of party.pdf and index.html."),
    click.option("--layout", type=LayoutChoice(), default=DEFAULT_LAYOUT,
                 show_default=True, help="sheet: a full page each; block: compact stat blocks, several a page "
                 "(party.pdf is an encounter sheet: roster, then blocks by archetype); card: NPC cards, "
                 "--cards-per-page to a page."),
    click.option("--cards-per-page", type=Declared(choices.cards_per_page_ids, case_sensitive=True),
                 default=str(choices.DEFAULT_CARDS_PER_PAGE), show_default=True, help=_cards_help()),
    click.option("--pdf-variant", type=Declared(lambda: choices.PDF_VARIANTS, case_sensitive=False), default=None,
                 help=_variants_help()),
    click.option("--compare", is_flag=True, default=None,
                 help="party.pdf opens (after its cover) with the party at a glance: every character's figures "
                 "and key skills side by side, 8 a page, the party's best marked."),
    click.option("--card-backs", is_flag=True, default=None,
                 help="--layout card for printing on both sides (turned over the long edge): a card that does not "
                 "fit continues on its back, not on the next card; pages come in pairs, front and back."),
    click.option("--each-pdf", is_flag=True, default=None,
                 help="--layout block or card with pdf: also a PDF of each character's block or card (by default "
                 "party.pdf alone, the encounter sheet or the cards, holds them)."),
)


def jobs_option(f):
    return click.option("--jobs", "-j", type=Integer(1, 256), default=None,
                        help="Worker processes for large batches and for laying out sheets (default: all cores).")(f)


def against_option(f):
    """``--against SIDE``: the side an encounter is meant for (generate, party)."""
    return click.option("--against", type=click.Path(path_type=Path), default=None, metavar="SIDE",
                        help="The party this encounter is meant for (a party file, a folder of saved characters or a "
                        "saved file): party.pdf's encounter sheet (--format pdf --layout block) prints the odds of "
                        "a fight against it (see 'chargen fight') and a combat-order table.")(f)


def check_against(sheets, count: int) -> None:
    """``--against`` (or a party file's ``against:``): printed on party.pdf's encounter sheet, so it needs
    pdf in the block layout; the side is read now, so a bad one is an error before any file is written,
    and so is an encounter of ``count`` characters whose odds are more fights than an estimate plays."""
    from chargen import engines
    from chargen.errors import OptionError
    from chargen.fight.estimate import DEFAULT_FIGHTS, check_work
    from chargen.fight.tactics import DEFAULT_MAX_ROUNDS
    from chargen.run.fightsides import against_side

    if not sheets.against:
        return
    if "pdf" not in sheets.formats or not engines.layout_scope(sheets.layout).encounter:
        raise OptionError("--against prints the odds on party.pdf's encounter sheet: give --format pdf and "
                          "--layout block")
    side = against_side(sheets)
    check_work(count + len(side.docs), DEFAULT_FIGHTS, DEFAULT_MAX_ROUNDS,
               f"the encounter sheet's odds of {count:,} characters against {len(side.docs):,} cannot be played; "
               "make the batch smaller, or print it without --against")


def make_sheet_options(formats, paper, template_dir, jobs, party_name, layout=DEFAULT_LAYOUT,
                       cards_per_page=choices.DEFAULT_CARDS_PER_PAGE, pdf_variant=None, compare=False,
                       card_backs=False, each_pdf=False, against=None):
    from chargen.formats import names
    from chargen.run.sheets import SheetOptions

    if party_name is not None:
        _check_party_name(party_name, template_dir)
    return SheetOptions(formats=tuple(f for f in formats if f in names(sheet=True)), paper=paper,
                        template_dir=template_dir, jobs=jobs or 0, party_name=party_name, layout=layout.lower(),
                        cards_per_page=int(cards_per_page), pdf_variant=pdf_variant, compare=bool(compare),
                        card_backs=bool(card_backs), each_pdf=bool(each_pdf),
                        against=None if against is None else str(against))


def _check_party_name(name: str, template_dir: Path | None) -> None:
    """--party-name, checked before the first character is made: a usage error if the cover cannot draw it."""
    from chargen.errors import RenderError
    from chargen.render.contain.names import check_party_name as check
    from chargen.render.templates import TemplateSet

    templates = TemplateSet.load(template_dir)
    try:
        check(name, templates)
    except RenderError as e:
        raise click.BadParameter(str(e), param_hint="'--party-name'") from None


@contextlib.contextmanager
def progress_bar(count: int, label: str):
    """Count, rate and time left on stderr for a batch on a terminal; silent otherwise."""
    from chargen.cli.progress import progress_for

    progress = progress_for(count, label)
    try:
        yield progress
    finally:
        if progress is not None:
            progress.close()


def jobs_or_cores(jobs: int | None) -> int:
    return jobs or os.cpu_count() or 1
