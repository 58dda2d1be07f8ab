"""Contract tests for every VectorIndex, plus the behaviour specific to each implementation."""

from __future__ import annotations

from collections.abc import Callable

import numpy as np
import numpy.typing as npt
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from forethought.vectors import (
    ExactIndex,
    Hit,
    HnswIndex,
    TieredIndex,
    VectorIndex,
    new_index,
)
from forethought.vectors.hnsw import quantise

DIM = 32
Factory = Callable[[], VectorIndex]

FACTORIES: dict[str, Factory] = {
    "exact": lambda: ExactIndex(DIM),
    "hnsw": lambda: HnswIndex(DIM),
    # A tiny threshold so the contract is exercised across the move to HNSW.
    "tiered": lambda: TieredIndex(DIM, threshold=24),
}


def unit_rows(n: int, seed: int, dim: int = DIM) -> npt.NDArray[np.float32]:
    rows = np.random.default_rng(seed).standard_normal((n, dim)).astype(np.float32)
    rows /= np.linalg.norm(rows, axis=1, keepdims=True)
    return rows


def vector_for(key: int) -> npt.NDArray[np.float32]:
    """A fixed unit vector per key, so a key re-added later comes back with the same vector."""
    return unit_rows(1, seed=10_000 + key)[0]


def vectors_for(keys: list[int]) -> npt.NDArray[np.float32]:
    return np.stack([vector_for(key) for key in keys]) if keys else np.zeros((0, DIM), np.float32)


def filled(factory: Factory, n: int) -> tuple[VectorIndex, npt.NDArray[np.float32]]:
    index = factory()
    vectors = unit_rows(n, seed=1)
    index.add(np.arange(n, dtype=np.int64), vectors)
    return index, vectors


@pytest.fixture(params=sorted(FACTORIES))
def factory(request: pytest.FixtureRequest) -> Factory:
    return FACTORIES[request.param]


# --- contract -----------------------------------------------------------------------------------


def test_each_vector_finds_itself_first(factory: Factory) -> None:
    index, vectors = filled(factory, 200)
    for key, vector in enumerate(vectors):
        hits = index.search(vector, 5)
        assert hits[0].key == key
        assert hits[0].similarity == pytest.approx(1.0, abs=1e-2)


def test_hits_are_best_first_with_true_similarities(factory: Factory) -> None:
    index, vectors = filled(factory, 200)
    query = unit_rows(1, seed=99)[0]
    hits = index.search(query, 20)
    truth = vectors @ query
    assert len(hits) == 20
    assert all(isinstance(hit, Hit) and isinstance(hit.key, int) for hit in hits)
    assert len({hit.key for hit in hits}) == 20
    scores = [hit.similarity for hit in hits]
    assert scores == sorted(scores, reverse=True)
    for hit in hits:
        # int8 quantisation in HNSW moves similarities by well under 0.02 at this dimension.
        assert hit.similarity == pytest.approx(float(truth[hit.key]), abs=2e-2)
    expected_top = set(np.argsort(-truth)[:20].tolist())
    found = {hit.key for hit in hits}
    if index.exact:
        assert found == expected_top
    else:
        assert len(found & expected_top) >= 18


def test_k_larger_than_index_returns_everything(factory: Factory) -> None:
    index, _ = filled(factory, 10)
    hits = index.search(unit_rows(1, seed=5)[0], 50)
    assert sorted(hit.key for hit in hits) == list(range(10))


def test_removed_key_is_never_returned(factory: Factory) -> None:
    index, vectors = filled(factory, 100)
    removed = list(range(0, 100, 3))
    index.remove(removed)
    assert len(index) == 100 - len(removed)
    assert sorted(index.keys().tolist()) == sorted(set(range(100)) - set(removed))
    for key in removed:
        returned = {hit.key for hit in index.search(vectors[key], 100)}
        assert not returned & set(removed)
        assert returned <= set(range(100))


def test_remove_ignores_absent_keys_and_repeats(factory: Factory) -> None:
    index, _ = filled(factory, 30)
    index.remove([5, 5, 1_000, 2**40])
    index.remove([5])
    assert len(index) == 29
    assert 5 not in index.keys().tolist()


def test_removed_key_can_be_added_again(factory: Factory) -> None:
    index, vectors = filled(factory, 30)
    index.remove([7])
    index.add(np.array([7], dtype=np.int64), vectors[7:8])
    assert index.search(vectors[7], 1)[0].key == 7
    assert len(index) == 30


def test_adding_a_present_key_raises_and_changes_nothing(factory: Factory) -> None:
    index, vectors = filled(factory, 20)
    batch_keys = np.array([100, 3], dtype=np.int64)  # one new key, one present
    with pytest.raises(ValueError, match="already present"):
        index.add(batch_keys, vectors[:2])
    assert len(index) == 20
    assert 100 not in index.keys().tolist()


def test_repeated_key_within_a_batch_raises(factory: Factory) -> None:
    index = factory()
    with pytest.raises(ValueError, match="distinct"):
        index.add(np.array([1, 1], dtype=np.int64), unit_rows(2, seed=3))
    assert len(index) == 0


