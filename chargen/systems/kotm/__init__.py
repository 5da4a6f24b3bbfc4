"""The KoTM engine: typed rules, character generation, attack resolution, sheet odds."""

from chargen.systems.kotm.generate import generate
from chargen.systems.kotm.resolve import ROLL_OPTIONS, resolve
from chargen.systems.kotm.rules import build as build_rules
from chargen.systems.kotm.sheet import sheet_context

__all__ = ["ROLL_OPTIONS", "build_rules", "generate", "resolve", "sheet_context"]
