"""LoCoMo retrieval: how well recall finds the turns that answer a question about a long chat.

    python -m bench.locomo [PATH] [--out bench/results/locomo.json] [--limit-conversations N]

PATH is a file in the LoCoMo format (default: the five development conversations in
`../shared/data/locomo/locomo_dev.json`; see that folder's README). The file is only read, never
copied. One fresh temporary database per run, one space per conversation and ingest mode; every
turn is one memory: the statement is the turn as said, prefixed by its speaker, its dia_id is the
external id, it occurred at its session's date, and a shared photo's caption goes in `context`
(indexed for search, never shown). Ingest modes add more context: the neighbouring turns of the
same session, and the session date.

For every question of categories 1-4 (1 multi-hop, 2 temporal, 3 open-domain, 4 single-hop)
each variant recalls the top 10, and a hit is relevant when its external id is in the question's
evidence list. Reported: recall_any@5, recall_any@10, recall_all@10, NDCG@10 (binary
relevance) and session-level recall@10 (the share of the evidence's sessions that some top-10 hit
comes from; a hit's session is its dia_id's, `D8:6` → 8), overall and per category, for all
conversations, for the tuning pair (conv-26, conv-30) and for the three held out from tuning;
ingest rate (turns/s, real embedder) and the latency of the whole recall call (p50/p95 ms).
Nothing about the questions, answers or evidence is used at query time.
"""

from __future__ import annotations

import argparse
import json
import math
import re
import sys
import tempfile
import time
from collections.abc import Iterable, Sequence
from dataclasses import asdict, dataclass
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from bench.common import Stopwatch, command_line, machine, markdown_table, now_iso, peak_rss_mb, timing, write_json
from forethought import Forethought, Scope
from forethought.facade import RetainItem
from forethought.recall import PRESETS, RecallConfig
from forethought.targets import backend_for

DEFAULT_DATA = Path("../shared/data/locomo/locomo_dev.json")
CATEGORIES = {1: "multi-hop", 2: "temporal", 3: "open-domain", 4: "single-hop"}
TUNING = ("conv-26", "conv-30")
HELD_OUT = ("conv-41", "conv-42", "conv-43")
K = 10
_DIA_ID = re.compile(r"D\d+:\d+")


# -- the data ----------------------------------------------------------------------------------
@dataclass(frozen=True)
class Turn:
    dia_id: str
    session: int
    speaker: str
    text: str
    caption: str | None
    when: datetime


@dataclass(frozen=True)
class Question:
    text: str
    category: int
    evidence: tuple[str, ...]


@dataclass(frozen=True)
class Conversation:
    sample_id: str
    turns: tuple[Turn, ...]
    questions: tuple[Question, ...]
    # Questions of categories 1-4 left out because no evidence id survived cleaning.
    unscorable: int


def session_time(text: str) -> datetime:
    """`1:56 pm on 8 May, 2023` → 2023-05-08 13:56 UTC (LoCoMo gives no time zone)."""
    return datetime.strptime(text.strip(), "%I:%M %p on %d %B, %Y").replace(tzinfo=UTC)


def session_of(dia_id: str | None) -> int | None:
    """`D8:6` → 8; None for what is not a dia_id (a hit without an external id)."""
    if dia_id is None or not _DIA_ID.fullmatch(dia_id):
        return None
    return int(dia_id[1:].split(":")[0])


def clean_evidence(raw: Iterable[str]) -> tuple[str, ...]:
    """Split `D8:6; D9:17` on ';' and whitespace; drop what is not `D<n>:<k>` (`D:11:26`, `D`)."""
    found = [part for item in raw for part in re.split(r"[;\s]+", str(item)) if _DIA_ID.fullmatch(part)]
    return tuple(dict.fromkeys(found))


