from __future__ import annotations

import json
import os
import subprocess
import sys
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest

# The installed console script: tests go through the same entry point a user runs.
FORETHOUGHT = str(Path(sys.executable).with_name("forethought"))


@dataclass
class Result:
    code: int
    out: str
    err: str

    def json(self) -> Any:
        return json.loads(self.out)


class Cli:
    def __init__(self, db: Path | str, embedder: str = "hashing") -> None:
        self.db = db
        self.env = {**os.environ, "FORETHOUGHT_DB": str(db), "FORETHOUGHT_EMBEDDER": embedder}

    def __call__(self, *args: str, stdin: bytes | None = None, env: dict[str, str] | None = None) -> Result:
        proc = subprocess.run([FORETHOUGHT, *args], input=stdin, capture_output=True, timeout=120, env=env or self.env)
        return Result(proc.returncode, proc.stdout.decode("utf-8", "replace"), proc.stderr.decode("utf-8", "replace"))


@pytest.fixture
def cli(tmp_path: Path) -> Cli:
    return Cli(tmp_path / "cli.db")
