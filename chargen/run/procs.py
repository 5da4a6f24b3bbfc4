"""What ends a run from outside: a signal to stop (SIGTERM, SIGHUP) and a worker process that dies.

* SIGTERM and SIGHUP (``timeout``, a shutdown, a closed terminal) stop a run as
  Ctrl-C does: :func:`stop_on_signals` turns them into :class:`Stopped`, a
  ``KeyboardInterrupt``, so every path that cleans up after Ctrl-C (workers
  stopped, partial files removed, the manifest saved) runs for them too; the
  exit status is 128 + the signal's number (143 for SIGTERM, 129 for SIGHUP),
  as a shell reports a process the signal ended. Workers leave both to the main
  process (:func:`worker_signals`): SIGHUP and SIGINT ignored, SIGTERM left
  as is (it is how the main process stops them).
* A worker killed (``kill -9``, the kernel's out-of-memory killer) or a fork
  server that dies loses the task it held, and ``multiprocessing.Pool`` would
  wait for it for ever. :func:`wait` and :func:`each` wait for results a
  fraction of a second at a time and look at the pool's workers between
  (``pool._pool``, the list Pool keeps of them): a worker that ended with
  anything but status 0 (a worker replaced after its ``maxtasksperchild``
  tasks ends with 0) raises :class:`WorkerDied`, which names it.
* The main process killed (``kill -9`` of chargen itself) leaves its workers orphaned: a worker
  notices (:func:`worker_signals` watches the main process from a thread) and ends at once, quietly;
  one that hands a result back before it notices dies of SIGPIPE, not of a ``BrokenPipeError``
  traceback. A fork server's pool's named semaphores, which the main process would have removed,
  are removed by the first orphan (:func:`record_semaphores`), so the resource tracker has none to
  warn of.
"""

from __future__ import annotations

import contextlib
import multiprocessing
import os
import signal
from collections.abc import Iterator

from chargen.errors import ChargenError

STOP_SIGNALS = tuple(getattr(signal, name) for name in ("SIGTERM", "SIGHUP") if hasattr(signal, name))
POLL = 0.2  # seconds between looks at the workers while a result is awaited
FORKSERVER_GONE = 255  # a fork server worker's status when the fork server itself died (multiprocessing's)


class Stopped(KeyboardInterrupt):
    """SIGTERM or SIGHUP, stopping the run as Ctrl-C does."""

    def __init__(self, signum: int):
        super().__init__(signum)
        self.signum = signum
        self.name = signal.Signals(signum).name
        self.exit_code = 128 + signum


class WorkerDied(ChargenError):
    """A worker process ended while it held work."""


def stop_on_signals() -> None:
    """In the main process: SIGTERM and SIGHUP raise :class:`Stopped` (once: a second one while the
    run cleans up is ignored, so the clean-up finishes). A pool's thread that replaces workers fails
    when their fork server is gone: the run says what died (:func:`watch`), so that thread's
    traceback is not printed."""
    import threading

    for signum in STOP_SIGNALS:
        signal.signal(signum, _stop)
    shown = threading.excepthook

    def hook(args) -> None:
        if not (issubclass(args.exc_type, (EOFError, OSError)) and args.thread is not None
                and args.thread.name.endswith("(_handle_workers)")):
            shown(args)
    threading.excepthook = hook


def _stop(signum: int, frame) -> None:
    for other in STOP_SIGNALS:
        signal.signal(other, _again)  # not SIG_IGN: a process started from here (a fork server) would inherit it
    raise Stopped(signum)


def _again(signum: int, frame) -> None:
    """A second SIGTERM or SIGHUP while the run cleans up: ignored."""


@contextlib.contextmanager
def no_hangup_for_helpers() -> Iterator[None]:
    """Processes started in this block (the fork server, multiprocessing's resource tracker) keep
    SIGHUP blocked for good: a closed terminal signals the whole group, and a helper that died of it
    would print its own warnings; the main process stops the run. A SIGHUP to this process meanwhile
    waits for the block's end."""
    hangup = getattr(signal, "SIGHUP", None)
    if hangup is None or not hasattr(signal, "pthread_sigmask"):
        yield
        return
    old = signal.pthread_sigmask(signal.SIG_BLOCK, {hangup})
    try:
        yield
    finally:
        signal.pthread_sigmask(signal.SIG_SETMASK, old)


def worker_signals(semaphores: str | None = None) -> None:
    """In a worker process: Ctrl-C and SIGHUP are the main process's to handle (it stops the workers
    and reports once); SIGTERM ends the worker (a forked worker would inherit the main's handler); a
    result handed back to a main process that is gone ends it (SIGPIPE), and so does the main
    process's end itself (:func:`_watch_main`; ``semaphores``: the file :func:`record_semaphores` writes)."""
    import threading

    signal.signal(signal.SIGINT, signal.SIG_IGN)
    for signum in STOP_SIGNALS:
        signal.signal(signum, signal.SIG_IGN if signum != signal.SIGTERM else signal.SIG_DFL)
    if hasattr(signal, "SIGPIPE"):
        signal.signal(signal.SIGPIPE, signal.SIG_DFL)
    main = multiprocessing.parent_process()
    if main is not None:
        threading.Thread(target=_watch_main, args=(main.pid, semaphores), name="chargen-orphan", daemon=True).start()