def load(path: Path) -> list[Conversation]:
    samples: list[dict[str, Any]] = json.loads(path.read_text())
    conversations: list[Conversation] = []
    for sample in samples:
        conv = sample["conversation"]
        sessions = sorted(
            int(key.removeprefix("session_"))
            for key in conv
            if re.fullmatch(r"session_\d+", key) and conv.get(f"{key}_date_time")
        )
        turns = [
            Turn(
                dia_id=t["dia_id"],
                session=n,
                speaker=t["speaker"],
                text=t["text"].strip(),
                caption=(t.get("blip_caption") or "").strip() or None,
                when=session_time(conv[f"session_{n}_date_time"]),
            )
            for n in sessions
            for t in conv[f"session_{n}"]
        ]
        questions: list[Question] = []
        unscorable = 0
        for qa in sample["qa"]:
            if qa.get("category") not in CATEGORIES:
                continue
            evidence = clean_evidence(qa.get("evidence", []))
            if not evidence:
                unscorable += 1
                continue
            questions.append(Question(qa["question"], int(qa["category"]), evidence))
        conversations.append(Conversation(sample["sample_id"], tuple(turns), tuple(questions), unscorable))
    return conversations


# -- ingest ------------------------------------------------------------------------------------
@dataclass(frozen=True)
class IngestMode:
    """How turns become memories: the statement is always the turn; these choose the context."""

    name: str
    window: int = 0  # neighbouring turns of the same session on each side
    date: bool = False  # the session date, written out ("8 May 2023")


INGEST_MODES = {
    m.name: m
    for m in [
        IngestMode("turn"),
        IngestMode("window1+date", window=1, date=True),
        IngestMode("window2", window=2),
        IngestMode("window2+date", window=2, date=True),
    ]
}
# What the product's conversation importers should do; the default variant uses it.
MAIN_INGEST = "window2+date"


def said(turn: Turn) -> str:
    return f"{turn.speaker}: {turn.text}" if turn.text else f"{turn.speaker}:"


def _photo(turn: Turn) -> str | None:
    return None if turn.caption is None else f"[{turn.speaker} shares {turn.caption}]"


def retain_items(conversation: Conversation, mode: IngestMode) -> list[RetainItem]:
    items: list[RetainItem] = []
    turns = conversation.turns
    for i, turn in enumerate(turns):
        context: list[str] = []
        photo = _photo(turn)
        if photo:
            context.append(photo)
        if mode.date:
            context.append(f"{turn.when.day} {turn.when:%B %Y}")
        for j in [*range(i - mode.window, i), *range(i + 1, i + mode.window + 1)]:
            if 0 <= j < len(turns) and turns[j].session == turn.session:
                neighbour = " ".join(p for p in [said(turns[j]), _photo(turns[j])] if p)
                context.append(neighbour)
        statement = said(turn) if turn.text else f"{said(turn)} {photo or ''}".strip()
        items.append(
            RetainItem(
                text=statement,
                kind="turn",
                occurred_at=turn.when,
                external_id=turn.dia_id,
                attributes={"session": turn.session, "speaker": turn.speaker},
                context="\n".join(context) or None,
            )
        )
    return items


def space_for(memory: Forethought, mode: IngestMode, conversation: Conversation) -> Scope:
    """One subject per conversation and ingest mode (a workspace per mode keeps them apart)."""
    return memory.scope("generic", conversation.sample_id, workspace=f"locomo-{mode.name}")


@dataclass(frozen=True)
class IngestFigures:
    mode: str
    turns: int
    seconds: float
    turns_per_s: float


def ingest(memory: Forethought, conversations: Sequence[Conversation], mode: IngestMode) -> IngestFigures:
    start = time.perf_counter()
    turns = 0
    for conversation in conversations:
        items = retain_items(conversation, mode)
        memory.retain_many(space_for(memory, mode, conversation), items, source="locomo")
        turns += len(items)
    seconds = time.perf_counter() - start
    return IngestFigures(mode.name, turns, round(seconds, 2), round(turns / seconds, 1))


