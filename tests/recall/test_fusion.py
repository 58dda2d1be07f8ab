"""Fusion: shared ranks, weighted RRF, the pool signals, presets and packing, through a real store."""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path

import pytest

from forethought import Forethought, InvalidInput, ModelUnavailable, RecallConfig, RecallResult, RetainItem
from forethought.embed.base import Embedder, Vectors
from forethought.embed.hashing import HashingEmbedder
from forethought.recall import PRESETS, preset
from forethought.recall.fusion import rrf, shared_ranks
from forethought.recall.packing import estimate_tokens, pack

CODE_NOTES = [
    "We instantiate PrismaClient once in lib/db.ts and reuse it everywhere.",
    "The checkout form sends the X-ApexCart-CSRF header with every POST.",
    "Prisma migrations run in CI before the client bundle is built.",
    "The API client retries twice on a 503 with exponential backoff.",
    "CSRF protection is handled by the framework for server-rendered pages.",
    "ApexCart is the storefront; its cart service lives in services/cart.",
    "Use the database client from the pool, never a new connection per request.",
    "Headers starting with X- are stripped by the CDN unless allow-listed.",
    "The prisma schema lives in prisma/schema.prisma.",
    "Client-side validation mirrors the server rules in shared/validation.ts.",
]


def ids(memory: Forethought, space: str, query: str, strategy: str | RecallConfig = "balanced") -> list[str | None]:
    return [h.record.external_id for h in memory.recall(memory.scope("generic", space), query, strategy=strategy).hits]


# -- shared ranks and RRF --------------------------------------------------------------------
def test_ties_share_the_average_of_their_ranks() -> None:
    assert shared_ranks([9, 7, 7, 3], cut=False) == [1, 2.5, 2.5, 4]
    assert shared_ranks([5, 5, 5], cut=False) == [2, 2, 2]
    assert shared_ranks([], cut=True) == []


def test_a_tie_reaching_the_end_of_a_cut_list_is_dropped() -> None:
    assert shared_ranks([9, 7, 3, 3], cut=True) == [1, 2, None, None]
    assert shared_ranks([4, 4, 4], cut=True) == [None, None, None]
    # A single record at the end is not a tie; nor is a tie the list was not cut after.
    assert shared_ranks([9, 7, 3], cut=True) == [1, 2, 3]
    assert shared_ranks([9, 3, 3], cut=False) == [1, 2.5, 2.5]


def test_rrf_weights_each_rank_and_skips_the_unranked() -> None:
    shares = rrf({"a": 1, "b": 2.5, "c": None}, weight=2.0, rrf_k=10)
    assert shares == pytest.approx({"a": 2 / 11, "b": 2 / 12.5})
    assert rrf({"a": 1}, weight=0.0, rrf_k=10) == {}


# -- through the façade ----------------------------------------------------------------------
@pytest.fixture
def code(memory: Forethought) -> Forethought:
    memory.retain_many(
        memory.scope("generic", "repo"), [RetainItem(t, external_id=f"n{i}") for i, t in enumerate(CODE_NOTES)]
    )
    return memory


@pytest.mark.parametrize("strategy", ["balanced", "keyword", "exact"])
def test_an_exact_identifier_ranks_the_record_that_holds_it_first(code: Forethought, strategy: str) -> None:
    assert ids(code, "repo", "PrismaClient", strategy=strategy)[0] == "n0"
    assert ids(code, "repo", "X-ApexCart-CSRF", strategy=strategy)[0] == "n1"
    assert ids(code, "repo", "where do we create the PrismaClient?", strategy=strategy)[0] == "n0"
    assert ids(code, "repo", "which requests carry X-ApexCart-CSRF", strategy=strategy)[0] == "n1"


def test_every_hit_explains_itself_by_signal(code: Forethought) -> None:
    hit = code.recall(code.scope("generic", "repo"), "PrismaClient").hits[0]
    assert {"keyword", "terms", "statement"} <= set(hit.why)
    assert hit.why["keyword"].rank == 1
    assert hit.score == pytest.approx(sum(s.contribution for s in hit.why.values()), abs=1e-6)
    assert hit.explain().startswith(max(hit.why, key=lambda name: hit.why[name].contribution))


