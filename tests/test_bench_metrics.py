"""The benchmarks' pure helpers: LoCoMo's session-level recall and the peak-memory reader."""

from __future__ import annotations

from pathlib import Path

from bench.locomo import Answer, score, session_of, session_recall
from bench.procmem import children, parse_status, tree_peaks


def test_a_dia_id_names_its_session() -> None:
    assert session_of("D8:6") == 8
    assert session_of("D12:1") == 12
    assert session_of(None) is None
    assert session_of("01HXYZ") is None


def test_session_recall_is_the_share_of_the_evidence_sessions_a_hit_comes_from() -> None:
    assert session_recall(["D1:3"], ["D1:9", "D2:1"]) == 1.0  # the right session, another turn
    assert session_recall(["D1:3", "D4:2"], ["D4:7", None]) == 0.5
    assert session_recall(["D1:3"], ["D2:3"]) == 0.0
    assert session_recall([], ["D1:1"]) == 0.0


def test_score_reports_session_recall_beside_turn_recall() -> None:
    answers = [
        Answer("conv-26", 4, ("D1:3",), ("D1:4", "D2:1"), 1.0),  # right session, wrong turn
        Answer("conv-26", 4, ("D2:5",), ("D2:5",), 1.0),
    ]
    scores = score(answers)
    assert scores.recall_any_10 == 0.5
    assert scores.session_recall_10 == 1.0


def _proc(root: Path, pid: int, status: str, kids: str = "") -> None:
    (root / str(pid) / "task" / str(pid)).mkdir(parents=True)
    (root / str(pid) / "status").write_text(status)
    (root / str(pid) / "task" / str(pid) / "children").write_text(kids)


def test_parse_status_reads_the_name_and_the_peak_in_mib() -> None:
    assert parse_status("Name:\tpostgres\nVmPeak:\t 9000 kB\nVmHWM:\t  20480 kB\n") == ("postgres", 20.0)
    assert parse_status("Name:\tkthreadd\n") == ("kthreadd", None)


def test_tree_peaks_walks_every_living_descendant(tmp_path: Path) -> None:
    _proc(tmp_path, 10, "Name:\tpostgres\nVmHWM:\t2048 kB\n", "11 12 99")
    _proc(tmp_path, 11, "Name:\tpostgres\nVmHWM:\t1024 kB\n", "13")
    _proc(tmp_path, 12, "Name:\tpostgres\nVmHWM:\t1024 kB\n")
    _proc(tmp_path, 13, "Name:\tworker\nVmHWM:\t512 kB\n")
    assert children(10, tmp_path) == [11, 12, 99]
    peaks = tree_peaks(10, tmp_path)  # 99 has exited: left out
    assert [(p.pid, p.name, p.peak_rss_mb) for p in peaks] == [
        (10, "postgres", 2.0),
        (11, "postgres", 1.0),
        (12, "postgres", 1.0),
        (13, "worker", 0.5),
    ]
    assert tree_peaks(404, tmp_path) == []
