"""The wheel ships every package and the templates (as chargen._templates, with their fonts)."""

import tomllib
from pathlib import Path

ROOT = Path(__file__).parent.parent


def test_every_package_is_listed_for_the_wheel():
    config = tomllib.loads((ROOT / "pyproject.toml").read_text())["tool"]["setuptools"]
    found = {".".join(p.parent.relative_to(ROOT).parts) for p in (ROOT / "chargen").rglob("__init__.py")}
    assert set(config["packages"]) == found | {"chargen._templates"}
    assert config["package-dir"]["chargen._templates"] == "templates"


def test_the_templates_package_data_covers_every_template_file():
    import fnmatch

    patterns = tomllib.loads((ROOT / "pyproject.toml").read_text())["tool"]["setuptools"]["package-data"][
        "chargen._templates"]
    files = [p.relative_to(ROOT / "templates").as_posix() for p in (ROOT / "templates").rglob("*")
             if p.is_file() and p.name != "__init__.py" and "__pycache__" not in p.parts]
    assert "fonts/Karla-Regular.otf" in files and "fonts/OFL-Karla.txt" in files
    assert [f for f in files if not any(fnmatch.fnmatch(f, pat) for pat in patterns)] == []


def test_the_set_up_says_how_to_run_chargen_and_keeps_pip_quiet():
    """After 'make demo' the README's next command is 'chargen ...': both say how to get it on the PATH;
    pip's hundreds of lines go to a log shown only when the install fails."""
    readme = (ROOT / "README.md").read_text()
    setup = readme[readme.index("## Set-up"):readme.index("## Quick start")]
    assert ". .venv/bin/activate" in setup and ".venv/bin/chargen" in setup
    makefile = (ROOT / "Makefile").read_text()
    demo = makefile[makefile.index("demo: bytecode"):]
    assert ". $(VENV)/bin/activate" in demo.split("\n\n")[0]
    install = makefile[makefile.index("$(STAMP): pyproject.toml"):makefile.index("deps: $(STAMP)")]
    assert "> $(VENV)/install.log 2>&1" in install and "tail -n 30 $(VENV)/install.log" in install
    assert "python3 tools/system_libraries.py --install" in makefile
