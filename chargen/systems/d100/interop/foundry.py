"""``foundry`` and ``foundry_npc``: a Foundry VTT actor for the ``brp`` 13 system (Basic Roleplaying),
one file per character, and the whole batch in ``party.foundry.json`` (a JSON array of actors).

Why ``brp`` and not ``rqg`` (``/work/shared/reference/formats.md`` section 2):
brp is the generic D100 family D100 II belongs to, is ORC-licensed, and is the
only consumer model that keeps a skill's sources apart (``base``, ``culture``,
``profession``, ``personality``, ``personal``, ``xp``, ``effects``), as chargen
records them; rqg is licence-restricted, Glorantha-specific (runes, passions,
its own twelve skill categories) and keeps only a base and a gained chance.

A file is what Foundry's "Import Data" takes: ``{name, type, img, system, items, effects, flags,
_stats}``; ``foundry`` writes brp's ``character`` type, ``foundry_npc`` its ``npc`` type (skills
scored base only, weapons by ``npcVal``). What the items hold and how brp's preparation lands on
chargen's figures: :mod:`chargen.systems.d100.interop.foundry_actor`. The whole chargen document
rides in ``flags.chargen.document`` (Foundry keeps a module's flags), so what brp has no field for
is not lost.

A batch goes into Foundry in one step with the import macro shipped as
``examples/foundry/import-party.js``: it asks for ``party.foundry.json`` and creates every actor,
in a folder named after the file (Foundry's own "Import Data" takes one actor, into an actor
that exists already; a compendium module would need Foundry's LevelDB packs, which only Foundry
or its CLI writes).
"""

from __future__ import annotations

import json

from chargen.formats import BatchInfo, Format
from chargen.inert import inert, inert_strings
from chargen.systems.d100.interop import foundry_actor

IMG = "icons/svg/mystery-man.svg"  # Foundry's default actor image
# source: default (brp 13.1.55, the release whose preparation was run on chargen's output; it runs on
# Foundry 13 only, verified with 13.351 - brp's system.json)
CORE_VERSION, SYSTEM_VERSION = "13.351", "13.1.55"
BATCH_FILE = "party.foundry.json"


def actor(doc: dict, npc: bool = False) -> dict:
    """``doc`` as a brp actor (``npc``: brp's npc type)."""
    system = foundry_actor.system_data(doc)
    if npc:
        flavour = system.get("biography")
        system = {k: v for k, v in system.items() if k in ("stats", "health", "power", "move", "description")}
        if flavour:
            system["extDesc"] = flavour  # brp's npc has no biography: its extended description
        system["hp"] = {"stat1": "siz", "stat2": "con", "multi": 0.5}  # brp's npc total: ceil((SIZ+CON)/2) + mod
    return {"name": inert(doc["identity"]["name"]), "type": "npc" if npc else "character", "img": IMG,
            "system": inert_strings(system), "items": inert_strings(foundry_actor.items(doc, npc)), "effects": [],
            "flags": {"chargen": {"document": doc}},  # as made: Foundry never shows or enriches a flag
            "_stats": {"systemId": "brp", "systemVersion": SYSTEM_VERSION, "coreVersion": CORE_VERSION}}


class FoundryFormat(Format):
    name, suffix = "foundry", ".foundry.json"
    engines = ("d100",)
    batch_file = BATCH_FILE
    npc = False

    def to_bytes(self, doc: dict, renderer=None) -> bytes:
        self.check_engine(doc["system"]["engine"])
        return (json.dumps(actor(doc, self.npc), ensure_ascii=False, indent=2) + "\n").encode("utf-8")

    def part(self, doc: dict) -> str:
        self.check_engine(doc["system"]["engine"])
        return json.dumps(actor(doc, self.npc), ensure_ascii=False)

    def join(self, parts: list[str], info: BatchInfo) -> bytes:
        return ("[\n" + ",\n".join(parts) + "\n]\n").encode("utf-8")


class FoundryNpcFormat(FoundryFormat):
    name, suffix = "foundry_npc", ".foundry-npc.json"
    batch_file = "party.foundry-npc.json"
    npc = True
