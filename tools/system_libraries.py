"""Are the system libraries WeasyPrint loads here? Install the missing ones where we can.

Run before chargen is installed (``make demo``, ``make test``), with the standard
library only: ``python3 tools/system_libraries.py --install``. It is part of the
set-up, not of the installed package (nothing in ``chargen`` imports it). Each library is
checked the way WeasyPrint finds it, by loading it (so a machine without
``ldconfig`` or ``apt-get`` is judged by what it has, not by its tools). Missing
ones are installed with ``apt-get`` only on Debian or Ubuntu as root; elsewhere
the script says what to install and exits 1 when a required library is missing.

It then checks the optional extras the same way, by what the machine has: the
Noto fonts the sheets fall back on for scripts their own faces lack (Greek,
Cyrillic, Vietnamese in the sans, Arabic, Hebrew, Devanagari, Thai, CJK, Korean,
emoji), found through fontconfig, and Debian's ``chromium`` for the browser
tests; a missing one is installed with ``apt-get`` where that is possible, else named.
"""

from __future__ import annotations

import ctypes
import os
import shutil
import subprocess
import sys

# name -> (required, file names to try, Debian package)
LIBRARIES = {
    "Pango": (True, ("libpango-1.0.so.0", "libpango-1.0.dylib", "libpango-1.0-0.dll"), "libpango-1.0-0"),
    "PangoFT2": (True, ("libpangoft2-1.0.so.0", "libpangoft2-1.0.dylib", "libpangoft2-1.0-0.dll"),
                 "libpangoft2-1.0-0"),
    "HarfBuzz-Subset": (False, ("libharfbuzz-subset.so.0", "libharfbuzz-subset.dylib", "libharfbuzz-subset-0.dll"),
                        "libharfbuzz-subset0"),
}
BY_HAND = """Install them with your system's packages, then run the command again:
  Debian, Ubuntu:    sudo apt-get install libpango-1.0-0 libpangoft2-1.0-0 libharfbuzz-subset0 fontconfig
  Fedora:            sudo dnf install pango harfbuzz fontconfig
  macOS (Homebrew):  brew install pango"""


# name -> (what finds it: fontconfig family or program, Debian package, what it is for)
EXTRAS = {
    "Noto fonts": (("font", "Noto Sans"), "fonts-noto-core",
                   "names in Greek, Cyrillic, Arabic, Hebrew, Devanagari, Thai and more"),
    "Noto CJK fonts": (("font", "Noto Sans CJK JP"), "fonts-noto-cjk", "names in Chinese, Japanese and Korean"),
    "Noto Color Emoji": (("font", "Noto Color Emoji"), "fonts-noto-color-emoji", "emoji in names"),
    "Chromium": (("program", "chromium"), "chromium", "the tests that print the HTML sheets in a browser"),
    "Poppler utilities": (("program", "pdftotext"), "poppler-utils",
                          "the tests that read a party.pdf's text, and make pictures (pdftoppm)"),
}


def has_extra(probe: tuple[str, str]) -> bool:
    kind, name = probe
    if kind == "program":
        return shutil.which(name) is not None
    if shutil.which("fc-list") is None:
        return False
    found = subprocess.run(["fc-list", "-q", name], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    return found.returncode == 0


def missing_extras() -> list[str]:
    return [name for name, (probe, _, _) in EXTRAS.items() if not has_extra(probe)]


def apt_install_extras(names: list[str]) -> None:
    packages = [EXTRAS[n][1] for n in names]
    print(f"installing {', '.join(names)} (apt-get install {' '.join(packages)})", flush=True)
    quiet = {"stdout": subprocess.DEVNULL}
    subprocess.run(["apt-get", "update", "-qq"], check=True, **quiet)
    subprocess.run(["apt-get", "install", "-y", "-qq", "--no-install-recommends", *packages], check=True,
                   env={**os.environ, "DEBIAN_FRONTEND": "noninteractive"}, **quiet)


def loads(names: tuple[str, ...]) -> bool:
    for name in names:
        try:
            ctypes.CDLL(name)
            return True
        except OSError:
            continue
    return False


def missing() -> list[str]:
    return [lib for lib, (_, names, _) in LIBRARIES.items() if not loads(names)]


def can_apt() -> bool:
    return shutil.which("apt-get") is not None and hasattr(os, "geteuid") and os.geteuid() == 0


def apt_install(libs: list[str]) -> None:
    packages = [LIBRARIES[lib][2] for lib in libs] + ["fontconfig"]
    print(f"installing {', '.join(libs)} for WeasyPrint (apt-get install {' '.join(packages)})", flush=True)
    quiet = {"stdout": subprocess.DEVNULL}
    subprocess.run(["apt-get", "update", "-qq"], check=True, **quiet)
    subprocess.run(["apt-get", "install", "-y", "-qq", *packages], check=True, env={**os.environ,
                   "DEBIAN_FRONTEND": "noninteractive"}, **quiet)


def main(argv: list[str]) -> int:
    gone = missing()
    if gone and "--install" in argv and can_apt():
        apt_install(gone)
        gone = missing()
    required = [lib for lib in gone if LIBRARIES[lib][0]]
    if required:
        print(f"chargen needs {' and '.join(required)} for WeasyPrint, and this machine does not have them.\n"
              + BY_HAND, file=sys.stderr)
        return 1
    if gone:
        print(f"note: {', '.join(gone)} is missing: PDFs are made, with slower font subsetting.", file=sys.stderr)
    extras = missing_extras()
    if extras and "--install" in argv and can_apt():
        try:
            apt_install_extras(extras)
        except (OSError, subprocess.CalledProcessError) as e:
            print(f"note: could not install {', '.join(extras)}: {e}", file=sys.stderr)
        extras = missing_extras()
    for name in extras:
        _, package, why = EXTRAS[name]
        print(f"note: {name} missing (Debian package {package}): needed for {why}.", file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
