"""Compare mode: one coding task answered by the same model with and without the memory block.

The brief is built once for the task (the memory arm's only memory call). Then, for `repeat`
rounds, the model answers the task twice at temperature 0: with the brief's memory block at the
top of the system prompt, and without it. Both prompts come from one function (`prompt`) and are
verified to differ by exactly that block; the baseline is given no memory object at all, and
every call to the façade while compare runs is counted by the phase under way, so "the baseline
made 0 memory calls" is observed, not declared. When every round is in, all outputs are checked
with `Forethought.check` in an order shuffled by a seeded RNG, each with its text only (never the
brief's records, never which arm wrote it): the check is blind.

A round whose either arm fails (a provider error, an empty answer) is reported as failed for both
arms: no round is compared with one side missing. If every round fails, compare raises.
"""

from __future__ import annotations

import functools
import inspect
import random
import re
import statistics
import threading
import time
from collections import Counter
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any, Literal, TypeVar

from forethought.domain.limits import clean_text
from forethought.errors import InvalidInput
from forethought.facade import Forethought, Scope
from forethought.llm.base import ChatModel, ChatResult, Message, ProviderError

__all__ = [
    "ARMS",
    "MAX_REPEAT",
    "TEMPERATURE",
    "ArmRun",
    "ArmSummary",
    "Comparison",
    "Round",
    "compare",
    "only_the_block_differs",
    "prompt",
]

Arm = Literal["memory", "baseline"]
ARMS: tuple[Arm, Arm] = ("memory", "baseline")
MAX_REPEAT = 10
MAX_TASK_CHARS = 4000
MAX_FILE_PATHS = 20
MAX_PATH_CHARS = 500
MAX_ANSWER_TOKENS = 1500
TEMPERATURE = 0.0
SHUFFLE_SEED = 0
NO_MODEL = (
    "compare needs a language model: set FORETHOUGHT_LLM_BASE_URL to an OpenAI-compatible server (a local one "
    "works, e.g. http://127.0.0.1:8088/v1), or GROQ_API_KEY / OPENAI_API_KEY; compare never fakes a baseline"
)

_INSTRUCTIONS = (
    "You are a software engineer working in this project. Write the code the task asks for: answer with the code "
    "only, in one fenced code block, complete enough to use as it is."
)
_FENCED = re.compile(r"```[^\n]*\n(.*?)```", re.DOTALL)
_CONTROL = re.compile(r"[\x00-\x08\x0b\x0c\x0e-\x1f\x7f]")

T = TypeVar("T")


def prompt(task: str, file_paths: Sequence[str], block: str) -> list[Message]:
    """The messages both arms send: the memory arm passes the brief's block, the baseline ""."""
    system = "\n\n".join(part for part in (block, _INSTRUCTIONS) if part)
    user = task if not file_paths else f"{task}\n\nFiles: {', '.join(file_paths)}"
    return [Message(role="system", content=system), Message(role="user", content=user)]


def only_the_block_differs(with_block: Sequence[Message], without: Sequence[Message], block: str) -> bool:
    """Are the two prompts the same but for `block` at the top of the system prompt?"""
    if len(with_block) != len(without) or not with_block or with_block[1:] != without[1:]:
        return False
    first, base = with_block[0], without[0]
    expected = f"{block}\n\n{base.content}" if block else base.content
    return first.role == base.role and first.content == expected


@dataclass(frozen=True)
class ArmRun:
    """One arm's answer in one round, and what the blind check found in it."""

    output: str
    violations: int
    handles: tuple[str, ...]  # the rules broken, by handle (each once)
    tokens: int
    seconds: float
    truncated: bool  # the model stopped at the token limit


@dataclass(frozen=True)
class Round:
    index: int
    memory: ArmRun | None = None
    baseline: ArmRun | None = None
    failed: str | None = None  # why the round counts for neither arm


@dataclass(frozen=True)
class ArmSummary:
    """Violations per completed round of one arm: mean, min–max and population standard deviation."""

    mean: float
    low: int
    high: int
    stdev: float
    broken: tuple[str, ...]  # every handle broken in any round


