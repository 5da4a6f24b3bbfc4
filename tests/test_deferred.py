"""Modules loaded on first use (chargen.render.contain.deferred): a module whose functions are imported by
name (WeasyPrint's ``from fontTools.varLib.instancer import instantiateVariableFont``) loads on the first
call, and its package is not imported before that; issue 23, item 4 (the cold start)."""

import os
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def _python(code: str, *paths: Path) -> list[str]:
    env = {**os.environ, "PYTHONPATH": os.pathsep.join(map(str, (ROOT, *paths)))}
    return subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, env=env, check=True,
                          cwd=ROOT, timeout=120).stdout.split()


def _package(tmp_path: Path) -> Path:
    """A package whose import, and its module's, print themselves (what runs, and when)."""
    pkg = tmp_path / "slowpkg"
    pkg.mkdir()
    (pkg / "__init__.py").write_text("print('package-ran')\n")
    (pkg / "sub.py").write_text("print('module-ran')\nLIMIT = 7\n\ndef double(x):\n    return 2 * x\n")
    return tmp_path


def test_a_function_imported_by_name_loads_its_module_and_package_on_the_first_call(tmp_path):
    code = """
import sys
from chargen.render.contain.deferred import defer_functions, is_loaded
print(defer_functions("slowpkg.sub", ("double",)), "slowpkg" in sys.modules, is_loaded("slowpkg.sub"))
from slowpkg.sub import double
print("taken", "slowpkg" in sys.modules, is_loaded("slowpkg.sub"))
print(double(21), is_loaded("slowpkg.sub"), sys.modules["slowpkg"].sub is sys.modules["slowpkg.sub"])
print(double(4))
"""
    assert _python(code, _package(tmp_path)) == [
        "True", "False", "False",
        "taken", "False", "False",  # the name is taken: nothing has run
        "package-ran", "module-ran", "42", "True", "True",  # the first call: package, module, then the call
        "8"]  # once


def test_another_name_of_a_deferred_module_loads_it_when_read(tmp_path):
    code = """
from chargen.render.contain.deferred import defer_functions
import sys
defer_functions("slowpkg.sub", ("double",))
print("before")
print(sys.modules["slowpkg.sub"].LIMIT)
"""
    assert _python(code, _package(tmp_path)) == ["before", "package-ran", "module-ran", "7"]


def test_nothing_is_deferred_when_imported_already_or_missing(tmp_path):
    code = """
import slowpkg
from chargen.render.contain.deferred import defer_functions
print(defer_functions("slowpkg.sub", ("double",)), defer_functions("slowpkg.nothing", ("f",)),
      defer_functions("no_such_package_here.sub", ("f",)))
import slowpkg.sub
"""
    assert _python(code, _package(tmp_path)) == ["package-ran", "False", "False", "False", "module-ran"]


def test_weasyprint_is_imported_without_the_variable_font_instancer_and_pdfs_are_the_same_bytes():
    """chargen.render.pdf leaves fontTools.varLib (used only to instance a variable font) unloaded, and a
    PDF is the same bytes as where the instancer was imported first, as WeasyPrint alone does."""
    code = """
import sys
{first}
import chargen.render.pdf as pdf
from chargen.render.contain.deferred import is_loaded
from chargen.render.templates import TemplateSet
maker = pdf.PdfMaker(TemplateSet.load(None))
html = '<!DOCTYPE html><html><head><meta charset="utf-8"></head><body><p>Ab <b>cd</b></p></body></html>'
out = maker.render(html).pdf
import hashlib
print("fontTools.varLib" in sys.modules, is_loaded("fontTools.varLib.instancer"), hashlib.sha256(out).hexdigest())
"""
    deferred = _python(code.format(first=""))
    plain = _python(code.format(first="import fontTools.varLib.instancer"))
    assert deferred[:2] == ["False", "False"]
    assert plain[:2] == ["True", "True"]
    assert deferred[2] == plain[2]


def test_the_instancer_the_pdf_writer_took_calls_the_real_one():
    code = """
{order}
from chargen.render.contain.deferred import is_loaded
print(fonts.instantiateVariableFont.__name__, is_loaded("fontTools.varLib.instancer"))
try:
    fonts.instantiateVariableFont(None, {{"wght": 500}})
except Exception as e:
    print(type(e).__name__, str(e).replace(" ", "_"))
print(is_loaded("fontTools.varLib.instancer"))
"""
    # WeasyPrint imported first: nothing deferred, it took the real function
    plain = _python(code.format(order="from weasyprint.pdf import fonts\nimport chargen.render.pdf"))
    deferred = _python(code.format(order="import chargen.render.pdf\n"
                                         "from weasyprint.pdf import fonts"))
    assert plain[:2] == ["instantiateVariableFont", "True"]
    assert deferred[:2] == ["instantiateVariableFont", "False"]
    assert deferred[2:] == plain[2:] and plain[-1] == "True"  # the real function's own error, and it is loaded
    assert len(plain) == 5
