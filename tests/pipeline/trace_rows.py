"""Trace rows as the store holds them, in the JSON shape the turn wrote before its parts were typed
models: a trace must still load from them, and the HTTP API must still show them the same way."""

from __future__ import annotations

from typing import Any

TRACE_ID = "01M8RGDVTRP9ETSF2RFCZHT3WZ"
SESSION_ID = "01M8RGDVTS8QKTRF27EX5B8MP6"
USED_ID = "01M8RGDVQ57TSY2RQ36Q4P82P6"
FILTERED_ID = "01M8RGDVQ7H6W9BCG4SGDYKDB7"
CREATED_AT = "2026-12-01T09:54:27.800666Z"


def _stage(name: str, ms: float, status: str = "ok", note: str = "") -> dict[str, Any]:
    return {"name": name, "ms": ms, "status": status, "note": note}


def blocked_turn_row(space_id: str, trace_id: str = TRACE_ID) -> dict[str, Any]:
    """A model turn whose draft broke a rule twice: one record used, one filtered, a violation,
    something proposed to remember, one rejection, model use and a degraded stage."""
    return {
        "id": trace_id,
        "kind": "turn",
        "space_id": space_id,
        "session_id": SESSION_ID,
        "app": "project",
        "created_at": CREATED_AT,
        "mode": "llm:fake",
        "heuristic": False,
        "stages": [
            _stage("identity", 0.218),
            _stage("persist_message", 0.833),
            _stage("recall", 18.513),
            _stage("brief", 4.753),
            _stage("generate", 0.067),
            _stage("check", 6.683),
            _stage("regenerate", 0.071),
            _stage("recheck", 1.478),
            _stage("persist_reply", 9.065),
            _stage("memorize", 14.909, "degraded", "LLM extraction failed (invalid_output); heuristic extractor used"),
            _stage("trace", 0.001),
        ],
        # Today's turn gives a used record its brief score and a filtered one no score key at all.
        "recalled": [
            {"id": USED_ID, "handle": "f3bf9kdc", "score": 0.299242},
            {"id": FILTERED_ID, "handle": "xwz4k5xc"},
        ],
        "used": [{"id": USED_ID, "handle": "f3bf9kdc", "reason": "llm: it is about this"}],
        "filtered": [{"id": FILTERED_ID, "handle": "xwz4k5xc", "reason": "llm: not about this task"}],
        "violations": [
            {"handle": "f3bf9kdc", "severity": "error", "source": "pattern", "rule": "matches a pattern memory forbids"}
        ],
        "regenerated": True,
        "blocked": True,
        "memory": {
            "mode": "heuristic",
            "proposed": 2,
            "merged_in_session": 0,
            "auto_approved": ["01s7fjr9"],
            "pending_review": [],
            "added_evidence_to": [],
            "rejected": [
                {"kind": "note", "rule": "evidence_not_found", "reason": "the evidence is not in the session"}
            ],
        },
        "usage": {"prompt_tokens": 2062, "completion_tokens": 76},
        "degraded": ["memorize: LLM extraction failed (invalid_output); heuristic extractor used"],
    }


def unremembered_turn_row(space_id: str, trace_id: str) -> dict[str, Any]:
    """A heuristic turn in an empty space whose memorize stage failed: today's turn leaves
    `memory` as an empty object."""
    return {
        "id": trace_id,
        "kind": "turn",
        "space_id": space_id,
        "session_id": None,
        "app": "generic",
        "created_at": CREATED_AT,
        "mode": "heuristic",
        "heuristic": True,
        "stages": [
            _stage("recall", 0.0, "skipped", "no memory in this space"),
            _stage("memorize", 3.2, "failed", "nothing remembered from this turn (backend_error)"),
        ],
        "recalled": [],
        "used": [],
        "filtered": [],
        "violations": [],
        "regenerated": False,
        "blocked": False,
        "memory": {},
        "usage": {"prompt_tokens": 0, "completion_tokens": 0},
        "degraded": ["memorize: nothing remembered from this turn (backend_error)"],
    }
