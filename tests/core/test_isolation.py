"""Isolation fails closed: a space's memory never appears in another space's results."""

from __future__ import annotations

import random

from forethought import Forethought, RetainItem, SpaceKey, Status


def test_fifty_canaries_never_cross_spaces_in_a_thousand_recalls(memory: Forethought) -> None:
    rng = random.Random(7)
    spaces = [memory.scope("career", f"s{i}", workspace=f"w{i % 5}") for i in range(50)]
    assert spaces[0].key == SpaceKey(workspace="w0", subject_type="student", subject_id="s0")
    canaries: dict[str, str] = {}
    shared_words = ["python", "interview", "Contoso", "rejected", "database", "PrismaClient"]
    for i, key in enumerate(spaces):
        canary = f"CANARY-{i:03d}-{rng.getrandbits(32):08x}"
        items = [RetainItem(f"{canary} {' '.join(rng.sample(shared_words, 3))}", tags=["canary"])]
        items += [RetainItem(f"Space {i} note about {w}") for w in rng.sample(shared_words, 3)]
        memory.retain_many(key, items)
        canaries[memory.space(key).id] = canary
    for _ in range(1000):
        key = rng.choice(spaces)
        own = memory.space(key).id
        target = rng.choice(list(canaries.values()))
        query = rng.choice([target, f"{target} {rng.choice(shared_words)}", rng.choice(shared_words), "CANARY"])
        result = memory.recall(key, query, k=20, statuses=list(Status))
        for hit in result.hits:
            assert hit.record.space_id == own
            for sid, canary in canaries.items():
                if sid != own:
                    assert canary not in hit.record.statement
    assert memory.store.counters.foreign_rows_dropped == 0  # nothing even had to be dropped
