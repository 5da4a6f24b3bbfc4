"""Run a command and report the peak memory of its whole process tree: ``python tests/treepeak.py CMD...``.

This process becomes a child subreaper (Linux ``PR_SET_CHILD_SUBREAPER``), so every descendant of the
command (sheet workers, a fork server) that outlives its parent is handed to it and waited for here;
``wait4`` gives each one's peak resident memory. Prints ``<exit status> <largest peak KB> <sum of
peaks KB> <seconds>`` on stdout; the command's stderr passes through, its stdout is discarded.
"""

from __future__ import annotations

import ctypes
import os
import subprocess
import sys
import time

PR_SET_CHILD_SUBREAPER = 36


def main(argv: list[str]) -> None:
    ctypes.CDLL(None, use_errno=True).prctl(PR_SET_CHILD_SUBREAPER, 1, 0, 0, 0)
    started = time.perf_counter()
    proc = subprocess.Popen(argv, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    err = proc.stderr.read()
    largest = total = 0
    status, seconds = None, 0.0
    while True:
        try:
            pid, waited, usage = os.wait4(-1, 0)
        except ChildProcessError:
            break
        largest, total = max(largest, usage.ru_maxrss), total + usage.ru_maxrss
        if pid == proc.pid:
            status, seconds = os.waitstatus_to_exitcode(waited), time.perf_counter() - started
    sys.stderr.buffer.write(err)
    print(status, largest, total, f"{seconds:.3f}")


if __name__ == "__main__":
    main(sys.argv[1:])