def test_the_record_that_says_it_outranks_the_one_whose_context_says_it(memory: Forethought) -> None:
    said = "Melanie: We went camping at the beach with the kids last week."
    memory.retain_many(
        memory.scope("generic", "chat"),
        [
            RetainItem("Caroline: That sounds lovely, tell me more!", external_id="reply", context=said),
            RetainItem(said, external_id="said", context="Caroline: How was your summer?"),
            RetainItem("Caroline: I started a pottery class.", external_id="other"),
        ],
    )
    result = memory.recall(memory.scope("generic", "chat"), "camping at the beach")
    assert [h.record.external_id for h in result.hits][:2] == ["said", "reply"]
    reply = next(h for h in result.hits if h.record.external_id == "reply")
    assert "keyword" in reply.why and "statement" not in reply.why

    def margin(result: RecallResult) -> float:
        score = {h.record.external_id: h.score for h in result.hits}
        return score["said"] - score["reply"]

    flat = memory.recall(
        memory.scope("generic", "chat"), "camping at the beach", strategy=RecallConfig(statement_weight=0)
    )
    assert margin(result) > margin(flat) + 0.01


def test_a_named_date_favours_what_was_recorded_then(memory: Forethought) -> None:
    memory.retain_many(
        memory.scope("generic", "team"),
        [
            RetainItem(f"Team lunch: we talked about the {topic}.", external_id=day, occurred_at=day)
            for day, topic in [("2023-09-01", "budget"), ("2023-10-13", "roadmap"), ("2023-11-20", "hiring")]
        ],
    )
    assert ids(memory, "team", "What came up at the team lunch on October 13, 2023?")[0] == "2023-10-13"
    assert ids(memory, "team", "team lunch in November 2023")[0] == "2023-11-20"
    top = memory.recall(memory.scope("generic", "team"), "team lunch in September").hits[0]
    assert top.record.external_id == "2023-09-01" and "period" in top.why
    off = memory.recall(
        memory.scope("generic", "team"), "team lunch on October 13, 2023", strategy=RecallConfig(period_weight=0)
    )
    assert all("period" not in h.why for h in off.hits)


def test_a_term_every_record_shares_earns_nothing_when_the_list_is_cut(memory: Forethought) -> None:
    items = [RetainItem(f"Caroline: note number {i} about gardening.", external_id=f"c{i}") for i in range(12)]
    items.append(RetainItem("Caroline: I moved here from Sweden four years ago.", external_id="sweden"))
    memory.retain_many(memory.scope("generic", "c"), items)
    cut = RecallConfig(candidates=5, semantic_weight=0, statement_weight=0, recency_weight=0)
    hits = memory.recall(memory.scope("generic", "c"), "Caroline Sweden", strategy=cut).hits
    assert hits[0].record.external_id == "sweden"
    assert hits[0].why["terms"].rank == 1
    # The others share only "caroline" with the query, and score alike: each list holds an
    # arbitrary slice of a tie that runs past its cut, so they stay candidates but earn nothing.
    rest = hits[1:]
    assert rest and all(h.score == 0 for h in rest)
    assert all(s.contribution == 0 for h in rest for s in h.why.values())
    assert any("terms" in h.why for h in rest)


def test_recency_breaks_near_ties_toward_the_newer_record(memory: Forethought) -> None:
    memory.retain_many(
        memory.scope("generic", "p"),
        [
            RetainItem("The office printer is on floor 2.", external_id="old", occurred_at="2024-01-01"),
            RetainItem("The office printer is on floor 2.", external_id="new", occurred_at="2024-06-01"),
        ],
    )
    assert ids(memory, "p", "office printer", strategy="recent") == ["new", "old"]


# -- presets -----------------------------------------------------------------------------------
def test_balanced_is_the_default_configuration() -> None:
    assert preset("balanced") == RecallConfig(name="balanced")
    assert preset("balanced").rrf_k == 10 and preset("balanced").statement_weight > 0
    custom = RecallConfig(rrf_k=30)
    assert preset(custom) is custom
    with pytest.raises(InvalidInput, match="unknown recall strategy"):
        preset("fastest")


