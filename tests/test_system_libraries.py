"""The set-up's check of WeasyPrint's system libraries: by loading them, installing only where it can."""

import importlib.util
from pathlib import Path

# tools/system_libraries.py runs before chargen is installed, with the standard library only: not in the package
_SPEC = importlib.util.spec_from_file_location(
    "system_libraries", Path(__file__).resolve().parent.parent / "tools" / "system_libraries.py")
sl = importlib.util.module_from_spec(_SPEC)
_SPEC.loader.exec_module(sl)


def test_this_machine_has_what_weasyprint_loads():
    assert sl.missing() == []
    assert sl.main([]) == 0


def test_a_missing_library_without_apt_names_what_to_install(monkeypatch, capsys):
    monkeypatch.setattr(sl, "loads", lambda names: "libpango-1.0.so.0" not in names)
    monkeypatch.setattr(sl, "can_apt", lambda: False)
    assert sl.main(["--install"]) == 1
    err = capsys.readouterr().err
    assert err.startswith("chargen needs Pango for WeasyPrint, and this machine does not have them.")
    assert "Fedora:" in err and "brew install pango" in err and "sudo apt-get install" in err


def test_apt_installs_only_what_is_missing(monkeypatch):
    monkeypatch.setattr(sl, "missing_extras", lambda: [])
    have = {"libpango-1.0.so.0", "libpangoft2-1.0.so.0"}
    installed = []
    monkeypatch.setattr(sl, "loads", lambda names: bool(have & set(names)))
    monkeypatch.setattr(sl, "can_apt", lambda: True)
    monkeypatch.setattr(sl, "apt_install", lambda libs: (installed.extend(libs), have.add("libharfbuzz-subset.so.0")))
    assert sl.main(["--install"]) == 0
    assert installed == ["HarfBuzz-Subset"]


def test_an_optional_library_missing_is_a_note_not_a_failure(monkeypatch, capsys):
    monkeypatch.setattr(sl, "loads", lambda names: "libharfbuzz-subset.so.0" not in names)
    monkeypatch.setattr(sl, "can_apt", lambda: False)
    assert sl.main(["--install"]) == 0
    assert "HarfBuzz-Subset is missing" in capsys.readouterr().err


def test_the_fonts_and_chromium_are_here():
    assert sl.missing_extras() == []


def test_missing_fonts_or_chromium_are_installed_where_apt_can(monkeypatch, capsys):
    have = set()
    installed = []
    monkeypatch.setattr(sl, "missing", lambda: [])
    monkeypatch.setattr(sl, "has_extra", lambda probe: probe in have)
    monkeypatch.setattr(sl, "can_apt", lambda: True)
    monkeypatch.setattr(sl, "apt_install_extras",
                        lambda names: (installed.extend(names), have.update(sl.EXTRAS[n][0] for n in names)))
    assert sl.main(["--install"]) == 0
    assert installed == list(sl.EXTRAS) and [sl.EXTRAS[n][1] for n in installed] == [
        "fonts-noto-core", "fonts-noto-cjk", "fonts-noto-color-emoji", "chromium", "poppler-utils"]
    monkeypatch.setattr(sl, "has_extra", lambda probe: False)
    monkeypatch.setattr(sl, "can_apt", lambda: False)
    assert sl.main(["--install"]) == 0  # optional: a note, not a failure
    assert "note: Noto CJK fonts missing (Debian package fonts-noto-cjk)" in capsys.readouterr().err


def test_the_installer_is_not_in_the_installed_package():
    root = Path(__file__).resolve().parent.parent
    assert not (root / "chargen" / "system_libraries.py").exists()
