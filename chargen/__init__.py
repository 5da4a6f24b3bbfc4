"""chargen: seed-reproducible tabletop RPG characters and printable sheets."""

__version__ = "0.1.0"
