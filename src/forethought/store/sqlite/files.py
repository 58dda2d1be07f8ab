"""Files the store writes hold a workspace's memory, so only their owner may read them.

The database, its `-wal` and `-shm` sidecars, the vector snapshots beside it: each is made
owner-only (0600; the snapshot folder 0700) whatever the process umask, by creating it with that
mode before anything writes to it (`os.open`, then `fchmod`, as the umask may clear bits of the
mode asked for). SQLite gives its sidecars the main file's mode; they are set again after opening,
in case a file made by an older version is already there.
"""

from __future__ import annotations

import os
from pathlib import Path

__all__ = ["FILE_MODE", "FOLDER_MODE", "SIDECARS", "create_private", "make_private", "private_folder", "write_private"]

FILE_MODE = 0o600
FOLDER_MODE = 0o700
SIDECARS = ("-wal", "-shm", "-journal")


def create_private(path: Path) -> None:
    """Create `path` empty and owner-only if it does not exist (an existing file is left alone)."""
    try:
        fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, FILE_MODE)
    except FileExistsError:
        return
    try:
        os.fchmod(fd, FILE_MODE)  # the umask may have taken bits from the mode given to os.open
    finally:
        os.close(fd)


def make_private(database: Path) -> None:
    """Owner-only modes on a database's sidecars that exist now."""
    for suffix in SIDECARS:
        sidecar = database.with_name(database.name + suffix)
        try:
            os.chmod(sidecar, FILE_MODE)
        except FileNotFoundError:
            continue


def private_folder(folder: Path) -> None:
    """`folder` (and missing parents) created owner-only; an existing one is made owner-only."""
    folder.mkdir(mode=FOLDER_MODE, parents=True, exist_ok=True)
    os.chmod(folder, FOLDER_MODE)


def write_private(path: Path, data: bytes) -> None:
    """Write `path` whole, created owner-only (it is replaced if it exists)."""
    fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, FILE_MODE)
    with os.fdopen(fd, "wb") as handle:
        os.fchmod(handle.fileno(), FILE_MODE)
        handle.write(data)
