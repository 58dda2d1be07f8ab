"""The git reader (`apps/project/sources/git.py`) on real repositories made here with the real git.

Every repository is built in a temporary folder by the git executable, with its dates set through
GIT_AUTHOR_DATE / GIT_COMMITTER_DATE and no user or system configuration. Without git on the PATH
these tests fail (they never skip): reading a repository is what they are about.
"""

from __future__ import annotations

import os
import shutil
import subprocess
from datetime import UTC, datetime, timedelta, timezone
from pathlib import Path

import pytest

from forethought.apps.project.sources import git_run
from forethought.apps.project.sources.git import MAX_FILES, GitImport, read_git_log
from forethought.apps.project.sources.git_messages import MAX_MESSAGE_CHARS
from forethought.domain.documents import ItemAction, SourceDocument
from forethought.domain.records import Role
from forethought.errors import InvalidInput

GIT = shutil.which("git")
AUTHOR = "Ada Lovelace"
EMAIL = "ada.lovelace@example.org"
T0 = datetime(2024, 1, 1, 9, 0, tzinfo=UTC)


@pytest.fixture(autouse=True)
def _git_is_installed() -> None:
    if GIT is None:
        pytest.fail("git is not installed: the git reader's tests run the real git executable", pytrace=False)


class Repo:
    """A repository in a temporary folder, each commit a day after the one before."""

    def __init__(self, path: Path) -> None:
        path.mkdir()
        self.path = path
        self.clock = T0
        self.git("init", "-q", "-b", "main")

    def git(self, *args: str, when: datetime | None = None, config: tuple[str, ...] = ()) -> str:
        env = {k: v for k, v in os.environ.items() if not k.startswith("GIT_")}
        env.update(GIT_CONFIG_GLOBAL=os.devnull, GIT_CONFIG_NOSYSTEM="1", GIT_LITERAL_PATHSPECS="1", LC_ALL="C")
        if when is not None:
            env.update(GIT_AUTHOR_DATE=when.isoformat(), GIT_COMMITTER_DATE=when.isoformat())
        settings = ["user.name=" + AUTHOR, "user.email=" + EMAIL, "commit.gpgsign=false", *config]
        argv = [str(GIT), "-C", str(self.path), *(f for s in settings for f in ("-c", s)), *args]
        return subprocess.run(argv, env=env, capture_output=True, check=True).stdout.decode().strip()

    def commit(
        self,
        message: str | bytes,
        *,
        files: dict[str, str] | None = None,
        when: datetime | None = None,
        config: tuple[str, ...] = (),
    ) -> str:
        """Commit `message` (verbatim, as bytes when given bytes); the new commit's full hash."""
        self.clock = when or self.clock + timedelta(days=1)
        for name, text in (files or {}).items():
            (self.path / name).parent.mkdir(parents=True, exist_ok=True)
            (self.path / name).write_text(text, "utf-8")
            self.git("add", "--", name)
        note = self.path.parent / f"{self.path.name}.message"
        note.write_bytes(message if isinstance(message, bytes) else message.encode("utf-8"))
        flags = ["--allow-empty", "--allow-empty-message", "--cleanup=verbatim", "-F", str(note)]
        self.git("commit", "-q", *flags, when=self.clock, config=config)
        return self.git("rev-parse", "HEAD")

    def raw_commit(self, message: bytes) -> str:
        """A commit object written byte for byte (`git commit` would re-encode a non-UTF-8 message)."""
        self.clock += timedelta(days=1)
        stamp = f"{int(self.clock.timestamp())} +0000"
        parent = self.git("rev-parse", "HEAD")
        head = f"tree {self.git('write-tree')}\nparent {parent}\n"
        head += f"author {AUTHOR} <{EMAIL}> {stamp}\ncommitter {AUTHOR} <{EMAIL}> {stamp}\n\n"
        note = self.path.parent / f"{self.path.name}.object"
        note.write_bytes(head.encode() + message)
        full = self.git("hash-object", "-t", "commit", "-w", str(note))
        self.git("update-ref", "HEAD", full)
        return full


