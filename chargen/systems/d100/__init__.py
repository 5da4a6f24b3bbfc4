"""The D100 II engine: typed rules, character generation and roll resolution."""

from chargen.systems.d100.generate import generate
from chargen.systems.d100.resolve import ROLL_OPTIONS, resolve
from chargen.systems.d100.rules import build as build_rules

__all__ = ["ROLL_OPTIONS", "build_rules", "generate", "resolve"]
