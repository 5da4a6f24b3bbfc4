"""The RTD engine: typed rules, character generation, action resolution, sheet odds."""

from chargen.systems.rtd.generate import generate
from chargen.systems.rtd.resolve import ROLL_OPTIONS, resolve
from chargen.systems.rtd.rules import build as build_rules
from chargen.systems.rtd.sheet import sheet_context

__all__ = ["ROLL_OPTIONS", "build_rules", "generate", "resolve", "sheet_context"]