@pytest.fixture
def repo(tmp_path: Path) -> Repo:
    return Repo(tmp_path / "repo")


def by_subject(result: GitImport) -> dict[str, SourceDocument]:
    return {d.metadata["subject"]: d for d in result.documents}


def test_a_conventional_commit_reads_as_a_sentence_with_its_scope_as_the_area(repo: Repo) -> None:
    full = repo.commit(
        "fix(auth): never cache tokens because they rotate\n\n"
        "Tokens rotate every hour, so a cached one fails the next call.\n\n"
        "Keep the refresh path as the only place that stores one.\n",
        files={"src/auth/tokens.py": "x = 1\n"},
    )
    [doc] = read_git_log(repo.path).documents
    assert doc.ref == f"git:{full}"
    assert doc.source == "git"
    assert doc.title == f"commit {full[:12]}: fix(auth): never cache tokens because they rotate"
    assert doc.extract is True and doc.items == () and doc.skipped is None
    assert doc.occurred_at == repo.clock and doc.occurred_at.tzinfo is not None
    [turn] = doc.turns
    assert turn.index == 0 and turn.role is Role.USER and turn.speaker == AUTHOR
    assert turn.occurred_at == repo.clock
    assert turn.text == (
        "Never cache tokens because they rotate.\n\n"
        "Tokens rotate every hour, so a cached one fails the next call.\n\n"
        "Keep the refresh path as the only place that stores one."
    )
    assert doc.metadata["area"] == "auth"
    assert doc.metadata["type"] == "fix"
    assert doc.metadata["subject"] == "fix(auth): never cache tokens because they rotate"
    assert doc.metadata["hash"] == full and doc.metadata["short"] == full[:12]
    assert doc.metadata["files"] == ["src/auth/tokens.py"]
    assert datetime.fromisoformat(doc.metadata["author_date"]) == repo.clock


def test_documents_come_oldest_first_with_the_authors_time_zone(repo: Repo) -> None:
    plus_two = timezone(timedelta(hours=2))
    repo.commit("feat: payments are stored in integer cents", when=datetime(2024, 3, 1, 10, tzinfo=plus_two))
    repo.commit("Use UTC timestamps in every log line")
    docs = read_git_log(repo.path).documents
    assert [d.metadata["subject"] for d in docs] == [
        "feat: payments are stored in integer cents",
        "Use UTC timestamps in every log line",
    ]
    assert docs[0].occurred_at is not None and docs[0].occurred_at.utcoffset() == timedelta(hours=2)
    assert docs[0].turns[0].text == "Payments are stored in integer cents."
    assert docs[1].turns[0].text == "Use UTC timestamps in every log line."
    assert "area" not in docs[1].metadata and "type" not in docs[1].metadata


def test_a_merge_commit_is_skipped_and_the_branch_commits_are_read(repo: Repo) -> None:
    repo.commit("Start the service skeleton", files={"a.txt": "a"})
    repo.git("checkout", "-q", "-b", "feature")
    side = repo.commit("Retry webhooks three times before giving up", files={"b.txt": "b"})
    repo.git("checkout", "-q", "main")
    repo.commit("Log every refund with its reason", files={"c.txt": "c"})
    repo.clock += timedelta(days=1)
    repo.git("merge", "-q", "--no-ff", "-m", "Merge branch 'feature'", "feature", when=repo.clock)
    merge = repo.git("rev-parse", "HEAD")
    result = read_git_log(repo.path)
    assert (merge[:12], "merge commit") in result.skipped
    assert f"git:{side}" in {d.ref for d in result.documents}
    assert len(result.documents) == 3


def test_noise_commits_are_listed_as_skipped_in_log_order(repo: Repo) -> None:
    repo.commit("feat(api): every list endpoint is paginated")
    wip = repo.commit("WIP")
    fixup = repo.commit("fixup! feat(api): every list endpoint is paginated")
    bump = repo.commit("Bump requests from 2.31.0 to 2.32.3\n\nBumps requests.\n")
    empty = repo.commit("")
    result = read_git_log(repo.path)
    assert [d.metadata["subject"] for d in result.documents] == ["feat(api): every list endpoint is paginated"]
    assert result.skipped == [
        (wip[:12], "work in progress"),
        (fixup[:12], "fixup commit"),
        (bump[:12], "version bump or release"),
        (empty[:12], "empty message"),
    ]


