"""Benchmark vector index candidates for one space: build rate, query latency, recall, memory, removal.

    python -m bench.vector_index                       # 10k, 100k, 1M (about 15 min on 2 cores)
    python -m bench.vector_index --sizes 10000,100000  # quicker
    python -m bench.vector_index --tune                # also the HNSW build-parameter grid at 100k

Data: clustered synthetic embeddings, dim 384, L2-normalised: n/50 gaussian cluster centroids
(2,000 at 100k) with lognormal sizes, grouped 20 to a topic, plus noise. Uniform random unit vectors
have no near neighbours and make ANN look unlike real text embeddings; flat clusters (no topics)
are islands with nothing to steer a graph search between them, which real text does have. Typical
cosines: same cluster ~0.5, same topic ~0.25, unrelated ~0. Queries are fresh draws from the same
mixture. Ground truth is float32 brute force.

Each (candidate, size) runs in a fresh subprocess so its RSS is its own: we load the data, reset
the peak-RSS counter (/proc/self/clear_refs), build, and report RSS growth and peak growth over
that baseline. Latency is one query at a time with k=50 (recall asks for more candidates than it
returns); recall@10 is the first 10 of those 50 against the exact top 10. Then 1% of the keys are
removed in one call, timed, and removed vectors are used as queries to check none comes back.

Candidates needing packages outside the project venv (hnswlib) print "not installed" and are
skipped. Results go to bench/results/vector_index.json and a table on stdout.
"""

from __future__ import annotations

import argparse
import gc
import json
import os
import platform
import subprocess
import sys
import tempfile
import time
from abc import ABC, abstractmethod
from pathlib import Path
from typing import Any

import numpy as np
import numpy.typing as npt

from forethought.vectors import ExactIndex, HnswIndex, HnswParams
from forethought.vectors.hnsw import quantise

DIM = 384
K = 50
# One centroid per 50 vectors on average (2,000 at 100k), with lognormal cluster sizes: a fixed
# centroid count would make 10k all singletons-plus-ties and 1M one dense blob per topic, so
# recall would measure the data generator rather than the index.
MEAN_CLUSTER = 50
CLUSTER_SIZE_SIGMA = 1.0
CLUSTERS_PER_TOPIC = 20
# Noise norms relative to a unit vector; 1.0 puts a point (or a cluster centroid) at cosine ~0.7
# from its parent, so two points of one cluster sit near 0.5 and of one topic near 0.25.
NOISE = 1.0
TOPIC_SPREAD = 1.0
ADD_BATCH = 10_000
RESULTS = Path(__file__).parent / "results" / "vector_index.json"
# The vector part of a recall must stay well under the product's recall p95 (30 ms at 100k,
# 150 ms at 1M); these are the budgets a candidate is judged against.
BUDGET_MS = {10_000: 5.0, 100_000: 10.0, 1_000_000: 40.0}
CHOSEN = HnswParams()  # the defaults HnswIndex ships with

F32 = npt.NDArray[np.float32]
I64 = npt.NDArray[np.int64]


# --- candidates ---------------------------------------------------------------------------------


class Candidate(ABC):
    """What the bench needs of an index: bulk add, one k-NN query, bulk removal."""

    name: str
    notes = ""

    @abstractmethod
    def add(self, keys: I64, vectors: F32) -> None: ...

    @abstractmethod
    def search(self, query: F32, k: int) -> list[int]: ...

    @abstractmethod
    def remove(self, keys: I64) -> None: ...

    def sweep(self) -> list[tuple[str, Any]]:
        """Query-time settings to measure, as (label, setting) pairs; applied by `apply`."""
        return [("", None)]

    def apply(self, setting: Any) -> None:
        return None


class ForethoughtExact(Candidate):
    name = "exact-f32"
    notes = "forethought ExactIndex: contiguous float32, BLAS matvec + argpartition"

    def __init__(self) -> None:
        self.index = ExactIndex(DIM)

    def add(self, keys: I64, vectors: F32) -> None:
        self.index.add(keys, vectors)

    def search(self, query: F32, k: int) -> list[int]:
        return [hit.key for hit in self.index.search(query, k)]

    def remove(self, keys: I64) -> None:
        self.index.remove(keys.tolist())


