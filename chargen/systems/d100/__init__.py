"""The D100 II engine: typed rules and character generation."""

from chargen.systems.d100.generate import generate
from chargen.systems.d100.rules import build as build_rules

__all__ = ["build_rules", "generate"]