@dataclass(frozen=True)
class Comparison:
    task: str
    model: str
    temperature: float
    repeat: int
    seed: int
    block_tokens: int
    briefed: tuple[str, ...]
    rounds: tuple[Round, ...]
    memory_calls: dict[str, int]  # façade calls observed per phase: brief, memory, baseline, check
    tokens: dict[str, int]  # brief, memory, baseline, check, total
    seconds: float
    identical: dict[str, bool]  # each arm: the same output in every completed round
    fairness: str
    notes: tuple[str, ...] = field(default_factory=tuple)

    @property
    def completed(self) -> list[Round]:
        return [r for r in self.rounds if r.failed is None]

    def summary(self, arm: Arm) -> ArmSummary:
        runs = [_arm(r, arm) for r in self.completed]
        counts = [run.violations for run in runs]
        broken = sorted({h for run in runs for h in run.handles})
        return ArmSummary(mean=statistics.fmean(counts), low=min(counts), high=max(counts),
                          stdev=statistics.pstdev(counts), broken=tuple(broken))  # fmt: skip

    def as_json(self) -> dict[str, Any]:
        def run(r: ArmRun | None) -> dict[str, Any] | None:
            if r is None:
                return None
            return {"violations": r.violations, "handles": list(r.handles), "tokens": r.tokens,
                    "seconds": round(r.seconds, 3), "truncated": r.truncated, "output": r.output}  # fmt: skip

        def summary(arm: Arm) -> dict[str, Any]:
            s = self.summary(arm)
            return {"mean": round(s.mean, 3), "min": s.low, "max": s.high, "stdev": round(s.stdev, 3),
                    "broken": list(s.broken), "identical_outputs": self.identical[arm]}  # fmt: skip

        return {
            "task": self.task,
            "model": self.model,
            "temperature": self.temperature,
            "repeat": self.repeat,
            "seed": self.seed,
            "block_tokens": self.block_tokens,
            "briefed": list(self.briefed),
            "rounds": [
                {"index": r.index, "failed": r.failed, "memory": run(r.memory), "baseline": run(r.baseline)}
                for r in self.rounds
            ],
            "summary": {arm: summary(arm) for arm in ARMS},
            "memory_calls": dict(self.memory_calls),
            "tokens": dict(self.tokens),
            "seconds": round(self.seconds, 3),
            "fairness": self.fairness,
            "notes": list(self.notes),
        }

    def text(self) -> str:
        """What a front end prints: the verdict per arm, each round, the fairness line."""
        lines = [f"compare: {self.task[:80]}"]
        for arm in ARMS:
            s = self.summary(arm)
            label = "with memory" if arm == "memory" else "without    "
            broken = f"  broke {', '.join(s.broken)}" if s.broken else ""
            lines.append(f"  {label}: {s.mean:.2f} violations a round (min {s.low}, max {s.high}, "
                         f"sd {s.stdev:.2f}){broken}")  # fmt: skip
        for r in self.rounds:
            if r.failed is not None:
                lines.append(f"  round {r.index}: failed ({r.failed})")
            else:
                lines.append(f"  round {r.index}: with memory {_arm(r, 'memory').violations}, "
                             f"without {_arm(r, 'baseline').violations}")  # fmt: skip
        lines.append(f"  {self.tokens['total']} tokens, {self.seconds:.1f}s")
        lines.append(f"  fairness: {self.fairness}")
        lines += [f"  note: {n}" for n in self.notes]
        return "\n".join(lines)


