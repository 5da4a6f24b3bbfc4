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
