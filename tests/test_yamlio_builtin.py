"""chargen's own rules files are composed by libyaml (chargen.rules.yamlio._BuiltinLoader): the same
data and the same line of every key path as the pure-Python safe loader gives, faster; a user's
files (house rules, --rules-dir modules, parties, saved characters) keep the limited safe loader."""

import shutil

import pytest
import yaml

from chargen import rules
from chargen.errors import RulesError
from chargen.rules import BUILTIN_DIR, builtin_ids, read_module_files
from chargen.rules import yamlio


@pytest.mark.parametrize("system", builtin_ids())
def test_a_builtin_module_reads_the_same_with_libyaml(system):
    label = f"chargen/rules/{system}"
    fast = read_module_files(BUILTIN_DIR / system, label, builtin=True)
    plain = read_module_files(BUILTIN_DIR / system, label)
    assert sorted(fast) == sorted(plain)
    for stem in plain:
        assert fast[stem].data == plain[stem].data, stem
        assert fast[stem].lines == plain[stem].lines, stem
        assert repr(fast[stem].data) == repr(plain[stem].data), stem  # the same types too (1 is not 1.0, 0123 is 123)


def test_libyaml_is_used_where_pyyaml_has_it():
    assert (yamlio._BuiltinLoader is not None) == yaml.__with_libyaml__


def _loaders(monkeypatch) -> list[str]:
    used = []
    real = yaml.compose

    def compose(text, Loader):
        used.append(Loader)
        return real(text, Loader=Loader)

    monkeypatch.setattr(yamlio.yaml, "compose", compose)
    return used


def test_builtin_modules_are_read_with_it_and_a_users_module_is_not(monkeypatch, tmp_path):
    used = _loaders(monkeypatch)
    monkeypatch.setattr(rules, "_DOCS", {})
    rules._builtin_docs("rtd")
    assert used and set(used) == {yamlio._BuiltinLoader or yamlio._Loader}
    used.clear()
    shutil.copytree(BUILTIN_DIR / "rtd", tmp_path / "rtd")
    read_module_files(tmp_path / "rtd", "rtd")
    assert used and set(used) == {yamlio._Loader}


def test_the_walk_still_limits_the_depth_of_a_builtin_file():
    deep = "[" * (yamlio.MAX_DEPTH + 5) + "]" * (yamlio.MAX_DEPTH + 5)
    with pytest.raises(RulesError, match="nesting deeper than"):
        yamlio.load_text(deep, "x.yaml", builtin=True)