# -- recall and scoring ------------------------------------------------------------------------
@dataclass(frozen=True)
class Variant:
    """One line of the table: an ingest mode and a recall strategy."""

    label: str
    ingest: str
    strategy: RecallConfig


_OFF = {"terms_weight": 0.0, "statement_weight": 0.0, "period_weight": 0.0, "recency_weight": 0.0}
_BM25 = RecallConfig(name="bm25", semantic_weight=0, **_OFF)
_DENSE = RecallConfig(name="dense", keyword_weight=0, **_OFF)
# Equal-weight reciprocal rank fusion (k=60) of BM25 and dense: the textbook hybrid.
_RRF = RecallConfig(name="rrf", rrf_k=60, semantic_weight=1.0, **_OFF)
# The balanced preset before this benchmark: RRF k=60 of BM25, dense and exact terms, + recency.
_BEFORE = RecallConfig(name="balanced-before", rrf_k=60, semantic_weight=1.0, statement_weight=0, period_weight=0)
_DEFAULT = PRESETS["balanced"]

VARIANTS = [
    Variant("bm25", "turn", _BM25),
    Variant("dense", "turn", _DENSE),
    Variant("rrf", "turn", _RRF),
    Variant("balanced-before", "turn", _BEFORE),
    Variant("balanced (default)", "turn", _DEFAULT),
    Variant("bm25", MAIN_INGEST, _BM25),
    Variant("dense", MAIN_INGEST, _DENSE),
    Variant("rrf", MAIN_INGEST, _RRF),
    Variant("balanced-before", MAIN_INGEST, _BEFORE),
    Variant("balanced (default)", MAIN_INGEST, _DEFAULT),
    # Ablations of the default, one change each.
    Variant("default, no statement", MAIN_INGEST, _DEFAULT.model_copy(update={"statement_weight": 0.0})),
    Variant("default, no period", MAIN_INGEST, _DEFAULT.model_copy(update={"period_weight": 0.0})),
    Variant("default, rrf_k 60", MAIN_INGEST, _DEFAULT.model_copy(update={"rrf_k": 60.0})),
    Variant("default, semantic 1.0", MAIN_INGEST, _DEFAULT.model_copy(update={"semantic_weight": 1.0})),
    Variant("balanced (default)", "window1+date", _DEFAULT),
    Variant("balanced (default)", "window2", _DEFAULT),
    Variant("default, no period", "window2", _DEFAULT.model_copy(update={"period_weight": 0.0})),
]


@dataclass(frozen=True)
class Answer:
    """What one recall returned for one question."""

    sample_id: str
    category: int
    evidence: tuple[str, ...]
    found: tuple[str | None, ...]  # external ids of the hits, best first
    latency_ms: float


def ask(memory: Forethought, variant: Variant, conversations: Sequence[Conversation]) -> list[Answer]:
    mode = INGEST_MODES[variant.ingest]
    answers: list[Answer] = []
    for conversation in conversations:
        space = space_for(memory, mode, conversation)
        memory.recall(space, "warm up", k=K, strategy=variant.strategy)  # builds the vector index
        watch = Stopwatch()
        for q in conversation.questions:
            with watch.time():
                result = memory.recall(space, q.text, k=K, strategy=variant.strategy)
            found = tuple(h.record.external_id for h in result.hits)
            answers.append(Answer(conversation.sample_id, q.category, q.evidence, found, watch.samples_ms[-1]))
    return answers


@dataclass(frozen=True)
class Scores:
    questions: int
    recall_any_5: float
    recall_any_10: float
    recall_all_10: float
    ndcg_10: float
    session_recall_10: float


def session_recall(evidence: Sequence[str], found: Sequence[str | None]) -> float:
    """The share of the evidence's sessions that some hit of `found` comes from."""
    wanted = {session_of(e) for e in evidence} - {None}
    if not wanted:
        return 0.0
    return len(wanted & {session_of(x) for x in found}) / len(wanted)


