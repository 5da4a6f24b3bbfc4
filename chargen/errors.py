"""The errors a user can cause. The CLI prints them as one ``Error: ...`` line."""

from __future__ import annotations


def printable(text: str) -> str:
    """``text`` with every unprintable character (line breaks, bidi controls) escaped: one safe line."""
    return "".join(c if c.isprintable() else repr(c)[1:-1] for c in text)


class ChargenError(Exception):
    """Base of every error caused by input: rules files, options, characters."""


class DiceError(ChargenError):
    """Malformed or oversized dice notation."""


class TooManyRolls(ChargenError):
    """A roll budget was exhausted: a rule could make rolling unbounded."""


class RulesError(ChargenError):
    """A rules module or overlay is invalid; carries every problem found."""

    def __init__(self, problems: list[str]):
        self.problems = [printable(p) for p in problems]
        first = self.problems[0] if self.problems else "invalid rules"
        more = len(self.problems) - 1
        suffix = f" (and {more} more problem{'s' if more != 1 else ''}; run 'chargen rules check')" if more else ""
        super().__init__(first + suffix)


class CharacterError(ChargenError):
    """A saved character document is invalid."""


class OutputError(ChargenError):
    """An output folder or file cannot be written as asked."""


class OptionError(ChargenError):
    """A command option is missing, out of range or does not apply; the CLI reports it as a usage error."""


class RenderError(ChargenError):
    """A sheet cannot be rendered: a template, stylesheet, font or image is missing or not allowed."""
