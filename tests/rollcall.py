"""A test format made only from a character's view (:mod:`chargen.view`): its header and headline
figures, one line a character, one file a batch (``rollcall.txt``). It names no engine and no
engine's field, so it writes every engine's characters, the toy's among them."""

from __future__ import annotations

from chargen.formats import BatchInfo, Format
from chargen.engines import view_of


class RollCall(Format):
    name, suffix = "rollcall", ".txt"
    per_character = False
    batch_file = "rollcall.txt"

    def to_bytes(self, doc: dict, renderer=None) -> bytes:
        return self.join([self.part(doc)], BatchInfo(doc["system"]["engine"], ""))

    def part(self, doc: dict) -> str:
        view = view_of(doc)
        h = view.header
        figures = ", ".join(f"{f.label} {f.value}".strip() for f in view.roster)
        return f"#{h.index} {h.name} ({h.system_name} {h.version}, seed {h.seed}): {figures}\n"

    def join(self, parts: list[str], info: BatchInfo) -> bytes:
        return (f"Roll call: {info.title}\n" + "".join(parts)).encode("utf-8")