def test_a_revert_retracts_the_reverted_decision(repo: Repo) -> None:
    decision = repo.commit(
        "feat(payments): store amounts as floats for simplicity", files={"pay.py": "amount: float\n"}
    )
    repo.commit("Document the refund flow", files={"docs.md": "refunds\n"})
    repo.clock += timedelta(days=1)
    repo.git("revert", "--no-edit", decision, when=repo.clock)
    revert = repo.git("rev-parse", "HEAD")
    doc = by_subject(read_git_log(repo.path))['Revert "feat(payments): store amounts as floats for simplicity"']
    assert doc.ref == f"git:{revert}"
    assert doc.extract is False
    [item] = doc.items
    assert item.action is ItemAction.RETRACT
    assert item.target_ref == f"git:{decision}"
    assert item.quote == f"This reverts commit {decision}."
    assert item.quote in doc.turns[item.turn_index].text
    assert doc.metadata["reverts"] == [decision]


def test_an_abbreviated_reverted_hash_resolves_to_the_full_one(repo: Repo) -> None:
    decision = repo.commit("Cache product pages for five minutes", files={"cache.py": "TTL = 300\n"})
    repo.commit(f'Revert "Cache product pages for five minutes"\n\nThis reverts commit {decision[:8]}.\n')
    [_, doc] = read_git_log(repo.path).documents
    assert [i.target_ref for i in doc.items] == [f"git:{decision}"]
    assert doc.items[0].quote == f"This reverts commit {decision[:8]}."
    # the reverted commit is not among those read: the repository resolves it
    [only] = read_git_log(repo.path, limit=1).documents
    assert [i.target_ref for i in only.items] == [f"git:{decision}"]


def test_a_revert_of_several_commits_retracts_each_once(repo: Repo) -> None:
    one = repo.commit("Queue emails through the worker", files={"mail.py": "queue = True\n"})
    two = repo.commit("Send receipts as PDF", files={"pdf.py": "pdf = True\n"})
    body = f"This reverts commit {one}.\n\nThis reverts commit {two[:9]}.\n\nThis reverts commit {one[:7]}.\n"
    repo.commit('Revert "the mail changes"\n\n' + body)
    doc = read_git_log(repo.path).documents[-1]
    assert [i.target_ref for i in doc.items] == [f"git:{one}", f"git:{two}"]
    assert [i.quote for i in doc.items] == [f"This reverts commit {one}.", f"This reverts commit {two[:9]}."]
    assert doc.metadata["reverts"] == [one, two]


def test_a_revert_of_a_commit_that_does_not_exist_is_skipped(repo: Repo) -> None:
    gone = repo.commit('Revert "Something"\n\nThis reverts commit 0123456789abcdef0123456789abcdef01234567.\n')
    assert read_git_log(repo.path).skipped == [(gone[:12], "revert of a commit not in the repository")]


def test_trailers_go_and_no_email_address_is_returned(repo: Repo) -> None:
    repo.commit(
        "refactor(db): one connection pool per process\n\n"
        "Pools per request exhausted the server's connection limit.\n\n"
        "Signed-off-by: Ada Lovelace <ada.lovelace@example.org>\n"
        "Co-authored-by: Grace Hopper <grace@example.net>\n"
        "Reviewed-by: Alan Turing <alan@example.com>\n"
        "Cc: ops@example.com\n"
        "Change-Id: I8a7f5c3e2b1d0a9f8e7d6c5b4a3f2e1d0c9b8a7f\n"
    )
    doc = read_git_log(repo.path).documents[0]
    assert doc.turns[0].text == (
        "One connection pool per process.\n\nPools per request exhausted the server's connection limit."
    )
    repo.commit("Pin the base image by digest", config=("user.name=grace@example.net",))
    result = read_git_log(repo.path)
    assert result.documents[1].turns[0].speaker == "grace"
    everything = repr(result)
    assert "@example" not in everything and "Change-Id" not in everything
    assert EMAIL not in everything


