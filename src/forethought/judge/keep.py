"""Whether a durable sentence, read where it sits in its session, is standing memory worth review.

The sentence judge reads one sentence alone, so it calls "write tests for the rest-period
constraint" or "we are rebuilding the pipeline in Snakemake" a rule as readily as "never hardcode
duty limits". Where the sentence sits says what the sentence alone cannot: the person's opening
turn of a conversation usually states the task, a short reply ("C ABI it is") is rarely a rule
one can read without its question, a sentence that is most of a long turn is more often the
point of it. A logistic model over the judge's probabilities and these placement features gives
the calibrated probability that a candidate is a standing rule, preference or lesson; fitted on
the tuning sets' candidates by `bench/train_keep.py`, which picks the threshold; the app names the
weights file and pins its sha256.
"""

from __future__ import annotations

import json
import threading
from dataclasses import dataclass
from pathlib import Path

import numpy as np

from forethought.domain import Role, Session, Turn
from forethought.errors import ModelUnavailable
from forethought.judge.acts import DURABLE, Act
from forethought.judge.model import WEIGHTS_DIR, Judgement, load_pinned, shared_judge

__all__ = ["KEEP_FEATURES", "KeepModel", "Placement", "feature_row", "is_conversation", "keep_model", "placement"]

KEEP_FEATURES = (
    "durable", "one_task", "transient", "plan",
    "opening_turn", "answers_question", "position", "share_of_turn", "words",
)  # fmt: skip
# The acts a durable-looking sentence is most often mistaken for; the judge's rarer acts are left
# out: on the tuning sentences it was trained on they are near zero for every rule, and a model
# fitted there would read any trace of them as a verdict.
_ACTS = (Act.ONE_TASK, Act.TRANSIENT, Act.PLAN)
_LONG = 40  # words: longer sentences count as this long
# Turns of person and agent that make a conversation: the model was fitted on such sessions (all
# but three of the tuning sets'); a shorter paste's first turn is as often its content as its task.
_OPENING_NEEDS = 8


@dataclass(frozen=True)
class Placement:
    """Where a sentence sits in its session."""

    opening_turn: bool  # in the turn the person opened a conversation of several turns with
    answers_question: bool  # the turn before is the agent's and asks something
    position: float  # the turn's place in the session, 0 (first) to 1
    share_of_turn: float  # the sentence's length over its turn's
    words: int


def is_conversation(session: Session) -> bool:
    """Whether the model applies: it was fitted on conversations between a person and an agent; a
    commit message, a rule file or a one-turn note is read by the judge alone."""
    return sum(t.role is not Role.TOOL for t in session.turns) >= _OPENING_NEEDS


def placement(session: Session, turn: Turn, sentence: str) -> Placement:
    spoken = [t for t in session.turns if t.role is not Role.TOOL]
    first = spoken[0] if spoken and spoken[0].role is Role.USER else None  # the person opened it
    before = next((t for t in reversed(spoken) if t.index < turn.index), None)
    asks = before is not None and before.role is Role.AGENT and "?" in before.text[-300:]
    return Placement(
        opening_turn=first is turn and len(spoken) >= _OPENING_NEEDS,
        answers_question=asks,
        position=turn.index / max(1, len(session.turns)),
        share_of_turn=min(1.0, len(sentence) / max(1, len(turn.text))),
        words=len(sentence.split()),
    )


def feature_row(judgement: Judgement, where: Placement) -> list[float]:
    """One row of KEEP_FEATURES."""
    return [
        judgement.p(*DURABLE),
        *(judgement.p(a) for a in _ACTS),
        float(where.opening_turn),
        float(where.answers_question),
        where.position,
        where.share_of_turn,
        min(1.0, where.words / _LONG),
    ]


@dataclass(frozen=True)
class KeepModel:
    features: tuple[str, ...]
    weights: tuple[float, ...]  # over the raw features (standardisation folded in)
    bias: float
    threshold: float  # a candidate is kept at this probability or above
    embedder: str  # the judge's embedder the probabilities were read with

    def probability(self, judgement: Judgement, where: Placement) -> float:
        z = float(np.dot(np.asarray(self.weights), feature_row(judgement, where))) + self.bias
        return float(1.0 / (1.0 + np.exp(-z)))

    def to_json(self) -> str:
        return json.dumps(self.__dict__, indent=1) + "\n"

    @classmethod
    def from_json(cls, data: bytes) -> KeepModel:
        raw = json.loads(data)
        return cls(tuple(raw["features"]), tuple(float(w) for w in raw["weights"]), float(raw["bias"]),
                   float(raw["threshold"]), str(raw["embedder"]))  # fmt: skip


_LOADED: dict[str, KeepModel] = {}
_LOCK = threading.Lock()


def keep_model(name: str, sha256: str, *, folder: Path = WEIGHTS_DIR) -> KeepModel:
    """The keep model `name` (`keep-<name>.json`), used only if its file hashes to `sha256`
    (loaded once per process); ModelUnavailable if missing, altered or of other features."""
    with _LOCK:
        key = f"{folder}/{name}:{sha256}"
        if key not in _LOADED:
            path = folder / f"keep-{name}.json"
            model = load_pinned("keep weights", path, sha256, KeepModel.from_json, shared_judge().embedder)
            if model.features != KEEP_FEATURES or len(model.weights) != len(KEEP_FEATURES):
                raise ModelUnavailable(f"keep weights {path} use features {model.features}, not {KEEP_FEATURES}")
            _LOADED[key] = model
        return _LOADED[key]
