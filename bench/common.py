"""Helpers every benchmark shares: timing percentiles, memory use, machine facts, result files."""

from __future__ import annotations

import json
import os
import platform
import resource
import shlex
import sys
import time
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import numpy as np

__all__ = [
    "Stopwatch",
    "Timing",
    "command_line",
    "machine",
    "markdown_table",
    "now_iso",
    "peak_rss_mb",
    "timing",
    "write_json",
]


@dataclass(frozen=True)
class Timing:
    """Percentiles of a set of wall-clock samples, in milliseconds."""

    count: int
    p50_ms: float
    p95_ms: float
    mean_ms: float
    max_ms: float


def timing(samples_ms: Sequence[float]) -> Timing:
    if not samples_ms:
        return Timing(0, 0.0, 0.0, 0.0, 0.0)
    q = np.percentile(np.asarray(samples_ms, dtype=np.float64), [50, 95])
    return Timing(
        count=len(samples_ms),
        p50_ms=round(float(q[0]), 3),
        p95_ms=round(float(q[1]), 3),
        mean_ms=round(float(np.mean(samples_ms)), 3),
        max_ms=round(float(np.max(samples_ms)), 3),
    )


class Stopwatch:
    """Collects the duration of each `with watch.time():` block, in milliseconds."""

    def __init__(self) -> None:
        self.samples_ms: list[float] = []

    @contextmanager
    def time(self) -> Iterator[None]:
        start = time.perf_counter()
        try:
            yield
        finally:
            self.samples_ms.append((time.perf_counter() - start) * 1000)

    def summary(self) -> Timing:
        return timing(self.samples_ms)


def peak_rss_mb() -> float:
    """The process's peak resident set size so far, in MiB (Linux reports KiB, macOS bytes)."""
    peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
    return round(peak / (1024 * 1024 if sys.platform == "darwin" else 1024), 1)


def machine() -> dict[str, str | int]:
    """What the figures were measured on."""
    return {
        "python": platform.python_version(),
        "platform": platform.platform(),
        "processor": platform.processor() or platform.machine(),
        "cpu_count": os.cpu_count() or 0,
        "cpus_usable": len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else os.cpu_count() or 0,
        "numpy": np.__version__,
    }


def command_line() -> str:
    return " ".join(shlex.quote(a) for a in [Path(sys.executable).name, "-m", _module_name(), *sys.argv[1:]])


def _module_name() -> str:
    main = sys.modules.get("__main__")
    spec = getattr(main, "__spec__", None)
    return spec.name if spec is not None else Path(sys.argv[0]).stem


def now_iso() -> str:
    return datetime.now(UTC).replace(microsecond=0).isoformat()


def write_json(path: Path, payload: Any) -> None:
    """Write `payload` as indented JSON, atomically: a reader never sees a half-written file."""
    path.parent.mkdir(parents=True, exist_ok=True)
    tmp = path.with_suffix(path.suffix + ".tmp")
    tmp.write_text(json.dumps(payload, indent=2) + "\n")
    tmp.replace(path)


def markdown_table(header: Sequence[str], rows: Sequence[Sequence[str]]) -> str:
    """A GitHub-flavoured Markdown table; the first column left-aligned, the others right."""
    widths = [max(len(str(r[i])) for r in [header, *rows]) for i in range(len(header))]

    def line(cells: Sequence[str]) -> str:
        out = [
            str(c).ljust(w) if i == 0 else str(c).rjust(w) for i, (c, w) in enumerate(zip(cells, widths, strict=True))
        ]
        return "| " + " | ".join(out) + " |"

    rule = "|" + "|".join(("-" * (w + 1) + ":") if i else (":" + "-" * (w + 1)) for i, w in enumerate(widths)) + "|"
    return "\n".join([line(header), rule, *(line(r) for r in rows)])
