"""API keys: shown once, stored hashed, scoped to one workspace, revocable."""

from __future__ import annotations

from pathlib import Path

from forethought import Forethought


def test_keys_authenticate_only_while_active_and_are_stored_hashed(memory: Forethought, db_path: Path) -> None:
    key, full = memory.create_api_key("acme", name="ci")
    assert full.startswith(f"ft_{key.id}_") and len(full) > 40
    assert memory.authenticate(full) == key
    assert memory.authenticate(full + "x") is None
    assert memory.authenticate("not-a-key") is None and memory.authenticate("") is None
    _, other_full = memory.create_api_key("globex")
    assert memory.authenticate(other_full).workspace == "globex"  # type: ignore[union-attr]
    assert [k.id for k in memory.list_api_keys("acme")] == [key.id]
    revoked = memory.revoke_api_key(key.id)
    assert not revoked.active and memory.authenticate(full) is None
    assert memory.revoke_api_key(key.id).revoked_at == revoked.revoked_at  # idempotent
    for path in db_path.parent.glob(db_path.name + "*"):
        if path.is_file():
            assert full.encode() not in path.read_bytes()
