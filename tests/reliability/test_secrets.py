"""A known secret through every write path of every front end never reaches the database.

One database takes writes from the CLI (a real process), the HTTP API and the web workspace (the
real application, in process) and MCP (a real stdio server). Every field a path writes carries a
fresh secret of some issuer's shape and a marker word: titles, file names, turn text, statements,
contexts, attributes, external ids, reasons, key names, chat messages. Afterwards the
raw bytes of the database, its WAL and every file beside it are searched: each marker is there
(the write happened) and no secret's random part is (it was scrubbed before it was bound).
"""

from __future__ import annotations

import json
import re
import secrets
import string
from collections.abc import Callable
from pathlib import Path

import pytest
from fastapi.testclient import TestClient

from forethought import Forethought
from forethought.server import ServerSettings, create_app
from tests.cli.conftest import Cli
from tests.mcp.conftest import run, stdio_client, text

_ALNUM = string.ascii_letters + string.digits


def _random(n: int, alphabet: str = _ALNUM) -> str:
    body = "".join(secrets.choice(alphabet) for _ in range(n - 2))
    return body + secrets.choice(string.ascii_lowercase) + secrets.choice(string.digits)  # mixed, as keys are


_SHAPES: list[Callable[[], tuple[str, str]]] = [  # (the secret as written, its random part to search for)
    lambda: (f"ghp_{(b := _random(36))}", b),
    lambda: (f"sk-proj-{(b := _random(40))}", b),
    lambda: (f"glpat-{(b := _random(20))}", b),
    lambda: (f"hf_{(b := _random(34))}", b),
    lambda: (f"npm_{(b := _random(36))}", b),
    lambda: (f"xoxb-{(b := _random(40))}", b),
    lambda: (f"https://hooks.slack.com/services/T0{(b := _random(30))}", b),
    lambda: (f"ft_{secrets.token_hex(6)}_{(b := _random(43))}", b),
    lambda: (f"api_key={(b := _random(32))}", b),
    lambda: (f"Authorization: Basic {(b := _random(24))}", b),
]


class Planted:
    """Secrets and markers handed out per write path; a leak names its path."""

    def __init__(self) -> None:
        self.secrets: dict[str, str] = {}  # random part -> path
        self.markers: dict[str, str] = {}  # marker -> path

    def __call__(self, path: str) -> str:
        secret, needle = _SHAPES[len(self.secrets) % len(_SHAPES)]()
        marker = f"mark{len(self.markers):03d}q"
        self.secrets[needle] = path
        self.markers[marker] = path
        return f"{marker} {secret}"


def _raw_bytes(folder: Path) -> bytes:
    return b"".join(p.read_bytes() for p in sorted(folder.rglob("*")) if p.is_file())


_CSRF = re.compile(r'name="csrf" value="([^"]+)"')
_LOGIN_TOKEN = re.compile(r'name="login_token" value="([^"]+)"')
_APP, _SUBJECT = "generic", "vault"
_API = f"/v1/apps/{_APP}/subjects/{_SUBJECT}"
_WEB = f"/web/apps/{_APP}/{_SUBJECT}"


def _candidate(client: TestClient, planted: Planted, path: str) -> str:
    body = {"text": f"Deploys need two reviewers {planted(path)}.", "kind": "rule", "status": "candidate"}
    made = client.post(f"{_API}/records", json=body)
    assert made.status_code == 201, made.text
    record_id: str = made.json()["record"]["id"]
    return record_id


def _through_the_api(client: TestClient, planted: Planted) -> None:
    def ok(response: object, *codes: int) -> None:
        status = getattr(response, "status_code", None)
        assert status in (codes or (200, 201)), getattr(response, "text", "")[:500]

    transcript = f"user: The staging host is alpha-3 {planted('api session text')}.\nassistant: Noted."
    ok(client.post(f"{_API}/sessions", json={"title": planted("api session title"), "text": transcript}))
    messages = [{"role": "user", "content": f"We deploy on Fridays {planted('api session messages')}."}]
    ok(client.post(f"{_API}/sessions", json={"title": "messages", "messages": messages}))
    ok(client.post(f"{_API}/turns", json={"message": f"{planted('api turn opening a session')} what is left?"}))
    retained = client.post(
        f"{_API}/records",
        json={
            "text": f"The release train leaves at noon {planted('api record text')}.",
            "kind": "rule",
            "context": planted("api record context"),
            "attributes": {"note": planted("api record attribute"), "password": f"pw{_random(12)}"},
            "external_id": planted("api record external id").replace(" ", "-"),
        },
    )
    ok(retained)
    record_id = retained.json()["record"]["id"]
    replaced = client.post(
        f"{_API}/records/{record_id}/supersede",
        json={"text": f"The release train leaves at one {planted('api supersede text')}.",
              "reason": planted("api supersede reason")},
    )  # fmt: skip
    ok(replaced)
    new_id = replaced.json()["id"]
    ok(client.post(f"{_API}/records/{new_id}/retract", json={"why": planted("api retract reason")}))
    ok(client.post(f"{_API}/inbox/{_candidate(client, planted, 'api candidate')}/reject",
                   json={"reason": planted("api reject reason")}))  # fmt: skip
    edited = _candidate(client, planted, "api candidate to edit")
    ok(client.post(f"{_API}/inbox/{edited}/edit",
                   json={"text": f"Deploys need one reviewer {planted('api edit text')}.",
                         "reason": planted("api edit reason")}))  # fmt: skip
    ok(client.post("/v1/keys", json={"name": planted("api key name")[:64]}))


