"""Validate asset names under Assets/Art against the import-preset naming rules."""
from __future__ import annotations

import re
from dataclasses import dataclass
from pathlib import Path

from pipeline.log import get_logger

log = get_logger(__name__)

TEXTURE = re.compile(r"^T_[A-Z][A-Za-z0-9]*_(D|N|M)$")
PREFIXED = {
    ".fbx": re.compile(r"^(SM|SK)_[A-Z][A-Za-z0-9]*$"),
    ".mat": re.compile(r"^M_[A-Z][A-Za-z0-9]*$"),
    ".prefab": re.compile(r"^(FX_[A-Z][A-Za-z0-9]*|[A-Z][A-Za-z0-9]*)$"),
}
TEXTURE_EXT = {".png", ".tga"}
SOURCE_ART = {".psd", ".blend", ".spp", ".ztl", ".kra"}


@dataclass(frozen=True)
class Violation:
    path: Path
    reason: str


def check(path: Path) -> Violation | None:
    ext = path.suffix.lower()
    if ext in SOURCE_ART:
        return Violation(path, "source art does not belong in the repo (art NAS)")
    if ext in TEXTURE_EXT and not TEXTURE.match(path.stem):
        return Violation(path, "texture must be T_<PascalName>_(D|N|M)")
    pattern = PREFIXED.get(ext)
    if pattern and not pattern.match(path.stem):
        return Violation(path, f"name does not match {pattern.pattern}")
    return None


def run(root: Path = Path("Assets/Art")) -> int:
    violations = [v for p in sorted(root.rglob("*")) if p.is_file() and (v := check(p))]
    for v in violations:
        log.error("%s: %s", v.path, v.reason)
    log.info("naming check: %d violations", len(violations))
    return 1 if violations else 0
