"""Check a blind set's shape without showing its text: counts, formats, and which labels quote
something their file does not contain (by id only — whoever changes the code never reads a set).

    .venv/bin/python -m bench.blind_check [bench/blind/v2]
"""

from __future__ import annotations

import argparse
import json
from collections import Counter
from collections.abc import Iterator
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent / "blind" / "v2"
# Labelled sessions / histories (a read-only set: rule-stating sessions).
MINIMUM = {"project": 40, "project-read": 24, "bugfix": 130, "support": 40, "career": 40}


def _labels(path: Path) -> list[dict[str, Any]]:
    return [json.loads(line) for line in path.read_text("utf-8").splitlines() if line.strip()]


def _quotes(obj: Any, where: str = "") -> Iterator[tuple[str, str]]:
    """(where, quote) for every `quote`, `line` and `evidence` string in a label, recursively."""
    if isinstance(obj, dict):
        for key, value in obj.items():
            if key in ("quote", "line") and isinstance(value, str):
                yield f"{where}.{key}", value
            elif key == "evidence" and isinstance(value, list):
                yield from ((f"{where}.evidence[{i}]", v) for i, v in enumerate(value) if isinstance(v, str))
            else:
                yield from _quotes(value, f"{where}.{key}")
    elif isinstance(obj, list):
        for i, value in enumerate(obj):
            yield from _quotes(value, f"{where}[{i}]")


def _files_of(label: dict[str, Any], folder: Path) -> list[Path]:
    named = [label.get("file"), *(s.get("file") for s in label.get("sessions", []) if isinstance(s, dict))]
    return [folder / f for f in named if isinstance(f, str)]


def _found(quote: str, text: str) -> bool:
    """A quote is in the file as written, or as JSON escapes it (inside a JSON Lines log)."""
    return quote in text or json.dumps(quote, ensure_ascii=False)[1:-1] in text or json.dumps(quote)[1:-1] in text


def check(folder: Path) -> dict[str, Any]:
    labels_file = folder / "labels.jsonl"
    if not labels_file.is_file():
        return {"set": folder.name, "error": "no labels.jsonl"}
    labels = _labels(labels_file)
    data_files = [p for p in sorted(folder.rglob("*")) if p.is_file() and p.parent != folder]
    corpus = "\n".join(p.read_text("utf-8") for p in data_files)
    formats: Counter[str] = Counter()
    missing_files: list[str] = []
    unquoted: list[str] = []
    for label in labels:
        sessions = [s for s in label.get("sessions", []) if isinstance(s, dict)]
        formats.update([label["format"]] if label.get("format") else [str(s.get("format")) for s in sessions])
        files = _files_of(label, folder)
        if not files and not sessions:
            continue  # a read-only set's rules quote no conversation (only its drafts' lines are checked)
        missing_files += [str(label.get("id")) for f in files if not f.is_file()]
        texts = "\n".join(f.read_text("utf-8") for f in files if f.is_file()) or corpus
        unquoted += [f"{label.get('id')}{w}" for w, q in _quotes(label) if not _found(q, texts)]
    others = {p.name: _labels(p) for p in folder.glob("*.jsonl") if p.name != "labels.jsonl"}
    for name, items in others.items():
        unquoted += [f"{name}:{i.get('id')}{w}" for i in items for w, q in _quotes(i) if not _found(q, corpus)]
    return {
        "set": folder.name,
        "labels": len(labels),
        "minimum": MINIMUM.get(folder.name),
        "data_files": len(data_files),
        "formats": dict(formats),
        "other_label_files": {name: len(items) for name, items in others.items()},
        "missing_files": missing_files[:50],
        "quotes_not_found": unquoted[:50],
        "quotes_not_found_count": len(unquoted),
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("root", nargs="?", type=Path, default=ROOT)
    args = parser.parse_args()
    for folder in sorted(p for p in args.root.iterdir() if p.is_dir()):
        print(json.dumps(check(folder)))


if __name__ == "__main__":
    main()
