"""The set-up's check of WeasyPrint's system libraries: by loading them, installing only where it can."""

from chargen import system_libraries as sl


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