def test_keys_and_len_track_adds(factory: Factory) -> None:
    index = factory()
    assert len(index) == 0
    assert index.keys().dtype == np.int64
    index.add(np.array([10, 20, 30], dtype=np.int64), unit_rows(3, seed=4))
    index.add(np.array([], dtype=np.int64), np.zeros((0, DIM), dtype=np.float32))
    assert len(index) == 3
    assert sorted(index.keys().tolist()) == [10, 20, 30]


def test_empty_index_search_returns_nothing(factory: Factory) -> None:
    index = factory()
    assert index.search(unit_rows(1, seed=2)[0], 10) == []
    index.add(np.array([1], dtype=np.int64), unit_rows(1, seed=2))
    index.remove([1])
    assert index.search(unit_rows(1, seed=2)[0], 10) == []


BAD_BATCHES = {
    "float64 vectors": (np.array([1]), unit_rows(1, seed=0).astype(np.float64)),
    "wrong dimension": (np.array([1]), unit_rows(1, seed=0, dim=DIM + 1)),
    "1-D vectors": (np.array([1]), unit_rows(1, seed=0)[0]),
    "fewer vectors than keys": (np.array([1, 2]), unit_rows(1, seed=0)),
    "float keys": (np.array([1.0]), unit_rows(1, seed=0)),
    "2-D keys": (np.array([[1]]), unit_rows(1, seed=0)),
    "list keys": ([1], unit_rows(1, seed=0)),
    "negative key": (np.array([-1]), unit_rows(1, seed=0)),
    "not unit norm": (np.array([1]), unit_rows(1, seed=0) * 2),
    "zero vector": (np.array([1]), np.zeros((1, DIM), dtype=np.float32)),
    "NaN": (np.array([1]), np.full((1, DIM), np.nan, dtype=np.float32)),
}


@pytest.mark.parametrize("case", sorted(BAD_BATCHES))
def test_bad_batches_raise_value_error(factory: Factory, case: str) -> None:
    index = factory()
    keys, vectors = BAD_BATCHES[case]
    with pytest.raises(ValueError):
        index.add(keys, vectors)  # type: ignore[arg-type]
    assert len(index) == 0


BAD_QUERIES = {
    "float64": unit_rows(1, seed=0)[0].astype(np.float64),
    "wrong dimension": unit_rows(1, seed=0, dim=DIM - 1)[0],
    "2-D": unit_rows(1, seed=0),
    "not unit norm": unit_rows(1, seed=0)[0] * 3,
    "list": [0.0] * DIM,
}


@pytest.mark.parametrize("case", sorted(BAD_QUERIES))
def test_bad_queries_raise_value_error(factory: Factory, case: str) -> None:
    index, _ = filled(factory, 5)
    with pytest.raises(ValueError, match="query"):
        index.search(BAD_QUERIES[case], 3)  # type: ignore[arg-type]


@pytest.mark.parametrize("k", [0, -1, True, 2.0])
def test_bad_k_raises_value_error(factory: Factory, k: object) -> None:
    index, vectors = filled(factory, 5)
    with pytest.raises(ValueError, match="k must be"):
        index.search(vectors[0], k)  # type: ignore[arg-type]


OPERATIONS = st.lists(
    st.one_of(
        st.tuples(st.just("add"), st.lists(st.integers(0, 120), max_size=30, unique=True)),
        st.tuples(st.just("remove"), st.lists(st.integers(0, 130), max_size=30)),
    ),
    max_size=12,
)


@pytest.mark.parametrize("kind", sorted(FACTORIES))
@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(operations=OPERATIONS)
def test_any_sequence_of_adds_and_removes_keeps_the_contract(
    kind: str, operations: list[tuple[str, list[int]]]
) -> None:
    index = FACTORIES[kind]()
    present: set[int] = set()
    gone: set[int] = set()
    for operation, keys in operations:
        if operation == "add":
            new = [key for key in keys if key not in present]
            index.add(np.array(new, dtype=np.int64), vectors_for(new))
            present |= set(new)
            gone -= set(new)
        else:
            index.remove(keys)
            gone |= set(keys) & present
            present -= set(keys)
        assert len(index) == len(present)
        assert set(index.keys().tolist()) == present
    for key in gone | set(list(present)[:10]):
        hits = index.search(vector_for(key), len(present) + 5)
        returned = {hit.key for hit in hits}
        assert returned <= present, f"removed keys returned: {sorted(returned - present)}"
        if key in present and index.exact:
            assert hits[0].key == key


# --- TieredIndex ----------------------------------------------------------------------------------


