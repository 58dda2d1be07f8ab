"""A dependency-free progress bar on stderr."""

from __future__ import annotations

import sys
import time
from typing import TextIO

__all__ = ["ProgressBar"]


class ProgressBar:
    def __init__(self, label: str, *, stream: TextIO | None = None, width: int = 30) -> None:
        self.label = label
        self.stream = stream or sys.stderr
        self.width = width
        self._last = 0.0
        self._shown = False

    def __call__(self, done: int, total: int) -> None:
        now = time.monotonic()
        if done < total and now - self._last < 0.1:
            return  # redraw at most ten times a second
        self._last = now
        fraction = 1.0 if total == 0 else done / total
        filled = int(self.width * fraction)
        bar = "#" * filled + "-" * (self.width - filled)
        self.stream.write(f"\r{self.label} [{bar}] {done:,}/{total:,} {fraction:4.0%}")
        self._shown = True
        if done >= total:
            self.stream.write("\n")
        self.stream.flush()
