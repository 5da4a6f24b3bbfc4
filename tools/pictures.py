"""Make the README's pictures of each layout: docs/layouts/*.png (``make pictures``).

Each picture is the first page of a PDF chargen makes, drawn by poppler's
``pdftoppm`` at 60 dpi: the D100 II sheet, the encounter sheet (party.pdf in the
block layout), party.pdf in the card layout at 4 and at 9 cards a page, a card
that continues (a house rule's long NPC, 1/2 and 2/2), the party at a glance
(``--compare``, the first page of party.pdf in the block layout) and an encounter
sheet with the odds of its fight (``--against``).
Run from the repository: ``python tools/pictures.py`` (needs pdftoppm, from poppler-utils).
"""

from __future__ import annotations

import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
OUT = ROOT / "docs" / "layouts"
PICTURES = {  # file -> (generate options, which PDF)
    "sheet": (["--system", "d100", "--seed", "42", "--count", "1"], "0000-*.pdf"),
    "block": (["--system", "d100", "--seed", "42", "--count", "12", "--layout", "block",
               "--party-name", "Ambush at the ford"], "party.pdf"),
    "card-4": (["--system", "kotm", "--seed", "42", "--count", "4", "--layout", "card"], "party.pdf"),
    "card-9": (["--system", "rtd", "--seed", "42", "--count", "9", "--layout", "card", "--cards-per-page", "9"],
               "party.pdf"),
    "card-pair": (["--system", "d100", "--seed", "5", "--count", "4", "--rules", "tests/house/armoury.yaml",
                   "--archetype", "armsmaster", "--layout", "card"], "party.pdf"),
    "glance": (["--system", "d100", "--seed", "42", "--count", "8", "--archetype", "town_guard", "--layout", "block",
                "--compare"], "party.pdf"),
    "odds": (["--system", "d100", "--seed", "42", "--count", "5", "--archetype", "bandit", "--layout", "block",
              "--party-name", "Bandits at the ford", "--against", "examples/town-watch.yaml"], "party.pdf"),
}


def main() -> int:
    if shutil.which("pdftoppm") is None:
        print("pictures: needs pdftoppm (Debian package poppler-utils)", file=sys.stderr)
        return 1
    OUT.mkdir(parents=True, exist_ok=True)
    with tempfile.TemporaryDirectory() as tmp:
        for name, (options, pdf) in PICTURES.items():
            folder = Path(tmp) / name
            subprocess.run([sys.executable, "-m", "chargen", "generate", *options, "--format", "pdf", "-o",
                            str(folder)], check=True, cwd=ROOT)
            source = sorted(folder.glob(pdf))[0]
            subprocess.run(["pdftoppm", "-r", "60", "-png", "-f", "1", "-l", "1", "-singlefile", str(source),
                            str(OUT / name)], check=True)
            print(f"pictures: {OUT.relative_to(ROOT) / (name + '.png')}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