def test_since_keeps_the_commits_from_that_time_on(repo: Repo) -> None:
    for n in range(1, 6):
        repo.commit(f"Rule number {n} holds")
    third = T0 + timedelta(days=3)
    result = read_git_log(repo.path, since=third)
    assert [d.metadata["subject"] for d in result.documents] == [
        "Rule number 3 holds",
        "Rule number 4 holds",
        "Rule number 5 holds",
    ]
    assert read_git_log(repo.path, since=third + timedelta(seconds=1)).documents[0].metadata["subject"] == (
        "Rule number 4 holds"
    )
    assert read_git_log(repo.path, since=T0 + timedelta(days=30)) == GitImport([], [], False)


def test_limit_keeps_the_newest_commits_and_says_it_truncated(repo: Repo) -> None:
    for n in range(1, 6):
        repo.commit(f"Rule number {n} holds")
    cut = read_git_log(repo.path, limit=3)
    assert cut.truncated is True
    assert [d.metadata["subject"] for d in cut.documents] == [
        "Rule number 3 holds",
        "Rule number 4 holds",
        "Rule number 5 holds",
    ]
    whole = read_git_log(repo.path, limit=5)
    assert whole.truncated is False and len(whole.documents) == 5


def _one_line(exc: pytest.ExceptionInfo[InvalidInput]) -> str:
    text = str(exc.value)
    assert "\n" not in text and "Traceback" not in text
    return text


def test_a_folder_that_is_not_a_repository_is_invalid_input(tmp_path: Path) -> None:
    (tmp_path / "plain").mkdir()
    with pytest.raises(InvalidInput) as exc:
        read_git_log(tmp_path / "plain")
    assert "not a git repository" in _one_line(exc)


def test_a_folder_inside_a_repository_is_not_the_repository(repo: Repo) -> None:
    repo.commit("Start", files={"pkg/a.py": "a"})
    with pytest.raises(InvalidInput, match="not a git repository"):
        read_git_log(repo.path / "pkg")


def test_a_missing_path_or_a_file_is_invalid_input(tmp_path: Path) -> None:
    with pytest.raises(InvalidInput) as exc:
        read_git_log(tmp_path / "nowhere")
    assert "no such folder" in _one_line(exc)
    (tmp_path / "file.txt").write_text("x")
    with pytest.raises(InvalidInput, match="not a folder"):
        read_git_log(tmp_path / "file.txt")


def test_git_missing_from_the_path_is_invalid_input(repo: Repo, tmp_path: Path) -> None:
    (tmp_path / "empty-bin").mkdir()
    with pytest.raises(InvalidInput) as exc:
        read_git_log(repo.path, environ={"PATH": str(tmp_path / "empty-bin")})
    assert "git is not installed" in _one_line(exc)


def test_bad_since_and_limit_are_invalid_input(repo: Repo) -> None:
    repo.commit("Start")
    with pytest.raises(InvalidInput, match="time zone"):
        read_git_log(repo.path, since=datetime(2024, 1, 1))
    with pytest.raises(InvalidInput, match="1970"):
        read_git_log(repo.path, since=datetime(1960, 1, 1, tzinfo=UTC))
    for bad in (0, -1, True):
        with pytest.raises(InvalidInput, match="limit"):
            read_git_log(repo.path, limit=bad)


def test_an_empty_repository_reads_as_nothing(repo: Repo) -> None:
    assert read_git_log(repo.path) == GitImport(documents=[], skipped=[], truncated=False)


def test_a_git_hooks_environment_cannot_redirect_the_reader(repo: Repo, tmp_path: Path) -> None:
    repo.commit("Mine")
    other = Repo(tmp_path / "other")
    other.commit("Not mine")
    environ = {**os.environ, "GIT_DIR": str(other.path / ".git"), "GIT_WORK_TREE": str(other.path)}
    [doc] = read_git_log(repo.path, environ=environ).documents
    assert doc.metadata["subject"] == "Mine"