def compare(memory: Forethought, scope: Scope, task: str, *, repeat: int = 3,
            file_paths: Sequence[str] = ()) -> Comparison:  # fmt: skip
    """Answer `task` with and without memory `repeat` times and check every answer blind (see the module)."""
    task = clean_text(task, field="task", limit=MAX_TASK_CHARS)
    if isinstance(repeat, bool) or not isinstance(repeat, int) or not 1 <= repeat <= MAX_REPEAT:
        raise InvalidInput(f"repeat: must be a whole number from 1 to {MAX_REPEAT}, got {repeat!r}")
    if len(file_paths) > MAX_FILE_PATHS:
        raise InvalidInput(f"file_paths: at most {MAX_FILE_PATHS}, got {len(file_paths)}")
    paths = [clean_text(p, field="file path", limit=MAX_PATH_CHARS) for p in file_paths]
    model = memory.model
    if model is None:
        raise InvalidInput(NO_MODEL)
    started = time.perf_counter()
    with _Watch(memory) as watch:
        watch.phase = "brief"
        brief = memory.brief(scope, task, file_paths=paths, max_excerpts=0)
        with_block, without = prompt(task, paths, brief.block), prompt(task, paths, "")
        if not only_the_block_differs(with_block, without, brief.block):
            raise RuntimeError("compare: the two prompts differ by more than the memory block")
        prompts: dict[Arm, list[Message]] = {"memory": with_block, "baseline": without}
        answers: dict[int, dict[Arm, tuple[str, ChatResult, float]]] = {}
        failures: dict[int, str] = {}
        for index in range(1, repeat + 1):
            got = _round(model, prompts, index, watch)
            if isinstance(got, str):
                failures[index] = got
            else:
                answers[index] = got
        if not answers:
            first = failures[1]
            raise ProviderError(f"compare: every one of the {repeat} round(s) failed; round 1: {first}")
        watch.phase = "check"
        checked, check_tokens, degraded = _check_blind(memory, scope, answers, paths[0] if len(paths) == 1 else None)
    rounds = tuple(
        Round(index, failed=failures[index]) if index in failures else
        Round(index, memory=checked[(index, "memory")], baseline=checked[(index, "baseline")])
        for index in range(1, repeat + 1)
    )  # fmt: skip
    tokens: dict[str, int] = {"brief": brief.usage.total_tokens}
    tokens.update({arm: sum(r.tokens for r in _runs(rounds, arm)) for arm in ARMS})
    tokens["check"] = check_tokens
    tokens["total"] = sum(tokens.values())
    identical: dict[str, bool] = {arm: len({r.output for r in _runs(rounds, arm)}) == 1 for arm in ARMS}
    reported = sorted({result.model for pair in answers.values() for _, result, _ in pair.values()})
    calls = {phase: watch.calls[phase] for phase in ("brief", *ARMS, "check")}
    notes = _notes(brief.degraded, degraded, reported, model)
    fairness = _fairness(model, brief.block_tokens, calls, len(answers), repeat, identical)
    return Comparison(task=task, model=model.describe(), temperature=TEMPERATURE, repeat=repeat, seed=SHUFFLE_SEED,
                      block_tokens=brief.block_tokens, briefed=tuple(i.record.handle for i in brief.used),
                      rounds=rounds, memory_calls=calls, tokens=tokens, seconds=time.perf_counter() - started,
                      identical=identical, fairness=fairness, notes=tuple(notes))  # fmt: skip


def _round(
    model: ChatModel, prompts: dict[Arm, list[Message]], index: int, watch: _Watch
) -> dict[Arm, tuple[str, ChatResult, float]] | str:
    """Both arms' answers, or why the round failed. The arms take turns going first."""
    order = ARMS if index % 2 else ARMS[::-1]
    got: dict[Arm, tuple[str, ChatResult, float]] = {}
    for arm in order:
        watch.phase = arm
        start = time.perf_counter()
        try:
            result = model.chat(prompts[arm], max_tokens=MAX_ANSWER_TOKENS, temperature=TEMPERATURE)
        except ProviderError as exc:
            return f"the {arm} arm's model call failed ({exc.code}): {str(exc)[:200]}"
        code = _code(result.text)
        if not code:
            return f"the {arm} arm's answer was empty"
        got[arm] = (code, result, time.perf_counter() - start)
    return got


def _check_blind(
    memory: Forethought, scope: Scope, answers: dict[int, dict[Arm, tuple[str, ChatResult, float]]], path: str | None
) -> tuple[dict[tuple[int, Arm], ArmRun], int, list[str]]:
    """Check every answer in a seeded shuffled order, each with its text (and the task's one file) only."""
    keys = [(index, arm) for index, pair in sorted(answers.items()) for arm in ARMS]
    random.Random(SHUFFLE_SEED).shuffle(keys)
    checked: dict[tuple[int, Arm], ArmRun] = {}
    tokens, degraded = 0, []
    for index, arm in keys:
        code, result, seconds = answers[index][arm]
        report = memory.check(scope, code, path=path)
        tokens += report.usage.total_tokens
        if report.degraded:
            degraded.append(report.degraded)
        handles = tuple(dict.fromkeys(v.handle for v in report.violations))
        checked[(index, arm)] = ArmRun(output=code, violations=len(report.violations), handles=handles,
                                       tokens=result.usage.total_tokens, seconds=seconds,
                                       truncated=result.finish_reason == "length")  # fmt: skip
    return checked, tokens, degraded


