"""Compare runs kept: each finished compare is stored with its project, to be listed and read again.

A run is a trace of its own kind (`COMPARE`) in the project's space: it sits beside the turns'
traces, never among them (a reader of turns asks for their kind), and goes wherever the space
goes: erasing the project erases its runs with everything else it holds. Only a finished run is
kept: compare refuses without a model and raises when every round failed, and
then nothing is written. What is kept is what compare reported (`Comparison.as_json`), the file
paths the task named, who ran it and when, read back through `CompareRun` so a page shows typed
fields, never a loose dict.
"""

from __future__ import annotations

from collections.abc import Sequence
from datetime import datetime
from typing import Literal

from pydantic import BaseModel, ConfigDict, Field

from forethought.domain.ids import new_id
from forethought.domain.times import utcnow
from forethought.errors import NotFound
from forethought.facade import Forethought, Scope
from forethought.projects.compare import compare

__all__ = ["COMPARE", "MAX_LISTED", "ArmFigures", "ArmRunOut", "CompareRun", "RoundOut", "get_run", "list_runs",
           "run_and_keep"]  # fmt: skip

COMPARE: Literal["compare"] = "compare"  # the trace kind of a kept compare run
MAX_LISTED = 201  # runs read at once: the largest page a list asks for, and one more to say more exist


class _Kept(BaseModel):
    model_config = ConfigDict(frozen=True, extra="ignore")


class ArmRunOut(_Kept):
    """One arm's answer in one round, and what the blind check found in it."""

    violations: int
    handles: list[str]
    tokens: int
    seconds: float
    truncated: bool
    output: str


class RoundOut(_Kept):
    index: int
    failed: str | None
    memory: ArmRunOut | None
    baseline: ArmRunOut | None


class ArmFigures(_Kept):
    """Violations per completed round of one arm: mean, spread, and every rule it broke."""

    mean: float
    low: int = Field(alias="min")
    high: int = Field(alias="max")
    stdev: float
    broken: list[str]
    identical_outputs: bool


class CompareRun(_Kept):
    id: str
    kind: Literal["compare"] = COMPARE
    at: datetime
    by: str  # the actor that ran it (an API key, the CLI's user)
    task: str
    file_paths: list[str]
    model: str
    temperature: float
    repeat: int
    seed: int
    block_tokens: int
    briefed: list[str]
    rounds: list[RoundOut]
    summary: dict[Literal["memory", "baseline"], ArmFigures]
    memory_calls: dict[str, int]
    tokens: dict[str, int]
    seconds: float
    fairness: str
    notes: list[str]

    @property
    def completed(self) -> int:
        return sum(1 for r in self.rounds if r.failed is None)

    def figures(self, arm: str) -> ArmFigures:
        return self.summary["memory" if arm == "memory" else "baseline"]


def run_and_keep(memory: Forethought, scope: Scope, task: str, *, repeat: int = 3,
                 file_paths: Sequence[str] = ()) -> CompareRun:  # fmt: skip
    """Run compare (see `projects.compare`) and keep the finished run with the project. Raises
    what compare raises (InvalidInput without a model or for bad input, ProviderError when every
    round failed), and then keeps nothing."""
    result = compare(memory, scope, task, repeat=repeat, file_paths=file_paths)
    run = CompareRun.model_validate({**result.as_json(), "id": new_id(), "at": utcnow(), "by": memory.actor,
                                     "file_paths": list(file_paths)})  # fmt: skip
    space = memory.space(scope)
    memory.store.traces.add(space.id, run.id, kind=COMPARE, session_id=None, created_at=run.at,
                            data=run.model_dump(mode="json", by_alias=True))  # fmt: skip
    return run


def list_runs(memory: Forethought, scope: Scope, *, limit: int = 20, before_id: str | None = None) -> list[CompareRun]:
    """The project's kept runs, newest first; `before_id` continues after a run of an earlier page."""
    try:
        space = memory.space(scope, create=False)
    except NotFound:  # a project nothing was written to yet has run nothing
        return []
    limit = max(1, min(limit, MAX_LISTED))
    found = memory.store.traces.list(space.id, limit=limit, before_id=before_id, kind=COMPARE)
    return [CompareRun.model_validate(data) for data in found]


def get_run(memory: Forethought, scope: Scope, run_id: str) -> CompareRun:
    """One kept run of the project; NotFound for an unknown id, another project's, or a turn's trace."""
    space = memory.space(scope, create=False)
    return CompareRun.model_validate(memory.store.traces.get(space.id, run_id, kind=COMPARE))
