"""A git repository's commit messages, read into `SourceDocument`s (one per commit, oldest first).

`read_git_log(repo)` runs the `git` executable (an argument list, never a shell) on the commits
reachable from HEAD, newest `limit` of them, and reads each message with `git_messages.py`:

- a commit that says something becomes a document the app's extractor reads (`extract=True`),
  its one turn the cleaned message, spoken by the author's name (the e-mail is never asked for);
- a revert (`This reverts commit <hash>.`) becomes a document that proposes retracting what the
  reverted commit gave (`ItemAction.RETRACT`, `target_ref="git:<full hash>"`) and is not extracted;
  an abbreviated hash is resolved against the commits read, then against the repository;
- noise (merge commits, work in progress, fixups, version bumps and releases, formatting or typo
  fixes, empty messages, a revert whose commit cannot be found) is not a document at all: it is
  listed in `GitImport.skipped` as (short hash, reason), in log order, for the pipeline to report.

Nothing is scrubbed here (secrets are scrubbed when the documents are filed), and nothing is written.

git runs with `GIT_TERMINAL_PROMPT=0`, `LC_ALL=C`, no pager, no colour, no external diff, and
with `GIT_CEILING_DIRECTORIES` at the repository's parent, so `repo` itself must be the repository
(a working tree's top folder or a bare repository), never a folder inside one. The library does not
read the process environment: an entry point passes it as `environ` (git then reads the user's
configuration, e.g. `safe.directory`); without it git starts with only the variables above. Either
way every `GIT_*` variable of `environ` is dropped, so a git hook's `GIT_DIR` cannot redirect it.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path

from forethought.apps.project.sources.git_messages import Message, read_message
from forethought.apps.project.sources.git_run import Git
from forethought.domain.documents import ItemAction, SourceDocument, SourceItem
from forethought.domain.records import Role
from forethought.domain.sessions import Turn
from forethought.errors import BackendError, InvalidInput

__all__ = ["MAX_FILES", "GitImport", "read_git_log"]

MAX_FILES = 100  # paths kept per commit in metadata["files"]; metadata["files_total"] counts them all
SHORT = 12  # characters of a short hash
MAX_TITLE = 200
_FORMAT = "%H%x00%P%x00%an%x00%aI%x00%B"  # NUL-separated: git prints no NUL inside a message
_FULL_HASH = re.compile(rb"[0-9a-f]{40}|[0-9a-f]{64}")
_EMAIL = re.compile(r"<?[^\s@<>]+@[^\s@<>]+>?")


@dataclass(frozen=True)
class GitImport:
    documents: list[SourceDocument]  # oldest first
    skipped: list[tuple[str, str]]  # (short hash, reason), oldest first: noise, reported, never filed
    truncated: bool  # the log had more than `limit` commits: only the newest `limit` were read


@dataclass(frozen=True)
class _Commit:
    hash: str
    parents: int
    author: str
    author_date: datetime | None  # None: git could not read the author line
    raw_date: str
    message: str
    files: tuple[str, ...]


def read_git_log(
    repo: Path,
    *,
    since: datetime | None = None,
    limit: int = 10_000,
    environ: Mapping[str, str] | None = None,
) -> GitImport:
    """The newest `limit` commits of HEAD (committed at or after `since`, git's `--since`).

    Raises InvalidInput (one line) when git is missing, `repo` is not a repository, `since` has no
    time zone, `limit` is not positive, or git fails, runs past TIMEOUT_S or prints more than
    MAX_OUTPUT_BYTES (`git_run.py`); BackendError when git's output cannot be parsed. An empty
    repository (no commit yet) reads as an empty import.
    """
    if isinstance(limit, bool) or not isinstance(limit, int) or limit < 1:
        raise InvalidInput(f"limit must be a positive whole number, not {limit!r}")
    window = [] if since is None else [f"--since={_since(since)}"]
    git = Git(repo, environ)
    if not git.has_commits():
        return GitImport(documents=[], skipped=[], truncated=False)
    out = git.run(
        "log",
        "-z",
        "--raw",
        "--no-renames",
        "--no-color",
        "--no-ext-diff",
        "--no-textconv",
        f"--format={_FORMAT}",
        f"--max-count={limit + 1}",
        "--reverse",
        *window,
        "HEAD",
        "--",
    )
    commits = _parse(out)
    truncated = len(commits) > limit
    if truncated:
        commits = commits[1:]  # the oldest one: it was only asked for to know there were more
    documents, skipped = _build(commits, git)
    return GitImport(documents=documents, skipped=skipped, truncated=truncated)


def _since(since: datetime) -> str:
    if not isinstance(since, datetime):
        raise InvalidInput(f"since must be a datetime, not {type(since).__name__}")
    if since.tzinfo is None or since.utcoffset() is None:
        raise InvalidInput("since must carry a time zone (a naive datetime is ambiguous)")
    utc = since.astimezone(UTC)
    if utc.year < 1970:
        raise InvalidInput(f"since must be 1970 or later, not {utc.year}")
    return utc.isoformat(timespec="seconds")


def _parse(out: bytes) -> list[_Commit]:
    """Commits from `git log -z --raw --format=_FORMAT`.

    Per commit: hash, parents, author, date, message (five NUL-terminated fields, the message's
    terminator being the commit separator), then, when the commit changed files, one raw entry per
    path (`:mode mode blob blob status`, the first led by a newline) each followed by its path.
    """
    tokens = out.split(b"\0")
    commits: list[_Commit] = []
    i = 0
    while i < len(tokens):
        if not tokens[i]:
            i += 1  # the separator after the last commit
            continue
        if i + 5 > len(tokens) or not _FULL_HASH.fullmatch(tokens[i]):
            raise BackendError(f"git log printed output this reader cannot parse (at field {i})")
        head, parents, author, date, message = tokens[i : i + 5]
        i += 5
        files: list[str] = []
        while i + 1 < len(tokens) and tokens[i].lstrip(b"\n").startswith(b":"):
            files.append(tokens[i + 1].decode("utf-8", "replace"))
            i += 2
        raw_date = date.decode("ascii", "replace")
        try:
            when: datetime | None = datetime.fromisoformat(raw_date)
        except ValueError:
            when = None
        commits.append(
            _Commit(
                hash=head.decode("ascii"),
                parents=len(parents.split()),
                author=author.decode("utf-8", "replace"),
                author_date=when,
                raw_date=raw_date,
                message=message.decode("utf-8", "replace"),
                files=tuple(files),
            )
        )
    return commits


def _build(commits: list[_Commit], git: Git) -> tuple[list[SourceDocument], list[tuple[str, str]]]:
    read = [(c, read_message(c.message)) for c in commits]
    targets = _targets([m.commit for _, msg in read for m in msg.reverts], [c.hash for c in commits], git)
    documents: list[SourceDocument] = []
    skipped: list[tuple[str, str]] = []
    for commit, message in read:
        reason = _skip(commit, message, targets)
        if reason is not None:
            skipped.append((commit.hash[:SHORT], reason))
        else:
            documents.append(_document(commit, message, targets))
    return documents, skipped


def _skip(commit: _Commit, message: Message, targets: dict[str, str]) -> str | None:
    if commit.parents > 1:
        return "merge commit"
    if commit.author_date is None:
        return "unreadable author line"
    if message.skip is not None:
        return message.skip
    if message.reverts and not any(r.commit in targets for r in message.reverts):
        return "revert of a commit not in the repository"
    return None


def _targets(abbreviations: list[str], hashes: list[str], git: Git) -> dict[str, str]:
    """Each reverted hash given by a message, to the full hash of the one commit it names."""
    found: dict[str, str] = {}
    unresolved: list[str] = []
    for abbreviation in dict.fromkeys(abbreviations):
        matches = [h for h in hashes if h.startswith(abbreviation)]
        if len(matches) == 1:
            found[abbreviation] = matches[0]
        else:
            unresolved.append(abbreviation)  # older than the commits read, or ambiguous among them
    found.update(git.resolve(unresolved))
    return found


def _document(commit: _Commit, message: Message, targets: dict[str, str]) -> SourceDocument:
    short = commit.hash[:SHORT]
    metadata: dict[str, object] = {
        "hash": commit.hash,
        "short": short,
        "author_date": commit.raw_date,
        "subject": message.subject,
        "files": list(commit.files[:MAX_FILES]),
    }
    if len(commit.files) > MAX_FILES:
        metadata["files_total"] = len(commit.files)
    for key, value in (("type", message.kind), ("area", message.area), ("truncated_from", message.truncated_from)):
        if value is not None:
            metadata[key] = value
    if message.breaking:
        metadata["breaking"] = True
    reverted: dict[str, str] = {}  # full hash -> the first line naming it
    for revert in message.reverts:
        if revert.commit in targets:
            reverted.setdefault(targets[revert.commit], revert.quote)
    items = tuple(
        SourceItem(quote=quote, action=ItemAction.RETRACT, target_ref=f"git:{full}") for full, quote in reverted.items()
    )
    if reverted:
        metadata["reverts"] = list(reverted)
    turn = Turn(
        index=0, role=Role.USER, speaker=_speaker(commit.author), text=message.text, occurred_at=commit.author_date
    )
    return SourceDocument(
        ref=f"git:{commit.hash}",
        source="git",
        title=f"commit {short}: {message.subject}"[:MAX_TITLE],
        occurred_at=commit.author_date,
        turns=(turn,),
        items=items,
        extract=not message.reverts,
        metadata=metadata,
    )


def _speaker(name: str) -> str | None:
    """The author's name; when the name is an e-mail address (it happens), only its local part."""
    name = name.strip()
    return (name.partition("@")[0].lstrip("<") if _EMAIL.fullmatch(name) else name) or None