def _through_the_web(client: TestClient, key: str, planted: Planted) -> None:
    form = client.get("/web/login")
    token = _LOGIN_TOKEN.search(form.text)
    assert token is not None
    done = client.post("/web/login", data={"key": key, "login_token": token.group(1), "next": "/web"})
    csrf = _CSRF.search(done.text)
    assert done.status_code == 200 and csrf is not None, done.text[:500]

    def post(path: str, data: dict[str, str], **kw: object) -> None:
        response = client.post(path, data={"csrf": csrf.group(1), **data}, **kw)  # type: ignore[arg-type]
        assert response.status_code == 200, response.text[:500]

    text = f"user: The vault opens at nine {planted('web import text')}.\nassistant: Noted."
    post(f"{_WEB}/import", {"text": text, "title": planted("web import title")})
    upload = f"user: The vault closes at five {planted('web upload text')}.\nassistant: Noted."
    post(f"{_WEB}/import", {}, files={"file": (planted("web file name").replace(" ", "_") + ".txt", upload.encode())})
    post(f"{_WEB}/chat", {"message": f"{planted('web chat opening a session')} anything on the vault?"})


def _through_mcp(db: Path, planted: Planted) -> None:
    transcript = f"user: Backups run hourly {planted('mcp transcript')}.\nassistant: Noted."

    async def submit() -> None:
        async with stdio_client(db, "--app", _APP, "--space", _SUBJECT) as client:
            result = await client.call_tool(
                "forethought_submit_session", {"transcript": transcript, "title": planted("mcp title")}
            )
            assert not result.is_error, text(result)

    run(submit)


def _through_the_cli(cli: Cli, folder: Path, planted: Planted) -> None:
    def ok(*args: str) -> str:
        result = cli(*args)
        assert result.code == 0, (args, result.err)
        return result.out.strip()

    space = ("--app", _APP, "--space", _SUBJECT)
    made = ok("--json", "retain", *space, "--kind", "rule", "--id", planted("cli external id").replace(" ", "-"),
              f"Tags are signed {planted('cli retain text')}.")  # fmt: skip
    record_id = json.loads(made)["id"]
    new = json.loads(ok("--json", "supersede", *space, "--why", planted("cli supersede reason"), record_id,
                        f"Tags are signed twice {planted('cli supersede text')}."))["id"]  # fmt: skip
    ok("retract", *space, "--why", planted("cli retract reason"), new)
    transcript = folder / "standup.txt"
    transcript.write_text(f"user: Tags are cut on Mondays {planted('cli transcript')}.\nassistant: Noted.\n")
    ok("submit", *space, "--file", str(transcript), "--title", planted("cli submit title"))
    ok("keys", "create", "--workspace", "cli", "--name", planted("cli key name")[:64])
    ok("chat", *space, f"{planted('cli chat')} what changed?")


@pytest.mark.slow
def test_no_secret_written_through_any_front_end_reaches_the_database_files(tmp_path: Path) -> None:
    folder = tmp_path / "db"
    folder.mkdir()
    db = folder / "memory.db"
    planted = Planted()
    with Forethought.open(db, embedder="hashing") as memory:
        _, key = memory.create_api_key("sweep", name="sweep", role="admin")  # admin: key names are a write path
        app = create_app(memory, ServerSettings(rate_per_second=0))
        with TestClient(app, headers={"Authorization": f"Bearer {key}"}, raise_server_exceptions=False) as client:
            _through_the_api(client, planted)
        with TestClient(app, raise_server_exceptions=False, follow_redirects=True) as browser:
            _through_the_web(browser, key, planted)
    _through_mcp(db, planted)
    _through_the_cli(Cli(db), tmp_path, planted)

    raw = _raw_bytes(folder)
    assert raw, "no database files"
    missing = [path for marker, path in planted.markers.items() if marker.encode() not in raw]
    assert missing == [], f"these writes never reached the database: {missing}"
    leaked = [path for needle, path in planted.secrets.items() if needle.encode() in raw]
    assert leaked == [], f"secrets stored through: {leaked}"
