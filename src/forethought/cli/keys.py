"""`forethought keys create|list|revoke`: API keys for the server (bootstrap from the shell).

The shell is the operator's: the CLI may make admin keys (`--admin`) and revoke any key, which the
HTTP API allows only to an admin key of the same workspace.
"""

from __future__ import annotations

import argparse
from collections.abc import Callable
from typing import Any

from forethought.cli.context import Context, Output
from forethought.domain.keys import ADMIN, MEMBER, KeyRole

__all__ = ["keys", "register"]


def _json(key: Any) -> dict[str, Any]:
    return {
        "id": key.id,
        "workspace": key.workspace,
        "name": key.name,
        "role": key.role,
        "created_at": key.created_at.isoformat(),
        "revoked": not key.active,
    }


def keys(ctx: Context) -> Output:
    a = ctx.args
    if a.action == "create":
        role: KeyRole = ADMIN if a.admin else MEMBER
        key, full = ctx.memory(create=True).create_api_key(a.workspace, name=a.name, role=role)
        return Output(
            {"key": full, "id": key.id, "workspace": key.workspace, "role": key.role},
            f"{full}\n-- {key.role} key {key.id} for workspace {key.workspace!r}: shown once, store it now",
        )
    if a.action == "list":
        found = ctx.memory().list_api_keys(a.workspace)
        lines = [
            f"{k.id}  {k.workspace:<20} {k.name:<20} {k.role:<7} {'revoked' if not k.active else 'active'}"
            for k in found
        ]
        return Output([_json(k) for k in found], "\n".join(lines) or "no API keys")
    key = ctx.memory().revoke_api_key(a.key_id)
    return Output(_json(key), f"revoked {key.id}")


def register(add: Callable[..., argparse.ArgumentParser]) -> None:
    p = add("keys", "API keys for the server: create | list | revoke", group=True)
    actions = p.add_subparsers(dest="action", metavar="ACTION", parser_class=type(p))
    actions.required = True
    q = add("create", "make a key for a workspace (printed once)", parent=actions, space=False)
    q.add_argument("--workspace", required=True)
    q.add_argument("--name", default="default")
    q.add_argument("--admin", action="store_true", help="an admin key: may also manage keys and erase memory over HTTP")
    q = add("list", "list keys (never their secret)", parent=actions, space=False)
    q.add_argument("--workspace")
    q = add("revoke", "revoke a key by id", parent=actions, space=False)
    q.add_argument("key_id", metavar="ID")