class NumpyBlas(ForethoughtExact):
    name = "numpy-blas"
    notes = "same matrix, `matrix @ query` through numpy's multi-threaded BLAS"

    def search(self, query: F32, k: int) -> list[int]:
        n = len(self.index)
        scores = self.index._matrix[:n] @ query  # the very matrix ExactIndex scans with einsum
        top = np.argpartition(-scores, k - 1)[:k]
        return self.index._row_keys[top[np.argsort(-scores[top])]].tolist()


class ForethoughtHnsw(Candidate):
    name = "usearch-i8q"
    notes = "forethought HnswIndex: usearch HNSW over int8 quantised per row by us"

    def __init__(self, params: HnswParams = CHOSEN) -> None:
        self.index = HnswIndex(DIM, params)
        self.notes += f" (M={params.connectivity}, ef_add={params.expansion_add})"

    def add(self, keys: I64, vectors: F32) -> None:
        self.index.add(keys, vectors)

    def search(self, query: F32, k: int) -> list[int]:
        return [hit.key for hit in self.index.search(query, k)]

    def remove(self, keys: I64) -> None:
        self.index.remove(keys.tolist())

    def sweep(self) -> list[tuple[str, Any]]:
        return [(f"ef={ef}", ef) for ef in (128, 256, 512)]

    def apply(self, setting: Any) -> None:
        self.index.expansion_search = setting  # query-time knob, no rebuild needed


class UsearchCast(Candidate):
    """usearch HNSW fed float32 and left to cast to its own storage type."""

    def __init__(self, dtype: str) -> None:
        from usearch.index import Index

        self.name = f"usearch-{dtype}"
        self.notes = f"usearch HNSW, usearch's own {dtype} cast (M=16, ef_add=64)"
        self.index = Index(ndim=DIM, metric="cos", dtype=dtype, connectivity=16, expansion_add=64)

    def add(self, keys: I64, vectors: F32) -> None:
        self.index.add(keys.astype(np.uint64), vectors)

    def search(self, query: F32, k: int) -> list[int]:
        return [int(key) for key in self.index.search(query, k).keys]

    def remove(self, keys: I64) -> None:
        self.index.remove(keys.astype(np.uint64))

    def sweep(self) -> list[tuple[str, Any]]:
        return [(f"ef={ef}", ef) for ef in (64, 128)]

    def apply(self, setting: Any) -> None:
        self.index.expansion_search = setting


class RowStore(Candidate):
    """Shared bookkeeping for flat (scan-everything) candidates: rows, key<->row, swap-remove."""

    def __init__(self) -> None:
        self.row_keys = np.zeros(0, dtype=np.int64)
        self.rows: dict[int, int] = {}

    @abstractmethod
    def _append(self, vectors: F32) -> None: ...

    @abstractmethod
    def _move(self, source: int, target: int) -> None: ...

    @abstractmethod
    def _truncate(self, n: int) -> None: ...

    def add(self, keys: I64, vectors: F32) -> None:
        start = self.row_keys.size
        self._append(vectors)
        self.row_keys = np.concatenate([self.row_keys, keys])
        self.rows.update(zip(keys.tolist(), range(start, start + keys.size), strict=True))

    def remove(self, keys: I64) -> None:
        n = self.row_keys.size
        for key in keys.tolist():
            row = self.rows.pop(key)
            n -= 1
            if row != n:
                self._move(n, row)
                self.row_keys[row] = self.row_keys[n]
                self.rows[int(self.row_keys[row])] = row
        self.row_keys = self.row_keys[:n]
        self._truncate(n)


