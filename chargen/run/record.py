"""A run's record: the characters complete so far (:class:`Record`), the manifest that says so,
and what the run hands back (:class:`BatchResult`)."""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path

from chargen.run.files import write_manifest


@dataclass
class BatchResult:
    folder: Path
    written: list[dict] = field(default_factory=list)  # manifest entries, by index
    complete: bool = False
    new: int = 0  # characters written by this run (the rest were done before a resume)
    drawn: int = 0  # sheet files drawn by this run
    batch_files: dict | None = None  # party.pdf, index.html: their sha256 once written (None: none asked)
    already_complete: bool = False  # a resume that found nothing to do
    redone: dict[str, int] = field(default_factory=dict)  # recorded files made again on a resume, by reason


class Record:
    """The characters complete so far, and the manifest that says so (checkpoints at 1, 2, 4, 8, ...)."""

    def __init__(self, ident: dict, result: BatchResult, done: dict[int, dict]):
        self.ident, self.result, self.done = ident, result, done
        self.parts: dict[int, dict[str, str]] = {}  # each character's piece of the batch files, by index

    def add(self, entries: list[dict]) -> None:
        before = len(self.done)
        for entry in entries:
            if "parts" in entry:
                self.parts[entry["index"]] = entry.pop("parts")
            self.done[entry["index"]] = entry
        if any(checkpoint(n) for n in range(before + 1, len(self.done) + 1)):
            self.save()

    def save(self) -> None:
        self.result.written = [self.done[k] for k in sorted(self.done)]
        files = {} if self.result.batch_files is None else {"batch_files": self.result.batch_files}
        write_manifest(self.result.folder, {**self.ident, "complete": self.result.complete, **files,
                                            "characters": self.result.written})

    def snapshot(self) -> dict:
        """The manifest as it stands before the batch files (what party.pdf embeds): the same
        for a batch run whole and one finished by --resume."""
        return {**self.ident, "complete": False, "characters": [self.done[k] for k in sorted(self.done)]}


def checkpoint(n: int) -> bool:
    """Rewrite the manifest after 1, 2, 4, 8, ... characters: at most twice the final manifest's bytes in all."""
    return n & (n - 1) == 0