def test_tiered_moves_to_hnsw_past_its_threshold_and_keeps_everything() -> None:
    index = TieredIndex(DIM, threshold=50)
    vectors = unit_rows(80, seed=8)
    index.add(np.arange(50, dtype=np.int64), vectors[:50])
    index.remove([0, 1])
    assert index.exact  # at the threshold, not past it
    index.add(np.arange(50, 80, dtype=np.int64), vectors[50:])
    assert not index.exact
    assert sorted(index.keys().tolist()) == list(range(2, 80))
    for key in range(2, 80):
        hit = index.search(vectors[key], 3)[0]
        assert hit.key == key
        assert hit.similarity == pytest.approx(1.0, abs=1e-2)
    index.remove(range(2, 70))
    assert not index.exact  # never moves back
    assert sorted(hit.key for hit in index.search(vectors[75], 100)) == list(range(70, 80))


def test_tiered_bad_batch_does_not_trigger_the_move() -> None:
    index = TieredIndex(DIM, threshold=3)
    index.add(np.arange(3, dtype=np.int64), unit_rows(3, seed=1))
    with pytest.raises(ValueError, match="already present"):
        index.add(np.array([2, 3], dtype=np.int64), unit_rows(2, seed=2))
    assert index.exact
    assert sorted(index.keys().tolist()) == [0, 1, 2]


def test_new_index_starts_exact() -> None:
    index = new_index(DIM)
    assert isinstance(index, TieredIndex)
    assert index.exact
    assert index.dim == DIM


# --- ExactIndex erasure ---------------------------------------------------------------------------


def test_exact_removal_leaves_no_trace_of_the_vector() -> None:
    index = ExactIndex(DIM)
    vectors = unit_rows(10, seed=6)
    index.add(np.arange(10, dtype=np.int64), vectors)
    index.remove([3, 9])  # one from the middle (swapped with last), one that is the last row
    matrix = index._matrix  # the storage itself is what erasure is about
    assert not matrix[8:].any(), "vacated rows must be zero"
    for removed in (3, 9):
        assert vectors[removed].tobytes() not in matrix.tobytes()
    assert index.search(vectors[8], 1)[0].key == 8  # the row moved into the hole still answers


def test_exact_growth_zeroes_the_buffer_it_drops() -> None:
    index = ExactIndex(DIM)
    old = index._matrix
    capacity = old.shape[0]
    index.add(np.arange(capacity, dtype=np.int64), unit_rows(capacity, seed=7, dim=DIM))
    index.add(np.array([capacity], dtype=np.int64), unit_rows(1, seed=8))
    assert index._matrix is not old
    assert not old.any()
    assert len(index) == capacity + 1


# --- HnswIndex --------------------------------------------------------------------------------------


def test_hnsw_recall_on_clustered_data() -> None:
    rng = np.random.default_rng(0)
    dim, n = 96, 3000
    centroids = unit_rows(40, seed=11, dim=dim)
    noise = rng.standard_normal((n, dim)).astype(np.float32) / np.float32(np.sqrt(dim))
    data = centroids[rng.integers(0, 40, n)] + noise
    data /= np.linalg.norm(data, axis=1, keepdims=True)
    index = HnswIndex(dim)
    index.add(np.arange(n, dtype=np.int64), data)
    queries = unit_rows(50, seed=12, dim=dim)
    recalled = 0
    for query in queries:
        truth = set(np.argsort(-(data @ query))[:10].tolist())
        recalled += len(truth & {hit.key for hit in index.search(query, 50)[:10]})
    assert recalled / (10 * len(queries)) >= 0.9


def test_quantise_keeps_cosine_order() -> None:
    rows = unit_rows(100, seed=13, dim=384)
    codes = quantise(rows).astype(np.float32)
    assert np.abs(codes).max(axis=1).tolist() == [127.0] * 100
    codes /= np.linalg.norm(codes, axis=1, keepdims=True)
    assert np.abs(codes @ codes[0] - rows @ rows[0]).max() < 0.01


def test_hnsw_compact_drops_removed_vectors_from_storage() -> None:
    index = HnswIndex(DIM)
    vectors = unit_rows(200, seed=14)
    index.add(np.arange(200, dtype=np.int64), vectors)
    index.remove(range(0, 200, 2))
    assert index.pending_erasure == 100
    index.add(np.array([1_000], dtype=np.int64), unit_rows(1, seed=15))
    assert index.pending_erasure == 99  # the new vector reused one freed slot
    index.compact()
    assert index.pending_erasure == 0
    stored = bytes(index._index.save())  # what would reach disk if the graph were persisted
    for key in range(0, 200, 2):
        assert quantise(vectors[key : key + 1]).tobytes() not in stored
    assert sorted(index.keys().tolist()) == [*range(1, 200, 2), 1_000]
    for key in range(1, 200, 2):
        assert index.search(vectors[key], 1)[0].key == key


def test_hnsw_every_vector_is_reachable() -> None:
    # usearch's multi-threaded insert left some nodes unreachable; HnswIndex inserts on one thread.
    index = HnswIndex(DIM)
    vectors = unit_rows(1_500, seed=16)
    for start in range(0, 1_500, 500):
        index.add(np.arange(start, start + 500, dtype=np.int64), vectors[start : start + 500])
    missed = [key for key in range(1_500) if index.search(vectors[key], 1)[0].key != key]
    assert missed == []
