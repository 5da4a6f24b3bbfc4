"""``chargen rules check`` and ``chargen rules show``: validate rules files, print effective rules.

:func:`check_path` takes an overlay file, a module folder, a file inside a
module folder, or a folder of module folders, and returns every problem found
(``file:line: key.path: what is wrong (what is allowed)``) with a one-line
summary. :func:`show_rules` prints a module's effective (merged) data as YAML.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path

import yaml

from chargen.errors import ChargenError, RulesError
from chargen.rules import (
    BUILTIN_DIR, MAX_MODULES_PER_DIR, RulesModule, build_module, builtin_ids, module_docs, read_module_files,
)
from chargen.rules.check import Problems
from chargen.rules.merge import apply_overlays
from chargen.rules.overlay import read_overlay
from chargen.rules.yamlio import load_file


@dataclass
class CheckReport:
    checked: list[str] = field(default_factory=list)  # one line per module or overlay that is valid
    problems: list[str] = field(default_factory=list)

    @property
    def ok(self) -> bool:
        return not self.problems


def check_path(path: Path, rules_dirs: tuple[Path, ...] = ()) -> CheckReport:
    """Validate what ``path`` holds; never raises for bad rules (they are the report)."""
    report = CheckReport()
    try:
        if _is_dir(path):
            _check_folder(path, report)
        elif _is_file(path.parent / "module.yaml") and not _is_overlay(path):
            _check_module(path.parent, str(path.parent), report)
        elif _is_party(path):
            _check_party(path, rules_dirs, report)
        else:
            _check_overlay(path, rules_dirs, report)
    except RulesError as e:
        report.problems.extend(e.problems)
    return report


def _is_dir(path: Path) -> bool:
    try:
        return path.is_dir()
    except OSError as e:
        raise RulesError([f"{path}: cannot read ({e.strerror or e})"]) from None


def _is_file(path: Path) -> bool:
    try:
        return path.is_file()
    except OSError:
        return False


def _is_party(path: Path) -> bool:
    from chargen.run.party import is_party_file

    return _is_file(path) and is_party_file(path)


def _check_party(path: Path, rules_dirs: tuple[Path, ...], report: CheckReport) -> None:
    """A party file (``chargen party``): its keys, lines, archetypes and counts against its module."""
    from chargen.run.party import check_party

    problems = check_party(path, rules_dirs)
    report.problems.extend(problems)
    if not problems:
        report.checked.append(f"{path} (party file)")


def _is_overlay(path: Path) -> bool:
    try:
        data = load_file(path).data
    except RulesError:
        return False
    return isinstance(data, dict) and "overlay" in data


def _check_folder(folder: Path, report: CheckReport) -> None:
    if (folder / "module.yaml").is_file():
        _check_module(folder, str(folder), report)
        return
    try:
        modules = sorted(p for p in folder.iterdir() if p.is_dir() and (p / "module.yaml").is_file())
    except OSError as e:
        raise RulesError([f"{folder}: cannot list the folder ({e.strerror or e})"]) from None
    if not modules:
        raise RulesError([f"{folder}: no module.yaml here or in its sub-folders (a rules module is a folder "
                          "holding module.yaml and its rules files)"])
    if len(modules) > MAX_MODULES_PER_DIR:
        raise RulesError([f"{folder}: {len(modules)} modules (at most {MAX_MODULES_PER_DIR})"])
    for m in modules:
        _check_module(m, str(m), report)


def _check_module(folder: Path, label: str, report: CheckReport) -> None:
    try:
        docs = read_module_files(folder, label)
        module = build_module(docs, label, builtin=False)
    except RulesError as e:
        report.problems.extend(e.problems)
        return
    if module.id in builtin_ids() and folder.resolve() != (BUILTIN_DIR / module.id).resolve():
        line = docs["module"].line(("id",))
        report.problems.append(f"{label}/module.yaml:{line}: id: '{module.id}' is a built-in module's id; an own "
                               "module needs its own (change it; to change the built-in module, use an overlay)")
        return
    report.checked.append(f"{label}: module '{module.id}' ({module.name} {module.version}, "
                          f"engine {module.engine}), rules hash {module.hash}")


def _check_overlay(path: Path, rules_dirs: tuple[Path, ...], report: CheckReport) -> None:
    overlay = read_overlay(path)
    try:
        docs, label, builtin = module_docs(overlay.target, rules_dirs)
    except ChargenError as e:
        raise RulesError([f"{path}:{overlay.doc.line(('overlay',))}: overlay: {e}"]) from None
    problems = Problems()
    merged = apply_overlays(docs, [overlay], problems)
    try:
        module = build_module(merged, label, (overlay.record(),), builtin)
    except RulesError as e:
        problems.extend(e)
    if problems.items:
        report.problems.extend(problems.items)
        return
    report.checked.append(f"{path}: overlay '{overlay.name}' ({overlay.hash}) for module '{module.id}', "
                          f"{len(overlay.operations)} change{'s' if len(overlay.operations) != 1 else ''}, "
                          f"rules hash {module.hash}")


def show_rules(module: RulesModule, only: str | None = None) -> str:
    """The module's effective rules as YAML, one top-level key per rules file."""
    if only is not None and only not in module.data:
        raise ChargenError(f"module '{module.id}' has no rules file '{only}' "
                           f"(expected one of: {', '.join(sorted(module.data))})")
    lines = [f"# {module.id}: {module.name} {module.version} ({'built in' if module.builtin else module.path})",
             f"# rules hash: {module.hash}"]
    lines += [f"# overlay: {o['name']} ({o['hash']})" for o in module.overlays]
    stems = [only] if only else ["module"] + sorted(k for k in module.data if k != "module")
    body = yaml.safe_dump({k: module.data[k] for k in stems}, sort_keys=False, allow_unicode=True,
                          default_flow_style=False, width=100)
    return "\n".join(lines) + "\n" + body
