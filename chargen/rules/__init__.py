"""Rules modules: folders of YAML files, loaded safely, validated into typed rules.

A module folder holds ``module.yaml`` (id, name, version, mechanic, engine) and
one YAML file per rules concern. The ``engine`` names the Python interpreter of
those files (see :mod:`chargen.engines`). The rules hash is the SHA-256 of the
module's data in canonical JSON: a character records it, so a changed table
shows as a changed hash.
"""

from __future__ import annotations

import hashlib
import json
import re
from dataclasses import dataclass, field
from pathlib import Path

from chargen import engines
from chargen.errors import ChargenError, RulesError, printable
from chargen.flavour import FILE as FLAVOUR_FILE
from chargen.rules.check import Cursor, Problems
from chargen.rules.flavour import build as build_flavour
from chargen.rules.merge import apply_overlays
from chargen.rules.overlay import check_targets, read_overlays
from chargen.rules.yamlio import Located, load_file, load_text, read_text

BUILTIN_DIR = Path(__file__).parent
MAX_FILES_PER_MODULE = 64
MAX_MODULE_BYTES = 8_000_000
MAX_MODULES_PER_DIR = 64


@dataclass(frozen=True)
class RulesModule:
    id: str
    name: str
    version: str
    mechanic: str
    description: str
    engine: str
    path: str
    hash: str
    rules: object  # the engine's typed rules
    overlays: tuple = ()  # {name, hash} of each overlay applied, in order
    data: dict = field(default_factory=dict, compare=False, repr=False)  # file stem -> the (merged) YAML data
    builtin: bool = True
    flavour: object = field(default=None, compare=False, repr=False)  # chargen.rules.flavour.Flavour, or None


def builtin_ids() -> list[str]:
    return sorted(p.name for p in BUILTIN_DIR.iterdir() if (p / "module.yaml").is_file())


def read_module_files(folder: Path, label: str, builtin: bool = False) -> dict[str, Located]:
    """Every YAML file of a module folder (``builtin``: one of chargen's own); the problems of all
    files are reported at once."""
    try:
        files = sorted(p for p in folder.iterdir() if p.suffix in (".yaml", ".yml"))
    except OSError as e:
        raise RulesError([f"{label}: cannot list the folder ({e.strerror or e})"]) from None
    if len(files) > MAX_FILES_PER_MODULE:
        raise RulesError([f"{label}: {len(files)} YAML files (at most {MAX_FILES_PER_MODULE})"])
    docs: dict[str, Located] = {}
    problems = Problems()
    total = 0
    for p in files:
        try:
            text = read_text(p, f"{label}/{p.name}")
            total += len(text)
            if total > MAX_MODULE_BYTES:
                raise RulesError([f"{label}: the module's files are larger than {MAX_MODULE_BYTES} bytes together"])
            docs[p.stem] = load_text(text, f"{label}/{p.name}", builtin)
        except RulesError as e:
            if total > MAX_MODULE_BYTES:
                raise
            problems.extend(e)
    problems.raise_if_any()
    if "module" not in docs:
        raise RulesError([f"{label}: no module.yaml (a rules module needs one: id, name, version, mechanic, engine)"])
    return docs


def rules_hash(docs: dict[str, Located], play_files: tuple[str, ...] = ()) -> str:
    """The hash of the module's rules; the flavour tables (``flavour.yaml``) and the engine's play files (its
    combat tables) are left out: they change no value a character's rules compute, and a character made
    before a module had them, or before a house rule changed them, still finds its rules."""
    left_out = {FLAVOUR_FILE, *play_files}
    canonical = json.dumps({k: docs[k].data for k in sorted(docs) if k not in left_out}, sort_keys=True, ensure_ascii=False,
                           separators=(",", ":"), default=str)
    return "sha256:" + hashlib.sha256(canonical.encode("utf-8")).hexdigest()


def build_module(docs: dict[str, Located], path: str, overlays: tuple = (), builtin: bool = True) -> RulesModule:
    """Validate a module's documents with its engine; every problem found is reported at once."""
    problems = Problems()
    meta = Cursor.root(docs["module"], problems)
    meta.mapping(required=("id", "name", "version", "mechanic"),
                 optional=("description", "engine", "currency"))
    ident = meta["id"].ident()
    name = meta["name"].str()
    version = meta["version"].str(40)
    mechanic = meta["mechanic"].str()
    description = meta["description"].str(1000, multiline=True) if meta["description"].present else ""
    engine_id = meta["engine"].ident() if meta["engine"].present else ident
    engine = engines.get(engine_id) if engine_id else None
    if engine is None and engine_id:
        meta["engine" if meta["engine"].present else "id"].fail(
            f"no engine '{engine_id}' (expected one of: {', '.join(engines.ids())})")
    typed = engine.build_rules(docs, problems) if engine is not None else None
    flavour = build_flavour(docs, problems)
    problems.raise_if_any()
    return RulesModule(ident, name, version, mechanic, description, engine_id, path,
                       rules_hash(docs, engine.play_files if engine else ()), typed, overlays, {k: docs[k].data for k in docs}, builtin, flavour)


_CACHE: dict[str, RulesModule] = {}
_DOCS: dict[str, dict[str, Located]] = {}


def _builtin_docs(system_id: str) -> dict[str, Located]:
    if system_id not in _DOCS:
        _DOCS[system_id] = read_module_files(BUILTIN_DIR / system_id, f"chargen/rules/{system_id}", builtin=True)
    return _DOCS[system_id]


_ID = re.compile(r"[a-z][a-z0-9_]{0,63}")