def _code(text: str) -> str:
    """The fenced code of an answer (all blocks), or the whole answer when it has none; control
    characters dropped, as the check refuses them."""
    blocks = _FENCED.findall(text)
    body = "\n\n".join(b.strip("\n") for b in blocks) if blocks else text
    return _CONTROL.sub("", body).strip()


def _fairness(model: ChatModel, block_tokens: int, calls: dict[str, int], completed: int, repeat: int,
              identical: dict[str, bool]) -> str:  # fmt: skip
    """The conditions of the run, in one line, from what was observed."""
    temperature = f"{TEMPERATURE:g}"
    if block_tokens:
        prompts = f"prompts identical except the {block_tokens}-token memory block"
    else:
        prompts = "the brief held no memory for this task, so both prompts were identical"
    parts = [
        f"same model {model.describe()}, temperature {temperature}, {prompts}",
        f"memory arm made {calls['brief'] + calls['memory']} memory call(s) (one brief, reused every round)",
        f"baseline made {calls['baseline']} memory calls",
        f"{calls['check']} outputs checked blind in a shuffled order (seed {SHUFFLE_SEED})",
        f"{completed} of {repeat} rounds completed",
    ]
    if completed > 1:
        same = [arm for arm in ARMS if identical[arm]]
        if len(same) == len(ARMS):
            parts.append(f"each arm's output was identical in all {completed} rounds (temperature {temperature}), "
                         "so a spread of 0 is expected")  # fmt: skip
        elif same:
            parts.append(f"the {same[0]} arm's output was identical in all {completed} rounds")
    return "; ".join(parts)


def _notes(brief_degraded: str | None, check_degraded: list[str], reported: list[str], model: ChatModel) -> list[str]:
    notes = []
    if brief_degraded:
        notes.append(f"brief: {brief_degraded}")
    if check_degraded:
        notes.append(f"{len(check_degraded)} check(s) ran the deterministic checks only: {check_degraded[0]}")
    if len(reported) > 1:
        notes.append(f"the server reported {len(reported)} different models: {', '.join(reported)}")
    elif reported and reported[0] != model.name:
        notes.append(f"the server reported the model as {reported[0]}")
    return notes


def _arm(r: Round, arm: Arm) -> ArmRun:
    run = r.memory if arm == "memory" else r.baseline
    if run is None:
        raise ValueError(f"round {r.index} has no {arm} run")
    return run


def _runs(rounds: Sequence[Round], arm: Arm) -> list[ArmRun]:
    return [_arm(r, arm) for r in rounds if r.failed is None]


class _Watch:
    """Counts every call to the façade's public methods made on this thread while compare runs, by
    the phase under way: each method is wrapped on the instance, and unwrapped on leaving."""

    def __init__(self, memory: Forethought) -> None:
        self.phase = "setup"
        self.calls: Counter[str] = Counter()
        self._memory = memory
        self._thread = threading.get_ident()
        self._names = [n for n, v in vars(Forethought).items() if inspect.isfunction(v) and not n.startswith("_")]

    def __enter__(self) -> _Watch:
        for name in self._names:
            setattr(self._memory, name, self._counted(getattr(self._memory, name)))
        return self

    def __exit__(self, *exc: object) -> None:
        for name in self._names:
            vars(self._memory).pop(name, None)

    def _counted(self, method: Callable[..., T]) -> Callable[..., T]:
        @functools.wraps(method)
        def call(*args: Any, **kwargs: Any) -> T:
            if threading.get_ident() == self._thread:
                self.calls[self.phase] += 1
            return method(*args, **kwargs)

        return call