def score(answers: Sequence[Answer]) -> Scores:
    if not answers:
        return Scores(0, 0.0, 0.0, 0.0, 0.0, 0.0)
    any5 = any10 = all10 = ndcg = sessions = 0.0
    for a in answers:
        relevant = set(a.evidence)
        top = a.found[:K]
        any5 += any(x in relevant for x in top[:5])
        any10 += any(x in relevant for x in top)
        all10 += relevant <= set(top)
        dcg = sum(1 / math.log2(i + 2) for i, x in enumerate(top) if x in relevant)
        ideal = sum(1 / math.log2(i + 2) for i in range(min(len(relevant), K)))
        ndcg += dcg / ideal
        sessions += session_recall(a.evidence, top)
    n = len(answers)
    return Scores(
        n, round(any5 / n, 4), round(any10 / n, 4), round(all10 / n, 4), round(ndcg / n, 4), round(sessions / n, 4)
    )


def breakdown(answers: Sequence[Answer]) -> dict[str, Any]:
    """Scores overall and per category, for every group of conversations present."""
    groups = {"all": None, "tuning": TUNING, "held_out": HELD_OUT}
    out: dict[str, Any] = {}
    for group, members in groups.items():
        chosen = [a for a in answers if members is None or a.sample_id in members]
        if not chosen:
            continue
        out[group] = {
            "overall": asdict(score(chosen)),
            "by_category": {
                CATEGORIES[c]: asdict(score([a for a in chosen if a.category == c]))
                for c in CATEGORIES
                if any(a.category == c for a in chosen)
            },
        }
    return out


# -- the run -----------------------------------------------------------------------------------
def run(
    conversations: Sequence[Conversation], variants: Sequence[Variant], embedder: str, db: str | None = None
) -> tuple[list[IngestFigures], list[dict[str, Any]]]:
    """Ingest and ask on a fresh SQLite file, or on the (empty) database `db` names."""
    ingested: list[IngestFigures] = []
    results: list[dict[str, Any]] = []
    with tempfile.TemporaryDirectory(prefix="forethought-locomo-") as tmp:
        memory = Forethought.open(db or Path(tmp) / "locomo.db", embedder=embedder)
        try:
            if memory.embedder is not None:
                memory.embedder.embed_one("load the model before the clock starts")
            for name in dict.fromkeys(v.ingest for v in variants):
                figures = ingest(memory, conversations, INGEST_MODES[name])
                print(f"ingest {name}: {figures.turns} turns in {figures.seconds:.1f} s ({figures.turns_per_s:.1f}/s)")
                ingested.append(figures)
            for variant in variants:
                answers = ask(memory, variant, conversations)
                latency = timing([a.latency_ms for a in answers])
                entry: dict[str, Any] = {
                    "label": variant.label,
                    "ingest": variant.ingest,
                    "strategy": variant.strategy.model_dump(),
                    "latency": asdict(latency),
                    "scores": breakdown(answers),
                }
                overall = entry["scores"]["all"]["overall"]
                print(
                    f"{variant.label:>22} / {variant.ingest:<13} any@10 {overall['recall_any_10']:.3f}"
                    f"  ndcg@10 {overall['ndcg_10']:.3f}  p95 {entry['latency']['p95_ms']:.1f} ms"
                )
                results.append(entry)
        finally:
            memory.close()
    return ingested, results