class NumpyF16(RowStore):
    name = "numpy-f16"
    notes = "float16 matrix, upcast in 16k-row blocks for the matvec (numpy has no f16 BLAS)"

    def __init__(self) -> None:
        super().__init__()
        self.matrix = np.zeros((0, DIM), dtype=np.float16)

    def _append(self, vectors: F32) -> None:
        self.matrix = np.concatenate([self.matrix, vectors.astype(np.float16)])

    def _move(self, source: int, target: int) -> None:
        self.matrix[target] = self.matrix[source]

    def _truncate(self, n: int) -> None:
        self.matrix = self.matrix[:n]

    def search(self, query: F32, k: int) -> list[int]:
        scores = np.concatenate(
            [self.matrix[i : i + 16_384].astype(np.float32) @ query for i in range(0, len(self.matrix), 16_384)]
        )
        top = np.argpartition(-scores, k - 1)[:k]
        return self.row_keys[top[np.argsort(-scores[top])]].tolist()


class BinaryRescore(RowStore):
    name = "binary+i8"
    notes = "sign-bit codes, Hamming shortlist of 10*k (numpy bitwise_count), rescored by int8 cosine"
    shortlist = 10

    def __init__(self) -> None:
        super().__init__()
        self.bits = np.zeros((0, DIM // 64), dtype=np.uint64)
        self.codes = np.zeros((0, DIM), dtype=np.int8)
        self.norms = np.zeros(0, dtype=np.float32)

    def _append(self, vectors: F32) -> None:
        codes = quantise(vectors)
        self.bits = np.concatenate([self.bits, np.packbits(vectors > 0, axis=1).view(np.uint64)])
        self.codes = np.concatenate([self.codes, codes])
        self.norms = np.concatenate([self.norms, np.linalg.norm(codes.astype(np.float32), axis=1)])

    def _move(self, source: int, target: int) -> None:
        self.bits[target], self.codes[target], self.norms[target] = (
            self.bits[source],
            self.codes[source],
            self.norms[source],
        )

    def _truncate(self, n: int) -> None:
        self.bits, self.codes, self.norms = self.bits[:n], self.codes[:n], self.norms[:n]

    def search(self, query: F32, k: int) -> list[int]:
        code = np.packbits(query > 0).view(np.uint64)
        distances = np.bitwise_count(self.bits ^ code).sum(axis=1, dtype=np.uint16)
        m = min(self.shortlist * k, distances.size)
        rows = np.argpartition(distances, m - 1)[:m] if m < distances.size else np.arange(distances.size)
        scores = (self.codes[rows].astype(np.float32) @ query) / self.norms[rows]
        top = np.argpartition(-scores, k - 1)[:k]
        return self.row_keys[rows[top[np.argsort(-scores[top])]]].tolist()


class UsearchFlatI8(RowStore):
    name = "usearch-flat-i8"
    notes = "our int8 codes in a numpy matrix, scanned by usearch's SIMD exact search"

    def __init__(self) -> None:
        super().__init__()
        self.codes = np.zeros((0, DIM), dtype=np.int8)

    def _append(self, vectors: F32) -> None:
        self.codes = np.concatenate([self.codes, quantise(vectors)])

    def _move(self, source: int, target: int) -> None:
        self.codes[target] = self.codes[source]

    def _truncate(self, n: int) -> None:
        self.codes = np.ascontiguousarray(self.codes[:n])

    def search(self, query: F32, k: int) -> list[int]:
        from usearch.index import search

        matches = search(self.codes, quantise(query.reshape(1, -1))[0], k, metric="cos", exact=True)
        return self.row_keys[np.asarray(matches.keys, dtype=np.int64)].tolist()


class Hnswlib(Candidate):
    name = "hnswlib-f32"
    notes = "hnswlib HNSW, float32 storage (M=16, ef_construction=64)"

    def __init__(self, capacity: int) -> None:
        import hnswlib

        self.index = hnswlib.Index(space="cosine", dim=DIM)
        self.index.init_index(max_elements=capacity, ef_construction=64, M=16)

    def add(self, keys: I64, vectors: F32) -> None:
        self.index.add_items(vectors, keys)

    def search(self, query: F32, k: int) -> list[int]:
        labels, _ = self.index.knn_query(query, k=k)
        return [int(key) for key in labels[0]]

    def remove(self, keys: I64) -> None:
        for key in keys.tolist():
            self.index.mark_deleted(key)

    def sweep(self) -> list[tuple[str, Any]]:
        return [(f"ef={ef}", ef) for ef in (64, 128)]

    def apply(self, setting: Any) -> None:
        self.index.set_ef(setting)


def make_candidate(name: str, n: int) -> Candidate:
    factories = {
        "exact-f32": ForethoughtExact,
        "numpy-blas": NumpyBlas,
        "usearch-i8q": ForethoughtHnsw,
        "usearch-i8": lambda: UsearchCast("i8"),
        "usearch-f16": lambda: UsearchCast("f16"),
        "numpy-f16": NumpyF16,
        "binary+i8": BinaryRescore,
        "usearch-flat-i8": UsearchFlatI8,
        "hnswlib-f32": lambda: Hnswlib(n),
    }
    return factories[name]()


CANDIDATES = [
    "exact-f32",
    "numpy-blas",
    "usearch-i8q",
    "usearch-i8",
    "usearch-f16",
    "numpy-f16",
    "binary+i8",
    "usearch-flat-i8",
    "hnswlib-f32",
]
OPTIONAL_MODULES = {"hnswlib-f32": "hnswlib"}
# Flat scans cost time linear in n, so their smaller-size latency predicts the larger one.
# A candidate whose build alone would take longer is left out, to keep the 1M run near 15 min;
# the baseline and the chosen index are always measured.
MAX_BUILD_S = 300
ALWAYS = {"exact-f32", "usearch-i8q"}
SCANS = {"numpy-blas", "numpy-f16", "binary+i8", "usearch-flat-i8"}
# Decided before running, from what the smaller sizes show (see the module docstring of the run):
SKIP_AT_1M = {
    "usearch-i8": "recall@10 is capped near 0.92 by usearch's int8 cast already at 10k/100k",
    "hnswlib-f32": "float32 storage alone is 1.5 GB at 1M, over the whole-process RSS budget",
}


# --- data ---------------------------------------------------------------------------------------


def clustered(n: int, seed: int, centroids: F32, weights: npt.NDArray[np.float64]) -> F32:
    rng = np.random.default_rng(seed)
    out = np.empty((n, DIM), dtype=np.float32)
    for start in range(0, n, 100_000):  # in blocks, so peak memory stays near the output size
        m = min(100_000, n - start)
        block = centroids[rng.choice(len(centroids), size=m, p=weights)]
        block += rng.standard_normal((m, DIM), dtype=np.float32) * np.float32(NOISE / np.sqrt(DIM))
        block /= np.linalg.norm(block, axis=1, keepdims=True)
        out[start : start + m] = block
    return out


def make_dataset(n: int, queries: int, folder: Path) -> None:
    rng = np.random.default_rng(0)
    clusters = max(1, n // MEAN_CLUSTER)
    topics = rng.standard_normal((max(1, clusters // CLUSTERS_PER_TOPIC), DIM), dtype=np.float32)
    topics /= np.linalg.norm(topics, axis=1, keepdims=True)
    centroids = topics[rng.integers(0, len(topics), clusters)]
    centroids += rng.standard_normal((clusters, DIM), dtype=np.float32) * np.float32(TOPIC_SPREAD / np.sqrt(DIM))
    centroids /= np.linalg.norm(centroids, axis=1, keepdims=True)
    weights = rng.lognormal(0.0, CLUSTER_SIZE_SIGMA, len(centroids))
    weights /= weights.sum()
    data = clustered(n, 1, centroids, weights)
    query = clustered(queries, 2, centroids, weights)
    truth = np.empty((queries, 100), dtype=np.int64)
    for start in range(0, queries, 50):
        scores = data @ query[start : start + 50].T  # (n, 50)
        top = np.argpartition(-scores, 99, axis=0)[:100].T
        order = np.take_along_axis(-scores.T, top, axis=1).argsort(axis=1, kind="stable")
        truth[start : start + 50] = np.take_along_axis(top, order, axis=1)
    removed = np.random.default_rng(3).choice(n, size=max(1, n // 100), replace=False)
    for name, array in (("data", data), ("query", query), ("truth", truth), ("removed", removed)):
        np.save(folder / f"{name}.npy", array)


# --- measuring one candidate (runs in its own process) -------------------------------------------


def rss_mb(field: str) -> float:
    for line in Path("/proc/self/status").read_text().splitlines():
        if line.startswith(field + ":"):
            return int(line.split()[1]) / 1024
    raise RuntimeError(f"{field} not in /proc/self/status")


def recall_at_10(found: list[list[int]], truth: I64) -> float:
    hits = sum(len(set(row[:10]) & set(expected[:10].tolist())) for row, expected in zip(found, truth, strict=True))
    return hits / (10 * len(found))


def timed_queries(candidate: Candidate, queries: F32) -> tuple[list[list[int]], npt.NDArray[np.float64]]:
    found, latencies = [], []
    for query in queries:
        start = time.perf_counter()
        found.append(candidate.search(query, K))
        latencies.append(time.perf_counter() - start)
    return found, np.array(latencies) * 1e3


def measure(name: str, folder: Path) -> dict[str, Any]:
    data, queries = np.load(folder / "data.npy"), np.load(folder / "query.npy")
    truth, removed = np.load(folder / "truth.npy"), np.load(folder / "removed.npy")
    n = len(data)
    keys = np.arange(n, dtype=np.int64)
    gc.collect()
    Path("/proc/self/clear_refs").write_text("5")  # resets VmHWM, so the peak below is this build's
    base = rss_mb("VmRSS")
    load_before = os.getloadavg()[0]

    candidate = make_candidate(name, n)
    start = time.perf_counter()
    for i in range(0, n, ADD_BATCH):
        candidate.add(keys[i : i + ADD_BATCH], data[i : i + ADD_BATCH])
    build_s = time.perf_counter() - start
    gc.collect()
    result: dict[str, Any] = {
        "candidate": name,
        "notes": candidate.notes,
        "n": n,
        "build_s": round(build_s, 2),
        "add_per_s": round(n / build_s),
        "rss_growth_mb": round(rss_mb("VmRSS") - base, 1),
        "peak_growth_mb": round(rss_mb("VmHWM") - base, 1),
        "settings": [],
    }
    for label, setting in candidate.sweep():
        candidate.apply(setting)
        candidate.search(queries[0], K)  # warm caches and lazy init out of the timings
        found, ms = timed_queries(candidate, queries)
        result["settings"].append(
            {
                "setting": label,
                "p50_ms": round(float(np.percentile(ms, 50)), 3),
                "p95_ms": round(float(np.percentile(ms, 95)), 3),
                "recall_at_10": round(recall_at_10(found, truth), 4),
            }
        )

    start = time.perf_counter()
    candidate.remove(removed.astype(np.int64))
    result["remove_1pct_ms"] = round((time.perf_counter() - start) * 1e3, 1)
    gone = set(removed.tolist())
    probes = data[removed[:200]]  # a removed vector is the query most likely to find itself
    leaked = sum(len(gone & set(candidate.search(probe, K))) for probe in probes)
    found = [candidate.search(query, K) for query in queries]
    truth_after = np.array([[key for key in row if key not in gone][:10] for row in truth.tolist()])
    result["leaked_after_remove"] = leaked
    result["recall_at_10_after_remove"] = round(recall_at_10(found, truth_after), 4)
    result["loadavg_1m"] = [round(load_before, 2), round(os.getloadavg()[0], 2)]
    return result


def threshold_sweep(folder: Path) -> list[dict[str, Any]]:
    """Exact search latency and the one-off HNSW build (the tier move) at candidate thresholds."""
    data, queries = np.load(folder / "data.npy"), np.load(folder / "query.npy")[:200]
    rows = []
    for n in (5_000, 10_000, 20_000, 30_000, 50_000):
        exact = ForethoughtExact()
        exact.add(np.arange(n, dtype=np.int64), data[:n])
        exact.search(queries[0], K)
        _, ms = timed_queries(exact, queries)
        hnsw = HnswIndex(DIM, CHOSEN)
        start = time.perf_counter()
        hnsw.add(np.arange(n, dtype=np.int64), data[:n])
        rows.append(
            {
                "n": n,
                "exact_p50_ms": round(float(np.percentile(ms, 50)), 3),
                "exact_p95_ms": round(float(np.percentile(ms, 95)), 3),
                "hnsw_build_s": round(time.perf_counter() - start, 2),
            }
        )
    return rows


def tuning_grid(folder: Path) -> list[dict[str, Any]]:
    data, queries, truth = (np.load(folder / f"{name}.npy") for name in ("data", "query", "truth"))
    keys = np.arange(len(data), dtype=np.int64)
    rows = []
    for connectivity in (8, 12, 16, 24):
        for expansion_add in (32, 64, 128):
            params = HnswParams(connectivity, expansion_add, 64)
            candidate = ForethoughtHnsw(params)
            start = time.perf_counter()
            candidate.add(keys, data)
            build_s = time.perf_counter() - start
            for _, ef in candidate.sweep():
                candidate.apply(ef)
                found, ms = timed_queries(candidate, queries[:200])
                rows.append(
                    {
                        "connectivity": connectivity,
                        "expansion_add": expansion_add,
                        "expansion_search": ef,
                        "add_per_s": round(len(data) / build_s),
                        "p95_ms": round(float(np.percentile(ms, 95)), 3),
                        "recall_at_10": round(recall_at_10(found, truth[:200]), 4),
                    }
                )
                print(json.dumps(rows[-1]), file=sys.stderr, flush=True)
    return rows


# --- orchestration ------------------------------------------------------------------------------


def run_worker(args: list[str], timeout_s: float) -> Any:
    command = [sys.executable, "-m", "bench.vector_index", "--worker", *args]
    try:
        done = subprocess.run(command, capture_output=True, text=True, timeout=timeout_s, check=False)
    except subprocess.TimeoutExpired:
        return {"error": f"timed out after {timeout_s:.0f} s"}
    if done.returncode != 0:
        return {"error": done.stderr.strip().splitlines()[-1] if done.stderr.strip() else "failed"}
    return json.loads(done.stdout.strip().splitlines()[-1])


def skip_reason(name: str, n: int, earlier: list[dict[str, Any]]) -> str | None:
    module = OPTIONAL_MODULES.get(name)
    if module is not None:
        try:
            __import__(module)
        except ImportError:
            return f"{module} not installed"
    if n >= 1_000_000 and name in SKIP_AT_1M:
        return SKIP_AT_1M[name]
    previous = [row for row in earlier if row["candidate"] == name and "settings" in row]
    if name not in SCANS and name not in ALWAYS and previous:
        # Graph inserts slow down as the graph grows: usearch-i8q added 1.8x slower per vector at
        # 1M than at 100k.
        projected_s = 1.8 * n / previous[-1]["add_per_s"]
        if projected_s > MAX_BUILD_S:
            return f"projected build {projected_s / 60:.0f} min > {MAX_BUILD_S / 60:.0f} min run budget"
    if name in SCANS and previous and n in BUDGET_MS:
        last = previous[-1]
        projected = min(setting["p95_ms"] for setting in last["settings"]) * n / last["n"]
        if projected > 2 * BUDGET_MS[n]:
            return f"projected p95 {projected:.0f} ms from {last['n']:,} rows, budget {BUDGET_MS[n]:.0f} ms"
    return None


def print_table(results: list[dict[str, Any]]) -> None:
    header = (
        f"{'candidate':<16}{'n':>10}{'setting':>9}{'add/s':>9}{'p50 ms':>9}{'p95 ms':>9}"
        f"{'rec@10':>8}{'RSS MB':>8}{'peak MB':>9}{'rm 1% ms':>10}{'leaks':>6}{'rec after':>10}"
    )
    print(header)
    print("-" * len(header))
    for row in results:
        if "skipped" in row or "error" in row:
            print(f"{row['candidate']:<16}{row['n']:>10,}  {row.get('skipped') or row.get('error')}")
            continue
        for setting in row["settings"]:
            print(
                f"{row['candidate']:<16}{row['n']:>10,}{setting['setting']:>9}{row['add_per_s']:>9,}"
                f"{setting['p50_ms']:>9.2f}{setting['p95_ms']:>9.2f}{setting['recall_at_10']:>8.3f}"
                f"{row['rss_growth_mb']:>8.0f}{row['peak_growth_mb']:>9.0f}{row['remove_1pct_ms']:>10.1f}"
                f"{row['leaked_after_remove']:>6}{row['recall_at_10_after_remove']:>10.3f}"
            )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sizes", default="10000,100000,1000000")
    parser.add_argument("--queries", type=int, default=300)
    parser.add_argument("--candidates", default=",".join(CANDIDATES))
    parser.add_argument("--tune", action="store_true", help="also run the HNSW build grid at 100k")
    parser.add_argument("--out", type=Path, default=RESULTS)
    parser.add_argument("--worker", nargs="+", help=argparse.SUPPRESS)
    args = parser.parse_args()

    if args.worker:
        kind, folder = args.worker[0], Path(args.worker[1])
        output = {"threshold": threshold_sweep, "tune": tuning_grid}.get(kind)
        print(json.dumps(output(folder) if output else measure(kind, folder)))
        return

    sizes = [int(size) for size in args.sizes.split(",")]
    names = args.candidates.split(",")
    report: dict[str, Any] = {
        "machine": {
            "cpus": os.cpu_count(),
            "python": platform.python_version(),
            "numpy": np.__version__,
            "usearch": __import__("usearch").__version__,
        },
        "dataset": {
            "dim": DIM,
            "mean_cluster": MEAN_CLUSTER,
            "cluster_size_sigma": CLUSTER_SIZE_SIGMA,
            "clusters_per_topic": CLUSTERS_PER_TOPIC,
            "topic_spread": TOPIC_SPREAD,
            "noise": NOISE,
            "queries": args.queries,
            "k": K,
        },
        "budget_ms": BUDGET_MS,
        "results": [],
    }
    results: list[dict[str, Any]] = report["results"]
    started = time.perf_counter()
    for n in sizes:
        with tempfile.TemporaryDirectory(prefix="vecbench-") as tmp:
            folder = Path(tmp)
            print(f"\n# n = {n:,}: making data and ground truth", flush=True)
            make_dataset(n, args.queries, folder)
            for name in names:
                reason = skip_reason(name, n, results)
                if reason:
                    print(f"  {name}: skipped ({reason})", flush=True)
                    results.append({"candidate": name, "n": n, "skipped": reason})
                    continue
                print(f"  {name} ...", end=" ", flush=True)
                row = run_worker([name, str(folder)], timeout_s=1500)
                row.setdefault("candidate", name)
                row.setdefault("n", n)
                results.append(row)
                print(row.get("error") or f"{row['build_s']} s build", flush=True)
            if n == 100_000:
                print("  exact vs. tier-move sweep ...", flush=True)
                report["threshold_sweep"] = run_worker(["threshold", str(folder)], timeout_s=1200)
                if args.tune:
                    print("  HNSW tuning grid ...", flush=True)
                    report["tuning"] = run_worker(["tune", str(folder)], timeout_s=3600)
    report["total_s"] = round(time.perf_counter() - started)
    args.out.parent.mkdir(parents=True, exist_ok=True)
    args.out.write_text(json.dumps(report, indent=2) + "\n")
    print()
    print_table(results)
    if "threshold_sweep" in report:
        print("\nthreshold sweep (exact latency vs. one-off HNSW build):")
        for row in report["threshold_sweep"]:
            print(f"  {row}")
    print(f"\nwrote {args.out} ({report['total_s']} s)")


if __name__ == "__main__":
    main()