def _watch_main(pid: int, semaphores: str | None) -> None:
    """Wait for the main process ``pid`` to end; a worker still running then is an orphan: it removes the
    pool's semaphores (those no other orphan removed first) and ends, saying nothing."""
    import select
    import time

    try:
        handle = os.pidfd_open(pid)
    except (AttributeError, OSError):  # an older Linux or another system: look at the parent (the main, or
        handle = None                  # the fork server, which ends with the main) every POLL seconds
    if handle is not None:
        select.select([handle], [], [])
    else:
        parent = os.getppid()
        while os.getppid() == parent:
            time.sleep(POLL)
    _remove_semaphores(semaphores)
    os._exit(0)


def record_semaphores(pool, path: str) -> None:
    """Write the names of a fork server pool's semaphores (its queues' locks, made by the main
    process and removed by it when the pool ends) to ``path``, for its workers if they are orphaned."""
    names = [getattr(getattr(lock, "_semlock", None), "name", None)
             for queue in (pool._inqueue, pool._outqueue, pool._change_notifier)
             for lock in (getattr(queue, "_rlock", None), getattr(queue, "_wlock", None))]
    with open(path, "w", encoding="ascii") as f:
        f.write("".join(f"{name}\n" for name in names if name))


def _remove_semaphores(path: str | None) -> None:
    """In an orphan: remove each semaphore ``path`` names and take it off the resource tracker's list
    (the orphan that removes one tells the tracker; the others find it gone)."""
    if not path:
        return
    from _multiprocessing import sem_unlink
    from multiprocessing import resource_tracker

    try:
        with open(path, encoding="ascii") as f:
            names = f.read().split()
    except OSError:
        return
    for name in names:
        try:
            sem_unlink(name)
        except OSError:
            continue
        resource_tracker.unregister(name, "semaphore")


def wait(pool, result, what: str):
    """``result.get()`` (an ``AsyncResult`` of ``pool``), unless one of ``pool``'s workers dies first."""
    watch(pool, what)
    while True:
        try:
            return result.get(POLL)
        except multiprocessing.TimeoutError:
            watch(pool, what)


def each(pool, results, what: str) -> Iterator:
    """The items of ``results`` (``pool.imap(...)``), unless one of ``pool``'s workers dies first."""
    watch(pool, what)
    while True:
        try:
            yield results.next(POLL)
        except multiprocessing.TimeoutError:
            watch(pool, what)
        except StopIteration:
            return


def watch(pool, what: str) -> None:
    """Raise :class:`WorkerDied` if a worker of ``pool`` (one of ``what`` workers) ended with a status
    other than 0. Every worker seen is remembered, since the pool forgets those it replaces."""
    seen = pool.__dict__.setdefault("_chargen_seen", {})
    for process in list(getattr(pool, "_pool", ())):
        seen.setdefault(process.pid, process)
    for pid, process in seen.items():
        code = _status(process)
        if code:
            _stop_orphans(seen)
            raise WorkerDied(_died(pid, code, what))


def _status(process) -> int | None:
    """A worker's exit status as the pool's own thread found it (None: running). Not
    ``process.exitcode``: two threads polling one fork-server worker race for its status, and
    the loser reads 255, the status of a worker whose fork server died."""
    popen = getattr(process, "_popen", None)
    return None if popen is None else popen.returncode


def terminate(pool) -> None:
    """``pool.terminate()``, which takes the task queue's read lock and the result queue's write lock:
    a worker killed while it held one (waiting for a task, handing a result back) would make it
    wait for ever. So the workers are killed first, and a lock a dead one holds is released."""
    from multiprocessing.pool import TERMINATE

    pool._worker_handler._state = TERMINATE  # no more workers started in place of those that end
    seen = pool.__dict__.get("_chargen_seen", {})
    workers = list(pool._pool) + list(seen.values())
    for process in workers:
        if _status(process) is None:
            process.kill()
    for process in workers:
        process.join(5)
    for lock in (getattr(pool._inqueue, "_rlock", None), getattr(pool._outqueue, "_wlock", None)):
        if lock is not None and not lock.acquire(timeout=0.2):
            try:
                lock.release()  # held by a worker that is gone
            except ValueError:
                pass  # released meanwhile
        elif lock is not None:
            lock.release()
    pool.terminate()


def _died(pid: int, code: int, what: str) -> str:
    if code == FORKSERVER_GONE:
        return f"the fork server of the {what} workers died (its workers were stopped)"
    if code < 0:
        name = signal.Signals(-code).name if -code in signal.valid_signals() else f"signal {-code}"
        oom = " (killed by hand, or by the kernel when memory ran out)" if -code == signal.SIGKILL else ""
        return f"a {what} worker (process {pid}) was killed by {name}{oom}"
    return f"a {what} worker (process {pid}) ended with status {code}"


def _stop_orphans(seen: dict) -> None:
    """Workers whose fork server died outlive it, still running: stop them (the pool no longer can)."""
    for pid, process in seen.items():
        if _status(process) == FORKSERVER_GONE:
            try:
                os.kill(pid, signal.SIGTERM)
            except OSError:
                pass
