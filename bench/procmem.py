"""Peak memory of the processes a benchmark involves, read from Linux's /proc.

`VmHWM` in /proc/PID/status is a process's peak resident set size so far; a process that has
already exited cannot be read, so call `tree_peaks` while the servers still run (PostgreSQL forks a
backend per connection: read it before closing the benchmark's connections). The sum over a tree
counts shared pages (PostgreSQL's shared buffers, a forked worker's copy-on-write pages) once per
process, so it is an upper bound of what the tree held at once.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

__all__ = ["ProcessPeak", "children", "parse_status", "peak_mb", "tree_peaks"]

PROC = Path("/proc")


@dataclass(frozen=True)
class ProcessPeak:
    pid: int
    name: str
    peak_rss_mb: float  # VmHWM


def parse_status(text: str) -> tuple[str, float | None]:
    """The name and VmHWM (MiB) of one /proc/PID/status text; None for a kernel thread or zombie."""
    name, peak = "", None
    for line in text.splitlines():
        key, _, value = line.partition(":")
        if key == "Name":
            name = value.strip()
        elif key == "VmHWM":
            peak = round(int(value.split()[0]) / 1024, 1)  # kB
    return name, peak


def children(pid: int, proc: Path = PROC) -> list[int]:
    """The pids of `pid`'s children (every thread's), empty when it is gone."""
    found: list[int] = []
    for task in (proc / str(pid) / "task").glob("*"):
        try:
            found.extend(int(c) for c in (task / "children").read_text().split())
        except OSError:
            continue
    return sorted(set(found))


def peak_mb(pid: int, proc: Path = PROC) -> ProcessPeak | None:
    try:
        name, peak = parse_status((proc / str(pid) / "status").read_text())
    except OSError:
        return None
    return None if peak is None else ProcessPeak(pid, name, peak)


def tree_peaks(pid: int, proc: Path = PROC) -> list[ProcessPeak]:
    """The peak of `pid` and of each of its living descendants, parent first."""
    out: list[ProcessPeak] = []
    todo = [pid]
    while todo:
        current = todo.pop(0)
        found = peak_mb(current, proc)
        if found is not None:
            out.append(found)
        todo.extend(children(current, proc))
    return out