def test_presets_turn_signals_on_and_off() -> None:
    semantic = PRESETS["semantic"]
    assert semantic.keyword_weight == semantic.terms_weight == 0
    assert semantic.statement_weight == semantic.period_weight == semantic.recency_weight == 0
    assert PRESETS["keyword"].semantic_weight == 0
    assert PRESETS["exact"].terms_weight > PRESETS["balanced"].terms_weight
    assert PRESETS["recent"].recency_weight > PRESETS["balanced"].recency_weight
    with pytest.raises(ValueError):
        RecallConfig(period_weight=-1)


def test_semantic_preset_ranks_by_embedding_alone(code: Forethought) -> None:
    hits = code.recall(code.scope("generic", "repo"), "PrismaClient", strategy="semantic").hits
    assert hits and all(set(h.why) == {"semantic"} for h in hits)


# -- packing -----------------------------------------------------------------------------------
def test_pack_keeps_rank_order_skips_what_does_not_fit_and_stops_at_the_limit() -> None:
    sizes = {"a": 5, "b": 50, "c": 4, "d": 3, "e": 1}
    kept, used = pack(list(sizes), sizes.__getitem__, budget=12, limit=10)
    assert kept == ["a", "c", "d"] and used == 12
    kept, used = pack(list(sizes), sizes.__getitem__, budget=100, limit=2)
    assert kept == ["a", "b"] and used == 55


def test_token_estimate_is_never_below_one_per_word() -> None:
    assert estimate_tokens("a b c d e f") == 6
    assert estimate_tokens("x" * 40) == 10
    assert estimate_tokens("") == 1


def test_recall_respects_a_token_budget(code: Forethought) -> None:
    result = code.recall(code.scope("generic", "repo"), "client", k=10, token_budget=20)
    assert result.tokens <= 20 and result.hits
    assert result.over_budget > 0


def test_the_statement_signal_reads_a_bounded_opening_of_long_statements(memory: Forethought) -> None:
    filler = "Notes from the quarterly planning meeting. " * 60  # about 2,600 characters
    memory.retain_many(
        memory.scope("generic", "docs"),
        [
            RetainItem(f"Kubernetes upgrade plan. {filler}", external_id="early"),
            RetainItem(f"{filler} Kubernetes upgrade plan.", external_id="late"),
        ],
    )
    by_id = {h.record.external_id: h for h in memory.recall(memory.scope("generic", "docs"), "kubernetes upgrade").hits}
    assert "statement" in by_id["early"].why
    assert "statement" not in by_id["late"].why and "keyword" in by_id["late"].why


class _SwitchableEmbedder(Embedder):
    """The hashing embedder, until it is switched off."""

    def __init__(self) -> None:
        self.inner = HashingEmbedder()
        self.name, self.dim = self.inner.name, self.inner.dim
        self.down = False

    def embed(self, texts: Sequence[str]) -> Vectors:
        if self.down:
            raise ModelUnavailable("switched off (test)")
        return self.inner.embed(texts)


def test_recall_without_the_model_still_answers_from_the_other_signals(db_path: Path) -> None:
    embedder = _SwitchableEmbedder()
    with Forethought.open(db_path, embedder=embedder) as memory:
        memory.retain_many(
            memory.scope("generic", "repo"), [RetainItem(t, external_id=f"n{i}") for i, t in enumerate(CODE_NOTES)]
        )
        assert memory.recall(memory.scope("generic", "repo"), "PrismaClient").unavailable == []
        embedder.down = True
        # A query embedded before is answered from the vector cache; a new one needs the model.
        assert memory.recall(memory.scope("generic", "repo"), "PrismaClient").unavailable == []
        result = memory.recall(memory.scope("generic", "repo"), "the PrismaClient")
        assert result.unavailable == ["semantic"]
        assert result.hits[0].record.external_id == "n0"
        assert all("semantic" not in h.why for h in result.hits)
