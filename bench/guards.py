"""The guards on what reaches memory, measured: the instruction-like-text detector and the secret
scrubber, on tuning and blind sets written from a spec by authors who never saw the code.

    .venv/bin/python -m bench.guards [--out bench/results/guards.json]

Prints, for each set, recall and false positives overall and per phenomenon, and the failing ids
(never the text): the detector's shapes alone (`text/injection.py`), then the shapes with the
learned head (`judge/injection.py`, when its weights are installed); the scrubber as every write
runs it (`store/scrub.py`): a secret counts as caught when its exact text is gone, a clean line
as a false positive when anything in it changed.
"""

from __future__ import annotations

import argparse
import json
from collections.abc import Callable
from pathlib import Path
from typing import Any

from forethought.judge.injection import instruction_like_each
from forethought.store.scrub import scrub_text
from forethought.text.injection import find_injection

ROOT = Path(__file__).parent
INJECTION_SETS = {
    "injection v1 (tuning: steered the shapes, calibrates the head)": ROOT / "tuning/injection-v1/injection.jsonl",
    "injection v2 (blind)": ROOT / "blind/v9/injection.jsonl",
}
SECRET_SETS = {"secrets v1 (blind)": ROOT / "blind/v9/secrets.jsonl"}


def _rows(path: Path) -> list[dict[str, Any]]:
    return [json.loads(line) for line in path.read_text("utf-8").splitlines() if line.strip()]


def _score(rows: list[dict[str, Any]], right: list[bool], positive: Callable[[dict[str, Any]], bool]) -> dict[str, Any]:
    pos = [ok for r, ok in zip(rows, right, strict=True) if positive(r)]
    neg = [ok for r, ok in zip(rows, right, strict=True) if not positive(r)]
    by: dict[str, list[int]] = {}
    for row, ok in zip(rows, right, strict=True):
        cell = by.setdefault(
            str(row.get("label", "secret" if positive(row) else "clean")) + "/" + row["phenomenon"], [0, 0]
        )
        cell[0] += ok
        cell[1] += 1
    return {
        "recall": round(sum(pos) / max(1, len(pos)), 3),
        "false_positive_rate": round(1 - sum(neg) / max(1, len(neg)), 3),
        "positives": len(pos),
        "negatives": len(neg),
        "per_phenomenon": {k: f"{a}/{t}" for k, (a, t) in sorted(by.items())},
        "failing_ids": [r["id"] for r, ok in zip(rows, right, strict=True) if not ok],
    }


def injection(path: Path) -> dict[str, Any]:
    rows = _rows(path)
    truth = [r["label"] == "injection" for r in rows]
    shapes = [find_injection(r["text"]) is not None for r in rows]
    judged = [hit is not None for hit in instruction_like_each([[r["text"]] for r in rows])]

    def positive(r: dict[str, Any]) -> bool:
        return bool(r["label"] == "injection")

    return {
        "shapes": _score(rows, [a == b for a, b in zip(shapes, truth, strict=True)], positive),
        "shapes + head": _score(rows, [a == b for a, b in zip(judged, truth, strict=True)], positive),
    }


def secrets(path: Path) -> dict[str, Any]:
    rows = _rows(path)
    right = []
    for r in rows:
        out = scrub_text(r["text"])
        right.append(r["secret"] not in out if r["secret"] else out == r["text"])
    return {"scrubber": _score(rows, right, lambda r: bool(r["secret"]))}


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--out", type=Path, default=ROOT / "results/guards.json")
    args = parser.parse_args(argv)
    results: dict[str, Any] = {}
    for name, path in INJECTION_SETS.items():
        results[name] = injection(path)
    for name, path in SECRET_SETS.items():
        results[name] = secrets(path)
    for name, parts in results.items():
        for how, s in parts.items():
            print(f"{name} — {how}: recall {s['recall']} of {s['positives']}, "
                  f"false positives {s['false_positive_rate']} of {s['negatives']}")  # fmt: skip
            print("   ", ", ".join(f"{k} {v}" for k, v in s["per_phenomenon"].items()))
            print("    failing:", " ".join(s["failing_ids"]))
    args.out.parent.mkdir(parents=True, exist_ok=True)
    args.out.write_text(json.dumps(results, indent=1), "utf-8")


if __name__ == "__main__":
    main()