def check_id(system_id: object) -> str:
    """A system id is an id, looked up among the modules, never a path: refuse anything else."""
    if not isinstance(system_id, str) or not _ID.fullmatch(system_id):
        shown = printable(str(system_id))[:80]
        raise ChargenError(f"unknown system '{shown}' (a system id is lower-case letters, digits and '_'; "
                           f"see 'chargen systems')")
    return system_id


def load_builtin(system_id: str) -> RulesModule:
    if system_id not in _CACHE:
        check_id(system_id)
        if system_id not in builtin_ids():
            raise ChargenError(f"unknown system '{system_id}' (expected one of: {', '.join(builtin_ids())})")
        _CACHE[system_id] = build_module(_builtin_docs(system_id), f"chargen/rules/{system_id}")
    return _CACHE[system_id]


def find_modules(rules_dirs: list[Path] | tuple[Path, ...]) -> dict[str, Path]:
    """Own modules: id -> folder. A rules dir is a module folder or a folder of module folders."""
    found: dict[str, Path] = {}
    for d in rules_dirs:
        try:
            if not d.is_dir():
                raise ChargenError(f"--rules-dir '{d}': not a folder")
            folders = [d] if (d / "module.yaml").is_file() else \
                sorted(p for p in d.iterdir() if p.is_dir() and (p / "module.yaml").is_file())
        except OSError as e:
            raise ChargenError(f"--rules-dir '{d}': cannot list the folder ({e.strerror or e})") from None
        if not folders:
            raise ChargenError(f"--rules-dir '{d}': no rules modules (expected folders holding a module.yaml)")
        if len(folders) > MAX_MODULES_PER_DIR:
            raise ChargenError(f"--rules-dir '{d}': {len(folders)} modules (at most {MAX_MODULES_PER_DIR})")
        for folder in folders:
            ident = _module_id(folder)
            if ident in builtin_ids():
                raise ChargenError(f"{folder}/module.yaml: id '{ident}' is a built-in module's (choose another id, "
                                   "or change the built-in one with an overlay)")
            if ident in found:
                raise ChargenError(f"{folder}/module.yaml: id '{ident}' is also the id of {found[ident]}")
            found[ident] = folder
    return found


def _module_id(folder: Path) -> str:
    doc = load_file(folder / "module.yaml", f"{folder}/module.yaml")
    problems = Problems()
    c = Cursor.root(doc, problems)
    ident = c["id"].ident() if isinstance(doc.data, dict) and "id" in doc.data else c.fail("missing key 'id'")
    problems.raise_if_any()
    return ident


def installed_modules() -> dict[str, Path]:
    """The rules modules engines from outside the package ship (``Engine.modules``): id -> folder."""
    found: dict[str, Path] = {}
    for engine in engines.installed():
        for folder in engine.modules:
            found.setdefault(_module_id(folder), folder)
    return found


def module_ids(rules_dirs: list[Path] | tuple[Path, ...] = ()) -> list[str]:
    """Every module: the built-in ones, then installed engines' and own ones (an own one of the same id wins)."""
    return builtin_ids() + sorted(set(find_modules(rules_dirs)) | set(installed_modules()) - set(builtin_ids()))


def module_docs(system_id: str, rules_dirs: list[Path] | tuple[Path, ...] = ()) -> tuple[dict[str, Located], str, bool]:
    """The unmerged documents of a module, its label, and whether it is built in."""
    check_id(system_id)
    own = find_modules(rules_dirs) if rules_dirs else {}
    if system_id in own:
        return read_module_files(own[system_id], str(own[system_id])), str(own[system_id]), False
    if system_id in builtin_ids():
        return _builtin_docs(system_id), f"chargen/rules/{system_id}", True
    installed = installed_modules()
    if system_id in installed:
        return read_module_files(installed[system_id], str(installed[system_id])), str(installed[system_id]), False
    known = builtin_ids() + sorted(set(own) | set(installed))
    raise ChargenError(f"unknown system '{system_id}' (expected one of: {', '.join(known)})")


def load_module(system_id: str, overlays: list[Path] | tuple[Path, ...] = (),
                rules_dirs: list[Path] | tuple[Path, ...] = ()) -> RulesModule:
    """A rules module (built in, or from ``rules_dirs``) with ``overlays`` applied in order."""
    if not overlays and not rules_dirs and system_id in builtin_ids():
        return load_builtin(system_id)
    docs, label, builtin = module_docs(system_id, rules_dirs)
    if not overlays:
        return load_builtin(system_id) if builtin else build_module(docs, label, builtin=False)
    read = read_overlays(list(overlays))
    problems = Problems()
    check_targets(read, system_id, problems)
    problems.raise_if_any()
    merged = apply_overlays(docs, read, problems)
    try:  # validate what could be applied too, so every problem is reported at once
        module = build_module(merged, label, tuple(o.record() for o in read), builtin)
    except RulesError as e:
        problems.extend(e)
    problems.raise_if_any()
    return module


def load_modules_for(system_ids: list[str], overlays: list[Path] | tuple[Path, ...] = (),
                     rules_dirs: list[Path] | tuple[Path, ...] = ()) -> tuple[RulesModule, ...]:
    """The rules modules of ``system_ids`` (saved characters' modules), each with only the
    ``overlays`` that change it, in the order given. An overlay for none of them is an error."""
    read = read_overlays(list(overlays))
    problems = Problems()
    for o in read:
        if o.target not in system_ids:
            Cursor(o.doc, ("overlay",), o.target, problems).fail(
                f"this overlay changes module '{o.target}', and no character given was made with it "
                f"(they were made with: {', '.join(system_ids)})")
    problems.raise_if_any()
    return tuple(load_module(i, [p for p, o in zip(overlays, read) if o.target == i], rules_dirs)
                 for i in system_ids)