def test_a_message_that_is_not_utf8_is_decoded_with_replacement(repo: Repo) -> None:
    repo.commit("Start")
    repo.raw_commit(b"fix: names like Jos\xe9 are kept as typed\n")
    repo.commit(
        "fix: names like José keep their accent\n".encode("latin-1"), config=("i18n.commitEncoding=ISO-8859-1",)
    )
    _, raw, declared = read_git_log(repo.path).documents
    assert raw.turns[0].text == "Names like Jos\ufffd are kept as typed."
    assert declared.turns[0].text == "Names like José keep their accent."


def test_control_bytes_in_messages_and_odd_file_names_parse(repo: Repo) -> None:
    hash_like = "0123456789abcdef0123456789abcdef01234567"
    repo.commit("Separators \x1e and \x1f stay in the text", files={hash_like: "x", "we ird\nname.txt": "y"})
    repo.commit(":colon first is fine", files={":odd": "z"})
    first, second = read_git_log(repo.path).documents
    assert first.turns[0].text == "Separators \x1e and \x1f stay in the text."
    assert sorted(first.metadata["files"]) == sorted([hash_like, "we ird\nname.txt"])
    assert second.metadata["files"] == [":odd"]


def test_files_are_bounded(repo: Repo) -> None:
    repo.commit("Split the fixtures into one file each", files={f"f/{n:03}.txt": str(n) for n in range(150)})
    [doc] = read_git_log(repo.path).documents
    assert len(doc.metadata["files"]) == MAX_FILES
    assert doc.metadata["files_total"] == 150


def test_a_long_message_is_cut_and_says_so(repo: Repo) -> None:
    body = ("Every payment is idempotent by its request key. " * 700)[:29_950]
    message = "Payments are idempotent\n\n" + body + "\n"
    repo.commit(message)
    [doc] = read_git_log(repo.path).documents
    assert doc.metadata["truncated_from"] == len(message)
    assert len(doc.turns[0].text) <= MAX_MESSAGE_CHARS + 1  # the subject's added full stop
    assert doc.turns[0].text.startswith("Payments are idempotent.\n\nEvery payment is idempotent")


def test_secret_like_text_is_returned_as_written(repo: Repo) -> None:
    secret = "sk_live_51HqLyjWDarjtT1zdp7dcXdSkzMeE2KjSxE9YFSLzAKbWmNhOiBlX"
    repo.commit(f"Use the staging key {secret} for the smoke tests\n\nAWS_SECRET_ACCESS_KEY=wJalrXUtnFEMI/K7MDENG\n")
    [doc] = read_git_log(repo.path).documents
    assert secret in doc.turns[0].text
    assert "AWS_SECRET_ACCESS_KEY=wJalrXUtnFEMI/K7MDENG" in doc.turns[0].text


def test_a_title_is_at_most_200_characters(repo: Repo) -> None:
    repo.commit("Keep " + "every handler small and " * 20 + "testable")
    [doc] = read_git_log(repo.path).documents
    assert len(doc.title) == 200 and doc.title.startswith("commit ")
    assert doc.metadata["subject"].endswith("testable")


def test_git_output_and_time_are_bounded(repo: Repo, monkeypatch: pytest.MonkeyPatch) -> None:
    repo.commit("Every rule is short\n\n" + "Because long ones go unread. " * 20)
    monkeypatch.setattr(git_run, "MAX_OUTPUT_BYTES", 100)
    with pytest.raises(InvalidInput, match="printed over 100 bytes"):
        read_git_log(repo.path)
    monkeypatch.setattr(git_run, "MAX_OUTPUT_BYTES", 1 << 20)
    monkeypatch.setattr(git_run, "TIMEOUT_S", 1e-9)
    with pytest.raises(InvalidInput, match="ran past"):
        read_git_log(repo.path)
