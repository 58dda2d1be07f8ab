"""HttpHindsight: `HindsightAPI` over a real Hindsight server's HTTP API (1.1), through httpx.

Plain httpx rather than the `hindsight-client` package: the core is synchronous and already uses
httpx, while the client is async-first (aiohttp; its sync calls run an event loop each) and brings
about twenty packages (aiohttp, yarl, multidict, dateutil, urllib3, ...) and ~1.5 s of import for
seven endpoints. The wire format is pinned to the server version `scripts/hindsight.sh` installs,
and the integration test runs this class against that server.

Every text sent passes the scrubbing chokepoint (`store.scrub.scrub_text`), as a database write
does: the records are scrubbed already, and a secret must not reach a second store either.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any
from urllib.parse import quote

import httpx

from forethought.domain.times import format_time
from forethought.engines.hindsight.base import (
    Document,
    DocumentInfo,
    HindsightAPI,
    HindsightUnavailable,
    IndexHit,
    TagGroup,
)
from forethought.store.scrub import scrub_text

__all__ = ["HttpHindsight"]


class HttpHindsight(HindsightAPI):
    def __init__(
        self, base_url: str, *, bank: str = "forethought", timeout_s: float = 30.0, api_key: str | None = None
    ) -> None:
        self.base_url = base_url.rstrip("/")
        self.bank = bank
        headers = {"Authorization": f"Bearer {api_key}"} if api_key else {}
        self._http = httpx.Client(base_url=self.base_url, timeout=timeout_s, headers=headers)
        self._bank_path = f"/v1/default/banks/{quote(bank, safe='')}"

    def close(self) -> None:
        self._http.close()

    def _call(self, method: str, path: str, *, ok_missing: bool = False, **kwargs: Any) -> Any:
        """The JSON answer, or None for a 404 when `ok_missing`; HindsightUnavailable otherwise."""
        try:
            response = self._http.request(method, path, **kwargs)
        except httpx.HTTPError as exc:
            raise HindsightUnavailable(f"Hindsight at {self.base_url}: {type(exc).__name__}") from None
        if response.status_code == 404 and ok_missing:
            return None
        if response.status_code >= 400:
            raise HindsightUnavailable(f"Hindsight answered {response.status_code} to {method} {path.split('?')[0]}")
        return response.json() if response.content else {}

    def _doc_path(self, document_id: str) -> str:
        return f"{self._bank_path}/documents/{quote(document_id, safe='')}"

    def ensure_bank(self) -> None:
        self._call("PUT", self._bank_path, json={})

    def configure(self, updates: Mapping[str, Any]) -> dict[str, Any]:
        """Override the bank's behavioural settings (e.g. `{"enable_graph_retrieval": False}` turns
        recall's graph arm off); returns the bank's resulting configuration. Not part of
        `HindsightAPI`: the engine never changes a bank's settings, a deployment or a benchmark does."""
        answer = self._call("PATCH", f"{self._bank_path}/config", json={"updates": dict(updates)})
        config: dict[str, Any] = answer.get("config") or {}
        return config

    def retain(self, document: Document) -> None:
        item = {
            "content": scrub_text(document.text),
            "timestamp": format_time(document.timestamp),
            "document_id": document.id,
            "tags": [scrub_text(t) for t in document.tags],
            "update_mode": "replace",
        }
        self._call("POST", f"{self._bank_path}/memories", json={"items": [item], "async": False})

    def retag(self, document_id: str, tags: Sequence[str]) -> bool:
        body = {"tags": [scrub_text(t) for t in tags]}
        return self._call("PATCH", self._doc_path(document_id), ok_missing=True, json=body) is not None

    def delete(self, document_id: str) -> bool:
        return self._call("DELETE", self._doc_path(document_id), ok_missing=True) is not None

    def recall(self, query: str, groups: Sequence[TagGroup], *, max_tokens: int) -> list[IndexHit]:
        body: dict[str, Any] = {"query": query, "max_tokens": max_tokens}
        if groups:  # none: the whole bank
            body["tag_groups"] = [{"tags": list(g.tags), "match": g.match} for g in groups]
        found = self._call("POST", f"{self._bank_path}/memories/recall", json=body)
        hits = []
        for item in found.get("results") or []:
            if item.get("document_id"):
                score = (item.get("scores") or {}).get("final") or 0.0
                hits.append(IndexHit(item["document_id"], frozenset(item.get("tags") or ()), float(score)))
        return hits

    def documents(self, *, limit: int, offset: int) -> list[DocumentInfo]:
        params = {"limit": limit, "offset": offset, "time_field": "created_at"}
        page = self._call("GET", f"{self._bank_path}/documents", params=params)
        return [
            DocumentInfo(d["id"], frozenset(d.get("tags") or ()), str(d.get("content_hash") or ""))
            for d in page.get("items") or []
        ]

    def version(self) -> str:
        return str(self._call("GET", "/version").get("api_version", "unknown"))
