"""Running the git executable for the reader (`git.py`): one repository, one child environment.

An argument list, never a shell; `--no-pager`; `GIT_TERMINAL_PROMPT=0` and `LC_ALL=C`;
`GIT_CEILING_DIRECTORIES` at the repository's parent, so the folder given must itself be the
repository; every `GIT_*` variable of the environment handed in dropped (a git hook's `GIT_DIR`
cannot redirect it); at most TIMEOUT_S and MAX_OUTPUT_BYTES per call. Every failure is one line of InvalidInput.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import tempfile
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path

from forethought.errors import InvalidInput

__all__ = ["MAX_OUTPUT_BYTES", "TIMEOUT_S", "Git"]

TIMEOUT_S = 120
MAX_OUTPUT_BYTES = 256 * 1024 * 1024  # what one git call may print (the log of `limit` commits)
_SETTINGS = (
    "core.quotepath=off",
    "i18n.logOutputEncoding=UTF-8",  # a commit with an `encoding` header arrives as UTF-8 too
    "log.showSignature=false",  # never runs gpg, never mixes its output into the log
)


@dataclass(frozen=True)
class _Done:
    returncode: int
    stdout: bytes
    stderr: bytes


class Git:
    """The git executable, bound to one repository and one child environment."""

    def __init__(self, repo: Path, environ: Mapping[str, str] | None) -> None:
        repo = Path(repo)
        if not repo.exists():
            raise InvalidInput(f"{repo}: no such folder")
        if not repo.is_dir():
            raise InvalidInput(f"{repo}: not a folder")
        exe = shutil.which("git", path=environ.get("PATH") if environ else None)
        if exe is None:
            raise InvalidInput("git is not installed: no `git` executable on the PATH")
        self.repo = repo
        self.exe = exe
        self.env = {k: v for k, v in (environ or {}).items() if not k.upper().startswith("GIT_")}
        self.env.update(
            GIT_TERMINAL_PROMPT="0",
            LC_ALL="C",
            GIT_CEILING_DIRECTORIES=str(repo.resolve().parent),
            GIT_OPTIONAL_LOCKS="0",  # reading never takes a lock a running git would trip over
        )

    def has_commits(self) -> bool:
        done = self._call(("rev-parse", "--verify", "--quiet", "HEAD^{commit}"))
        if done.returncode == 0:
            return True
        if done.returncode == 1 and not done.stderr.strip():
            return False  # a repository whose branch has no commit yet
        raise self._error(done)

    def run(self, *args: str) -> bytes:
        done = self._call(args)
        if done.returncode != 0:
            raise self._error(done)
        return done.stdout

    def resolve(self, abbreviations: list[str]) -> dict[str, str]:
        """Full hashes of the abbreviations that name exactly one commit of the repository."""
        if not abbreviations:
            return {}
        done = self._call(
            ("cat-file", "--batch-check=%(objectname) %(objecttype)"), "".join(a + "\n" for a in abbreviations)
        )
        if done.returncode != 0:
            raise self._error(done)
        found: dict[str, str] = {}
        for abbreviation, line in zip(abbreviations, done.stdout.decode("ascii", "replace").splitlines(), strict=False):
            name, _, kind = line.partition(" ")
            if kind == "commit" and name.startswith(abbreviation):
                found[abbreviation] = name
        return found

    def _call(self, args: tuple[str, ...], stdin: str | None = None) -> _Done:
        argv = [self.exe, "--no-pager", "-C", str(self.repo), *(f for s in _SETTINGS for f in ("-c", s)), *args]
        try:
            with tempfile.TemporaryFile() as out:  # git's output is measured before it is read
                done = subprocess.run(
                    argv,
                    input=None if stdin is None else stdin.encode("ascii"),
                    stdin=subprocess.DEVNULL if stdin is None else None,
                    stdout=out,
                    stderr=subprocess.PIPE,
                    env=self.env,
                    timeout=TIMEOUT_S,
                    check=False,
                )
                if out.seek(0, os.SEEK_END) > MAX_OUTPUT_BYTES:
                    raise InvalidInput(
                        f"{self.repo}: git {args[0]} printed over {MAX_OUTPUT_BYTES:,} bytes; read fewer commits"
                    )
                out.seek(0)
                return _Done(done.returncode, out.read(), done.stderr)
        except subprocess.TimeoutExpired:
            raise InvalidInput(
                f"{self.repo}: git {args[0]} ran past {TIMEOUT_S} s; read fewer commits (limit, since)"
            ) from None
        except OSError as exc:
            raise InvalidInput(f"cannot run git ({exc.strerror or exc})") from None

    def _error(self, done: _Done) -> InvalidInput:
        lines = done.stderr.decode("utf-8", "replace").strip().splitlines()
        first = lines[0] if lines else f"exit status {done.returncode}"
        if first.startswith("fatal: not a git repository"):
            return InvalidInput(f"{self.repo}: not a git repository (give the repository's top folder)")
        return InvalidInput(f"{self.repo}: git: {first.removeprefix('fatal: ')[:300]}")