def tables(results: Sequence[dict[str, Any]], ingested: Sequence[IngestFigures]) -> str:
    metric_cols = ["any@5", "any@10", "all@10", "NDCG@10"]
    out: list[str] = []

    def metrics(s: dict[str, Any]) -> list[str]:
        return [
            f"{s['recall_any_5']:.3f}",
            f"{s['recall_any_10']:.3f}",
            f"{s['recall_all_10']:.3f}",
            f"{s['ndcg_10']:.3f}",
        ]

    for group, title in [
        ("all", "All conversations"),
        ("held_out", "Held out (conv-41, 42, 43)"),
        ("tuning", "Tuning (conv-26, 30)"),
    ]:
        rows = [
            [
                r["label"],
                r["ingest"],
                *metrics(r["scores"][group]["overall"]),
                f"{r['latency']['p50_ms']:.1f}",
                f"{r['latency']['p95_ms']:.1f}",
            ]
            for r in results
            if group in r["scores"]
        ]
        if not rows:
            continue
        n = results[0]["scores"][group]["overall"]["questions"]
        out.append(f"**{title}** ({n} questions; latency over all questions)\n")
        out.append(markdown_table(["strategy", "ingest", *metric_cols, "p50 ms", "p95 ms"], rows) + "\n")
        category_rows = []
        for r in results:
            if group not in r["scores"]:
                continue
            cats = r["scores"][group]["by_category"]
            cells = [
                f"{cats[c]['recall_any_10']:.3f} / {cats[c]['ndcg_10']:.3f}" if c in cats else "-"
                for c in CATEGORIES.values()
            ]
            category_rows.append([r["label"], r["ingest"], *cells])
        out.append(f"*{title}, per category: any@10 / NDCG@10*\n")
        out.append(markdown_table(["strategy", "ingest", *CATEGORIES.values()], category_rows) + "\n")
    ingest_rows = [[f.mode, str(f.turns), f"{f.seconds:.1f}", f"{f.turns_per_s:.1f}"] for f in ingested]
    out.append(markdown_table(["ingest mode", "turns", "seconds", "turns/s"], ingest_rows))
    return "\n".join(out)


def main(argv: Sequence[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("path", nargs="?", type=Path, default=DEFAULT_DATA, help="a LoCoMo-format JSON file")
    parser.add_argument("--out", type=Path, default=Path("bench/results/locomo.json"))
    parser.add_argument("--limit-conversations", type=int, default=None, metavar="N")
    parser.add_argument("--conversations", default=None, help="comma-separated sample ids to keep")
    parser.add_argument("--ingest", default=None, help="comma-separated ingest modes: run only their variants")
    parser.add_argument("--embedder", default="minilm", choices=["minilm", "hashing"])
    parser.add_argument(
        "--db", default=None, help="an empty database to run on (a postgresql:// URL); default a fresh SQLite file"
    )
    args = parser.parse_args(argv)

    if not args.path.exists():
        sys.exit(f"no LoCoMo file at {args.path} (give its path as the first argument)")
    conversations = load(args.path)
    if args.conversations:
        keep = set(args.conversations.split(","))
        conversations = [c for c in conversations if c.sample_id in keep]
    if args.limit_conversations is not None:
        conversations = conversations[: args.limit_conversations]
    variants = VARIANTS
    if args.ingest:
        wanted = set(args.ingest.split(","))
        variants = [v for v in VARIANTS if v.ingest in wanted]
    questions = sum(len(c.questions) for c in conversations)
    print(
        f"{len(conversations)} conversations, {sum(len(c.turns) for c in conversations)} turns, {questions} questions"
    )

    ingested, results = run(conversations, variants, args.embedder, args.db)
    report = {
        "benchmark": "locomo-retrieval",
        "date": now_iso(),
        "command": command_line(),
        "machine": machine(),
        "peak_rss_mb": peak_rss_mb(),
        "data": {
            "path": str(args.path),
            "conversations": [c.sample_id for c in conversations],
            "turns": sum(len(c.turns) for c in conversations),
            "questions": questions,
            "unscorable_questions": sum(c.unscorable for c in conversations),
            "evidence_ids_not_in_conversation": sum(
                len(set(q.evidence) - {t.dia_id for t in c.turns}) for c in conversations for q in c.questions
            ),
            "k": K,
        },
        "embedder": args.embedder,
        "store": backend_for(args.db or "locomo.db"),
        "ingest": [asdict(f) for f in ingested],
        "results": results,
    }
    write_json(args.out, report)
    print()
    print(tables(results, ingested))
    print(f"\nwritten to {args.out}")


if __name__ == "__main__":
    main()
