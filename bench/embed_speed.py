"""Embedder speed: load time, one-sentence latency and batched throughput, for each embedder.

    python -m bench.embed_speed [--singles 200] [--sentences 2000] [--out bench/results/embed_speed.json]

The sentences are generated (seeded, no data downloaded) to look like what an agent stores:
preferences, project facts, decisions and meeting notes with names, numbers and identifiers,
8 to 60 words long. Timings are wall-clock on this machine; run nothing else meanwhile.
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import random
import statistics
import time
from collections.abc import Callable
from dataclasses import asdict, dataclass
from functools import partial
from pathlib import Path

import numpy as np

from forethought.embed import Embedder, HashingEmbedder, MiniLMEmbedder

BATCH = 32

_PEOPLE = ["Alice", "Bob", "Priya", "Chen", "Fatima", "Lars", "Mateo", "Yuki", "Ngozi", "Oleg"]
_SYSTEMS = [
    "PostgreSQL 16",
    "the PrismaClient",
    "Redis",
    "the billing_service",
    "Kafka",
    "the auth-gateway",
    "S3",
    "the nightly ETL job",
    "GitHub Actions",
    "the React frontend",
]
_TOPICS = [
    "the quarterly budget",
    "the Q3 roadmap",
    "on-call rotation",
    "the vendor contract",
    "the hiring plan",
    "incident 4127",
    "the data retention policy",
    "the API rate limits",
    "the migration to Kubernetes",
    "customer onboarding",
]
_DAYS = ["Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "next week", "the 14th"]
_CLAUSES = [
    "because the previous attempt timed out under load",
    "after the security review flagged the old configuration",
    "so that the European customers see lower latency",
    "although nobody has measured the effect yet",
    "which the team agreed on during the retrospective",
    "until the new hardware arrives in the data centre",
    "as long as the error rate stays below 0.5 percent",
    "and the runbook in the wiki has been updated accordingly",
]
_TEMPLATES = [
    "{p} prefers to be contacted by email rather than Slack, especially before 10am.",
    "The production database is {s}, and backups run every {n} hours {c}.",
    "{p} decided that {s} should be upgraded on {d} {c}.",
    "Meeting notes: {p} and {q} discussed {t}; the outcome was to postpone it by {n} days {c}.",
    "Never deploy {s} on a Friday afternoon {c}.",
    "{p} owns {t} and expects a written summary every {d}.",
    "The latency of {s} rose from {n} ms to {m} ms after the last release {c}.",
    "Remember that {p} is allergic to peanuts, so order lunch from the other place.",
    "We switched from {s} to {r} for {t} {c}, and {p} will review the results on {d}.",
    "{p} asked whether {t} affects {s}; {q} replied that it does not, {c}.",
]


@dataclass(frozen=True)
class EmbedderSpeed:
    """The figures for one embedder (times in milliseconds unless named _s)."""

    embedder: str
    load_s: float  # construct and load (for MiniLM: locate, sha256-check, build the session)
    first_vector_s: float  # load plus the first embed_one
    single_p50_ms: float
    single_p95_ms: float
    single_mean_ms: float
    batch32_p50_ms: float
    batch32_sentences_per_s: float
    batch32_cpu_ms_per_sentence: float
    one_call_sentences_per_s: float  # every sentence in one embed(); the embedder batches itself


@dataclass(frozen=True)
class Report:
    machine: dict[str, str | int]
    sentences: dict[str, float]
    results: list[EmbedderSpeed]


def sentences(count: int, seed: int) -> list[str]:
    rng = random.Random(seed)
    out: list[str] = []
    for _ in range(count):
        parts = [
            rng.choice(_TEMPLATES).format(
                p=rng.choice(_PEOPLE),
                q=rng.choice(_PEOPLE),
                s=rng.choice(_SYSTEMS),
                r=rng.choice(_SYSTEMS),
                t=rng.choice(_TOPICS),
                d=rng.choice(_DAYS),
                c=rng.choice(_CLAUSES),
                n=rng.randint(2, 48),
                m=rng.randint(50, 900),
            )
            for _ in range(rng.choice([1, 1, 1, 2, 2, 3]))
        ]
        out.append(" ".join(parts))
    return out


def _timed(fn: Callable[[], object]) -> float:
    start = time.perf_counter()
    fn()
    return time.perf_counter() - start


def measure(make: Callable[[], Embedder], singles: list[str], corpus: list[str]) -> EmbedderSpeed:
    start = time.perf_counter()
    embedder = make()
    if isinstance(embedder, MiniLMEmbedder):
        embedder.load()
    load_s = time.perf_counter() - start
    embedder.embed_one(singles[0])
    first_vector_s = time.perf_counter() - start

    for text in singles[:10]:  # warm caches and the session's allocator before timing
        embedder.embed_one(text)
    single_ms = [1000 * _timed(partial(embedder.embed_one, text)) for text in singles]

    batches = [corpus[i : i + BATCH] for i in range(0, len(corpus), BATCH)]
    cpu_start = time.process_time()
    batch_ms = [1000 * _timed(partial(embedder.embed, batch)) for batch in batches]
    # CPU time (all threads) is steadier than wall time when other processes share the machine.
    batch_cpu_ms = 1000 * (time.process_time() - cpu_start) / len(corpus)
    one_call_s = _timed(partial(embedder.embed, corpus))

    q = np.percentile(single_ms, [50, 95])
    return EmbedderSpeed(
        embedder=embedder.name,
        load_s=round(load_s, 4),
        first_vector_s=round(first_vector_s, 4),
        single_p50_ms=round(float(q[0]), 3),
        single_p95_ms=round(float(q[1]), 3),
        single_mean_ms=round(statistics.fmean(single_ms), 3),
        batch32_p50_ms=round(float(np.percentile(batch_ms, 50)), 3),
        batch32_sentences_per_s=round(len(corpus) / (sum(batch_ms) / 1000), 1),
        batch32_cpu_ms_per_sentence=round(batch_cpu_ms, 3),
        one_call_sentences_per_s=round(len(corpus) / one_call_s, 1),
    )


def _machine() -> dict[str, str | int]:
    import onnxruntime

    return {
        "python": platform.python_version(),
        "platform": platform.platform(),
        "processor": platform.processor() or platform.machine(),
        "cpus_usable": len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else 0,
        "onnxruntime": onnxruntime.__version__,
        "numpy": np.__version__,
        # Other processes on the machine change these figures a lot (ONNX Runtime most); this
        # says how busy it was when the run started.
        "load_avg_1m_at_start": f"{os.getloadavg()[0]:.2f}",
    }


def _table(results: list[EmbedderSpeed]) -> str:
    rows = [
        (
            "embedder",
            "load s",
            "1st vec s",
            "single p50 ms",
            "p95 ms",
            "batch32 p50 ms",
            "batched sent/s",
            "CPU ms/sent",
            "one call sent/s",
        ),
        *(
            (
                r.embedder,
                f"{r.load_s:.3f}",
                f"{r.first_vector_s:.3f}",
                f"{r.single_p50_ms:.2f}",
                f"{r.single_p95_ms:.2f}",
                f"{r.batch32_p50_ms:.2f}",
                f"{r.batch32_sentences_per_s:,.0f}",
                f"{r.batch32_cpu_ms_per_sentence:.2f}",
                f"{r.one_call_sentences_per_s:,.0f}",
            )
            for r in results
        ),
    ]
    widths = [max(len(row[i]) for row in rows) for i in range(len(rows[0]))]
    return "\n".join("  ".join(cell.rjust(w) for cell, w in zip(row, widths, strict=True)) for row in rows)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--singles", type=int, default=200)
    parser.add_argument("--sentences", type=int, default=2000)
    parser.add_argument("--seed", type=int, default=7)
    parser.add_argument("--out", type=Path, default=Path("bench/results/embed_speed.json"))
    args = parser.parse_args()

    machine = _machine()
    singles = sentences(args.singles, args.seed)
    corpus = sentences(args.sentences, args.seed + 1)
    words = [len(s.split()) for s in corpus]
    results = [measure(MiniLMEmbedder, singles, corpus), measure(HashingEmbedder, singles, corpus)]
    report = Report(
        machine={**machine, "load_avg_1m_at_end": f"{os.getloadavg()[0]:.2f}"},
        sentences={
            "singles": len(singles),
            "corpus": len(corpus),
            "batch": BATCH,
            "words_mean": round(statistics.fmean(words), 1),
            "words_min": min(words),
            "words_max": max(words),
        },
        results=results,
    )
    print(
        f"{len(corpus)} sentences, {report.sentences['words_mean']} words on average "
        f"({min(words)}-{max(words)}); {report.machine['cpus_usable']} CPUs, load average "
        f"{report.machine['load_avg_1m_at_start']} at start, {report.machine['load_avg_1m_at_end']} at end"
    )
    print(_table(results))
    args.out.parent.mkdir(parents=True, exist_ok=True)
    tmp = args.out.with_suffix(".tmp")
    tmp.write_text(json.dumps(asdict(report), indent=2) + "\n")
    tmp.replace(args.out)  # never leave a half-written results file
    print(f"written to {args.out}")


if __name__ == "__main__":
    main()
