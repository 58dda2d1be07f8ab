"""The brief's learned relevance: how likely a recalled record is to apply to a task, calibrated.

A logistic model over a few features per (task, record): the MiniLM similarity of the task (with
its file paths) to the record's statement and to its evidence, that similarity against the best
of the task's recalled records, the recall rank, and the specific evidence both share (terms,
words, area, tags, paths, from `applies.py`) and the app rule's verdict. Fitted on labelled
tuning tasks by `bench/train_relevance.py`, which also picks the operating point; the app names
the weights file and pins its sha256 (`App.relevance`).
"""

from __future__ import annotations

import json
import threading
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path

import numpy as np
import numpy.typing as npt

from forethought.apps.base import App, Applicability
from forethought.domain import Record
from forethought.embed.base import Embedder
from forethought.embed.cache import embedded
from forethought.errors import ModelUnavailable
from forethought.judge import shared_judge
from forethought.judge.model import WEIGHTS_DIR, load_pinned
from forethought.pipeline.applies import shared_evidence
from forethought.store.base import RecordVectors

__all__ = ["FEATURES", "RelevanceModel", "feature_rows", "judge_embedder", "relevance_model"]

FEATURES = (
    "semantic", "semantic_gap", "evidence", "rank", "terms", "words", "area", "tags", "paths",
    "rule_yes", "rule_no", "general",
)  # fmt: skip

Array = npt.NDArray[np.float32]


@dataclass(frozen=True)
class RelevanceModel:
    features: tuple[str, ...]
    weights: tuple[float, ...]
    bias: float
    threshold: float  # a record is briefed at this probability or above ...
    margin: float  # ... and no further than this below the task's most probable record
    embedder: str

    def chosen(self, probabilities: Array) -> list[int]:
        """Indexes of the records to brief, most probable first."""
        if not len(probabilities):
            return []
        top = float(probabilities.max())
        order = np.argsort(-probabilities, kind="stable")
        return [int(i) for i in order if probabilities[i] >= self.threshold and probabilities[i] >= top - self.margin]

    def probabilities(self, rows: Array) -> Array:
        z = rows @ np.asarray(self.weights, dtype=np.float32) + np.float32(self.bias)
        out: Array = (1.0 / (1.0 + np.exp(-z))).astype(np.float32)
        return out

    def to_json(self) -> str:
        return json.dumps(self.__dict__, indent=1) + "\n"

    @classmethod
    def from_json(cls, data: bytes) -> RelevanceModel:
        raw = json.loads(data)
        return cls(tuple(raw["features"]), tuple(raw["weights"]), float(raw["bias"]), float(raw["threshold"]),
                   float(raw["margin"]), str(raw["embedder"]))  # fmt: skip


def _cos(a: Array, b: Array) -> Array:
    out: Array = (b @ a).astype(np.float32)  # embeddings are unit length
    return out


def feature_rows(task: str, file_paths: Sequence[str], records: Sequence[Record], app: App, embedder: Embedder,
                 rules: Sequence[Applicability | None] | None = None,
                 stored: Mapping[str, RecordVectors] | None = None) -> Array:  # fmt: skip
    """One row of FEATURES per record, `records` in recall order; `rules` are the app rule's
    verdicts on them when the caller already has them (else they are asked for here). `stored`
    are the records' vectors as the store keeps them, made by this same embedder model: only what
    they lack is embedded here."""
    if not records:
        return np.zeros((0, len(FEATURES)), dtype=np.float32)
    query = " ".join([task, *file_paths])
    quotes = [r.evidence[0].quote if r.evidence else r.statement for r in records]
    known = [_known(r, quote, (stored or {}).get(r.id)) for r, quote in zip(records, quotes, strict=True)]
    texts = [query] + [t for r, quote, (s, e) in zip(records, quotes, known, strict=True)
                       for t, have in ((r.statement, s), (quote, e)) if have is None]  # fmt: skip
    fresh = iter(embedded(embedder, texts))
    q = next(fresh)
    vectors = []
    for s, e in known:  # record by record, statement before quote, as `texts` lists them
        statement = next(fresh) if s is None else s
        vectors.append((statement, next(fresh) if e is None else e))
    statements = np.stack([s for s, _ in vectors]).astype(np.float32)
    evidence = np.stack([e for _, e in vectors]).astype(np.float32)
    semantic, on_evidence = _cos(q, statements), _cos(q, evidence)
    best = float(semantic.max())
    rows = []
    verdicts = list(rules) if rules is not None else [app.applicability(task, r) for r in records]
    for i, (record, rule) in enumerate(zip(records, verdicts, strict=True)):
        shared = shared_evidence(task, record, areas=app.areas, file_paths=file_paths)
        rows.append([
            semantic[i], semantic[i] - best, on_evidence[i], 1.0 / (1 + i), min(shared.terms, 3), min(shared.words, 5),
            shared.area, shared.tags, shared.paths, rule is not None and rule.applies,
            rule is not None and not rule.applies, record.attributes.get("area", "general") == "general",
        ])  # fmt: skip
    return np.asarray(rows, dtype=np.float32)


def _known(record: Record, quote: str, stored: RecordVectors | None) -> tuple[Array | None, Array | None]:
    """The (statement, quote) vectors the store already holds for `record`, None for each it lacks:
    a quote's only while it is still the one the vector was made from (a quote that is the
    statement itself shares its vector)."""
    if stored is None:
        return None, None
    statement = stored.statement
    if quote == record.statement:
        return statement, statement
    return statement, stored.evidence_of(quote)


_LOADED: dict[str, RelevanceModel] = {}
_LOCK = threading.Lock()


def relevance_model(name: str, sha256: str, *, folder: Path = WEIGHTS_DIR) -> RelevanceModel:
    """The relevance model `name`, used only if its file hashes to `sha256` (loaded once per
    process); ModelUnavailable if missing or altered."""
    with _LOCK:
        key = f"{folder}/{name}:{sha256}"
        if key in _LOADED:
            return _LOADED[key]
        path = folder / f"relevance-{name}.json"
        model = load_pinned("relevance weights", path, sha256, RelevanceModel.from_json, judge_embedder())
        if model.features != FEATURES:
            raise ModelUnavailable(f"relevance weights {path} use features {model.features}, not {FEATURES}")
        _LOADED[key] = model
        return model


def judge_embedder() -> Embedder:
    """The embedder the relevance features are computed with: the sentence judge's MiniLM."""
    return shared_judge().embedder
