"""The batch pipeline's generation stage: one character document per index.

A document is the engine's body wrapped in an envelope that says how to make
it again: the schema version, the rules module (id, version, data hash and any
overlays) and the seeds. Character *i* depends only on the batch seed, *i* and
the rules, never on the batch's size.
"""

from __future__ import annotations

from collections.abc import Iterator

from chargen.dice import Roller
from chargen.rules import RulesModule
from chargen.seeds import character_rng, character_seed
from chargen.systems import engine_for

SCHEMA_VERSION = "chargen-character/1"


def make_character(module: RulesModule, batch_seed: int, index: int) -> dict:
    roller = Roller(character_rng(batch_seed, index))
    body = engine_for(module.engine).generate(module.rules, roller, batch_seed, index)
    doc = {
        "schema": SCHEMA_VERSION,
        "system": {
            "id": module.id,
            "name": module.name,
            "version": module.version,
            "engine": module.engine,
            "rules_hash": module.hash,
            "overlays": [dict(o) for o in module.overlays],
        },
        "seed": {
            "batch": batch_seed,
            "index": index,
            "character": character_seed(batch_seed, index),
        },
    }
    doc.update(body)
    doc["rolls"] = [r.to_dict() for r in roller.log]
    return doc


def characters(module: RulesModule, batch_seed: int, indices: range) -> Iterator[dict]:
    for i in indices:
        yield make_character(module, batch_seed, i)
