"""The sheet workers' fork server, started without importing the rest of the run wing (see
:mod:`chargen.launch`; :class:`chargen.run.sheets.SheetStage` starts it the same way if not started)."""

from __future__ import annotations


def start_forkserver(pdf: bool) -> None:
    """Start the fork server (which imports WeasyPrint, about a second) without waiting for it. Its
    processes preload the sheet stage, and with ``pdf`` (party.pdf is written) the PDF maker."""
    import multiprocessing
    from multiprocessing import forkserver

    from chargen.run.procs import no_hangup_for_helpers

    multiprocessing.get_context("forkserver").set_forkserver_preload(preload(pdf))
    with no_hangup_for_helpers():  # a closed terminal's SIGHUP is the main process's to handle
        forkserver.ensure_running()


def preload(pdf: bool) -> list[str]:
    return ["chargen.run.sheets"] + (["chargen.render.pdf"] if pdf else [])
