"""The sentence judge: pinned weights, calibrated output, training that learns, and a regression
guard on its own corpus (the shipped fit saw all of it; generalisation is measured by the blind
sets in bench/, never here)."""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pytest

from forethought.domain import Role
from forethought.embed.hashing import HashingEmbedder
from forethought.errors import ModelUnavailable
from forethought.judge import Act, SentenceJudge, shared_judge
from forethought.judge.model import WEIGHTS, WEIGHTS_SHA256
from forethought.judge.network import Weights
from forethought.judge.train import calibrate, evaluate, fit, load_corpus, split

CORPUS = sorted((Path(__file__).parents[2] / "data" / "judge").glob("*.jsonl"))


def test_the_shipped_weights_match_their_pinned_hash_and_load() -> None:
    [j] = shared_judge().judge([("We never log raw card numbers anywhere.", Role.USER)])
    assert j.act is Act.RULE and 0.0 < j.confidence <= 1.0
    assert abs(sum(j.probabilities.values()) - 1.0) < 1e-4


def test_altered_weights_are_refused(tmp_path: Path) -> None:
    altered = tmp_path / "judge.npz"
    data = bytearray(WEIGHTS.read_bytes())
    data[-1] ^= 0xFF
    altered.write_bytes(bytes(data))
    with pytest.raises(ModelUnavailable, match="fails its hash check"):
        SentenceJudge(path=altered, sha256=WEIGHTS_SHA256).judge([("x", Role.USER)])
    with pytest.raises(ModelUnavailable, match="does not exist"):
        SentenceJudge(path=tmp_path / "missing.npz").judge([("x", Role.USER)])


def test_weights_trained_on_other_embeddings_are_refused(tmp_path: Path) -> None:
    import hashlib

    data = WEIGHTS.read_bytes()
    judge = SentenceJudge(HashingEmbedder(), path=WEIGHTS, sha256=hashlib.sha256(data).hexdigest())
    with pytest.raises(ModelUnavailable, match="trained on"):
        judge.judge([("x", Role.USER)])


def test_weights_round_trip_through_bytes() -> None:
    w = Weights.from_bytes(WEIGHTS.read_bytes())
    again = Weights.from_bytes(w.to_bytes())
    assert again.acts == w.acts and again.kinds == w.kinds and again.embedder == w.embedder
    assert np.array_equal(again.w1, w.w1) and again.temperature_act == w.temperature_act


def test_training_learns_a_small_corpus(tmp_path: Path) -> None:
    rows = [
        *({"text": f"we always run {w} before merging", "speaker": "user", "act": "rule", "kind": "process"}
          for w in ("lint", "tests", "mypy", "the formatter", "migrations check", "the e2e suite")),
        *({"text": f"what does {w} do here?", "speaker": "user", "act": "question", "kind": None}
          for w in ("lint", "tests", "mypy", "the formatter", "the flag", "the cache")),
        *({"text": f"I could add {w} to the pipeline", "speaker": "assistant", "act": "proposal", "kind": None}
          for w in ("lint", "tests", "mypy", "the formatter", "caching", "retries")),
    ]  # fmt: skip
    path = tmp_path / "tiny.jsonl"
    path.write_text("\n".join(json.dumps(r) for r in rows), "utf-8")
    corpus = load_corpus([path], HashingEmbedder())
    weights, _ = fit(corpus, None, hidden=16, epochs=150, embedder="hashing")
    report = evaluate(weights, corpus)
    assert report["accuracy"] == 1.0 and report["kind_accuracy"] == 1.0


@pytest.mark.slow
def test_the_shipped_judge_still_reads_its_corpus_as_trained() -> None:
    from forethought.embed.onnx_minilm import MiniLMEmbedder

    corpus = load_corpus(CORPUS, MiniLMEmbedder())
    _, held_i = split(corpus, 0.2, seed=11)  # train.py's held-out fifth; the --final fit saw it too
    held = corpus.subset(held_i)
    weights = Weights.from_bytes(WEIGHTS.read_bytes())
    report = evaluate(weights, held)
    assert report["accuracy"] >= 0.8 and report["kind_accuracy"] >= 0.75
    assert report["ece"] <= 0.1
    # calibrate() only rescales: the predicted act never changes
    rescaled = evaluate(calibrate(weights, held), held)
    assert rescaled["accuracy"] == report["accuracy"]
