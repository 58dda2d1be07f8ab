"""The ADR reader: template shapes, folder links and bounds, and the 45 real ADRs of the shared data."""

from __future__ import annotations

from datetime import UTC, datetime
from pathlib import Path

import pytest

from forethought.apps.project.sources import adr as adr_module
from forethought.apps.project.sources.adr import AdrImport, link_adrs, read_adr, read_adr_folder
from forethought.apps.project.sources.adr_document import MAX_CHARS
from forethought.domain import Role
from forethought.domain.documents import DocumentStatus, SourceDocument
from forethought.errors import InvalidInput

REAL = Path("/work/shared/data/adr")
PREFIX = "architecture-decision-records_"


def day(year: int, month: int, date: int) -> datetime:
    return datetime(year, month, date, tzinfo=UTC)


def quotes_hold(doc: SourceDocument) -> None:
    for item in doc.items:
        assert item.quote in doc.turns[item.turn_index].text, item
        assert item.kind == "decision"
        assert item.statement and len(item.statement) <= 400
    assert [t.index for t in doc.turns] == list(range(len(doc.turns)))
    assert all(t.role is Role.USER and t.occurred_at == doc.occurred_at for t in doc.turns)
    assert len(doc.title) <= 200 and len(doc.items) <= 8
    assert doc.source == "adr" and doc.extract is False


def write(folder: Path, files: dict[str, str | bytes]) -> Path:
    for name, content in files.items():
        path = folder / name
        path.parent.mkdir(parents=True, exist_ok=True)
        if isinstance(content, bytes):
            path.write_bytes(content)
        else:
            path.write_text(content, encoding="utf-8")
    return folder


# --- template shapes ----------------------------------------------------------------------------

NYGARD = """# 2. Use PostgreSQL for persistence

Date: 2019-03-04

## Status

Superseded by [3. Use CockroachDB](0003-use-cockroachdb.md)

## Context

We need a relational store that the whole team knows.

## Decision

We will use PostgreSQL 11 for all persistent data. Backups run nightly.

## Consequences

Everyone must learn psql.
"""


def test_a_nygard_adr_gives_its_decision_sentence_from_the_decision_section() -> None:
    doc = read_adr(NYGARD, path="doc/adr/0002-use-postgresql.md")
    assert doc is not None
    quotes_hold(doc)
    assert doc.ref == "adr:0002-use-postgresql"
    assert doc.title == "ADR 0002: Use PostgreSQL for persistence"
    assert doc.metadata["number"] == 2 and doc.metadata["adr_id"] == "0002"
    assert doc.metadata["path"] == "doc/adr/0002-use-postgresql.md"
    assert doc.occurred_at == day(2019, 3, 4)
    assert doc.status is DocumentStatus.SUPERSEDED
    assert doc.superseded_by == ("adr:0003-use-cockroachdb",)
    [item] = doc.items
    assert item.quote == "We will use PostgreSQL 11 for all persistent data."
    assert item.statement == "Use PostgreSQL for persistence: We will use PostgreSQL 11 for all persistent data."
    assert doc.turns[item.turn_index].text.startswith("## Decision")
    assert [t.text.split("\n")[0] for t in doc.turns] == [
        "# 2. Use PostgreSQL for persistence",
        "## Status",
        "## Context",
        "## Decision",
        "## Consequences",
    ]
    assert doc.turns[0].speaker is None


MADR_FRONT_MATTER = """---
status: accepted
date: 2022-11-15
decision-makers: Alice Liddell, Bob Builder
supersedes: "[ADR-0001](0001-use-nygard.md)"
---
# Use MADR for architecture decisions

## Context and Problem Statement

Which format should our decision records follow?

## Considered Options

* MADR 3.0
* Nygard

## Decision Outcome

Chosen option: "MADR 3.0", because it is lean and has a clear structure.

### Consequences

* Good, because the options are compared.
"""


def test_madr_with_front_matter_gives_status_date_deciders_and_the_chosen_option() -> None:
    doc = read_adr(MADR_FRONT_MATTER, path="0004-use-madr.md")
    assert doc is not None
    quotes_hold(doc)
    assert doc.status is DocumentStatus.CURRENT
    assert doc.occurred_at == day(2022, 11, 15)
    assert doc.turns[0].speaker == "Alice Liddell, Bob Builder"
    assert doc.supersedes == ("adr:0001-use-nygard",)
    [item] = doc.items
    assert item.quote == 'Chosen option: "MADR 3.0", because it is lean and has a clear structure.'
    assert doc.turns[0].text.startswith("---\nstatus: accepted")


MADR_2 = """# Use Markdown Architectural Decision Records

* Status: proposed
* Deciders: Oliver, Olaf
* Date: 2018-05-06

Technical Story: we need records [#12](https://example.com/12)

## Context and Problem Statement

We want to record architectural decisions made in this project.

## Decision Outcome

Chosen option: "MADR 2.1.2", because it is lean.
"""


def test_madr_2_bullet_fields_are_read_and_a_proposal_keeps_its_items() -> None:
    doc = read_adr(MADR_2, path="adr-0005-madr.md")
    assert doc is not None
    quotes_hold(doc)
    assert doc.ref == "adr:adr-0005-madr" and doc.metadata["adr_id"] == "adr-0005"
    assert doc.status is DocumentStatus.PROPOSED
    assert doc.occurred_at == day(2018, 5, 6)
    assert doc.turns[0].speaker == "Oliver, Olaf"
    assert [i.quote for i in doc.items] == ['Chosen option: "MADR 2.1.2", because it is lean.']
    assert doc.skipped is None


TABLE = """# Open Data Hub - ODH-ADR-Infra-0012 - Queue everything

| **Date** | Sep 5th, 2023 |
|----------|---------------|
| **Status** | Approved |
| **Authors** | [Ann Example](@ann), [Bo Example](@bo) |
| **Supersedes** | [ODH-ADR-Infra-0003](ODH-ADR-Infra-0003-no-queues.md) |
| **Superseded by** | N/A |

## What

This ADR documents the decision to adopt a message queue for all writes.

## Why

Writes were lost.
"""


def test_a_header_table_gives_fields_and_the_what_section_gives_the_decision() -> None:
    doc = read_adr(TABLE, path="infra/ODH-ADR-Infra-0012-queues.md")
    assert doc is not None
    quotes_hold(doc)
    assert doc.ref == "adr:odh-adr-infra-0012-queues"
    assert doc.title == "ADR ODH-ADR-Infra-0012: Open Data Hub - Queue everything"
    assert doc.occurred_at == day(2023, 9, 5)
    assert doc.status is DocumentStatus.CURRENT
    assert doc.turns[0].speaker == "Ann Example, Bo Example"
    assert doc.supersedes == ("adr:odh-adr-infra-0003-no-queues",)
    assert doc.superseded_by == ()
    assert [i.quote for i in doc.items] == ["This ADR documents the decision to adopt a message queue for all writes."]


def test_a_table_of_keys_over_one_row_of_values_is_a_header_too() -> None:
    text = "# Cache reads\n\n| Status | Date | Deciders |\n|---|---|---|\n| Rejected | 2021-02-03 | Kim |\n\n"
    text += "## Decision\n\nWe will cache every read in Redis.\n"
    doc = read_adr(text, path="0008-cache-reads.md")
    assert doc is not None
    assert doc.status is DocumentStatus.REJECTED
    assert doc.occurred_at == day(2021, 2, 3)
    assert doc.turns[0].speaker == "Kim"
    assert doc.items == () and doc.skipped == "rejected ADR"  # reported, not filed


STATUS_SECTION = """# ADR-0004: Use a monorepo

## Status

Superseded by [ADR-0009](0009-split-repos.md)

Accepted on 2020-06-01

## Decision

We will keep every service in one repository.
"""


def test_a_status_section_with_a_superseded_by_link_and_a_date_in_the_status() -> None:
    doc = read_adr(STATUS_SECTION, path="0004-use-a-monorepo.md")
    assert doc is not None
    quotes_hold(doc)
    assert doc.status is DocumentStatus.SUPERSEDED
    assert doc.superseded_by == ("adr:0009-split-repos",)
    assert doc.occurred_at == day(2020, 6, 1)
    assert doc.title == "ADR 0004: Use a monorepo"


def test_a_decision_made_of_a_short_bullet_list_gives_one_item_per_rule() -> None:
    text = """# 7. Logging rules

Status: Accepted (2024-01-09)

## Decision

We will:

* Log in JSON lines.
* Never log access tokens or passwords.
* Keep logs for 30 days.

## Consequences

More disk.
"""
    doc = read_adr(text, path="0007-logging.md")
    assert doc is not None
    quotes_hold(doc)
    assert doc.occurred_at == day(2024, 1, 9)
    assert [i.quote for i in doc.items] == [
        "Log in JSON lines.",
        "Never log access tokens or passwords.",
        "Keep logs for 30 days.",
    ]
    assert doc.items[1].statement == "Logging rules: Never log access tokens or passwords."


def test_a_y_statement_is_quoted_whole() -> None:
    text = """# Session state

Status: accepted

In the context of the web shop, facing the need to scale out,
we decided for stateless servers with a Redis session store
and neglected sticky sessions, to achieve elasticity, accepting a network hop.

## Notes

None.
"""
    doc = read_adr(text, path="0011-session-state.md")
    assert doc is not None
    quotes_hold(doc)
    [item] = doc.items
    assert item.quote.startswith("In the context of the web shop")
    assert item.quote.endswith("accepting a network hop.")


def test_sub_decisions_outside_the_alternatives_give_one_item_each() -> None:
    text = """# Red teaming

| Status | Approved |
| --- | --- |

## How

### Where the logic lives

**Decision**: Implement the logic in the garak fork.

### How it runs

**Decision**: Run it as Kubeflow Pipeline components.

## Alternatives

**Decision: Rejected.** A bespoke service costs too much.
"""
    doc = read_adr(text, path="ODH-ADR-ART-001.md")
    assert doc is not None
    quotes_hold(doc)
    assert [i.quote for i in doc.items] == [
        "Implement the logic in the garak fork.",
        "Run it as Kubeflow Pipeline components.",
    ]


def test_setext_headings_and_an_adr_tools_supersedes_line() -> None:
    text = """Use Kafka
=========

Status
------
Accepted

Supersedes [2. Use RabbitMQ](0002-use-rabbitmq.md)

Decision
--------
We will use Kafka for events.
"""
    doc = read_adr(text, path="0012-use-kafka.md")
    assert doc is not None
    quotes_hold(doc)
    assert doc.metadata["sections"] == ["Use Kafka", "Status", "Decision"]
    assert doc.supersedes == ("adr:0002-use-rabbitmq",) and doc.status is DocumentStatus.CURRENT
    assert [i.quote for i in doc.items] == ["We will use Kafka for events."]


def test_sections_written_as_level_one_headings_are_turns_too() -> None:
    text = "# Go for tools\n\nStatus: Accepted\n\n# Context\n\nThings.\n\n# Decision\n\nWe decided to use Go."
    doc = read_adr(text, path="adr_0004_go.md")
    assert doc is not None
    assert doc.metadata["adr_id"] == "adr_0004" and doc.ref == "adr:adr-0004-go"
    assert doc.metadata["sections"] == ["Go for tools", "Context", "Decision"]
    assert [(i.turn_index, i.quote) for i in doc.items] == [(2, "We decided to use Go.")]


def test_an_adr_with_nothing_decided_in_it_is_reported_not_filed() -> None:
    doc = read_adr("# 9. Placeholder\n\nStatus: Proposed\n", path="0009-placeholder.md")
    assert doc is not None and doc.items == () and doc.skipped == "no decision found"


@pytest.mark.parametrize(
    ("status", "expected"),
    [
        ("Accepted", DocumentStatus.CURRENT),
        ("Approved", DocumentStatus.CURRENT),
        ("Implemented", DocumentStatus.CURRENT),
        ("Proposed", DocumentStatus.PROPOSED),
        ("Draft", DocumentStatus.PROPOSED),
        ("In review", DocumentStatus.PROPOSED),
        ("Under discussion", DocumentStatus.PROPOSED),
        ("TBD", DocumentStatus.PROPOSED),
        ("Something nobody defined", DocumentStatus.PROPOSED),
        ("Superseded by ADR-0012", DocumentStatus.SUPERSEDED),
        ("Deprecated", DocumentStatus.DEPRECATED),
        ("Rejected", DocumentStatus.REJECTED),
        ("Declined", DocumentStatus.REJECTED),
    ],
)
def test_status_words(status: str, expected: DocumentStatus) -> None:
    doc = read_adr(f"# Title\n\nStatus: {status}\n\n## Decision\n\nWe will do it.\n", path="0001-x.md")
    assert doc is not None and doc.status is expected


@pytest.mark.parametrize(
    ("written", "expected", "precision"),
    [
        ("2023-04-05", day(2023, 4, 5), None),
        ("11-April-2023", day(2023, 4, 11), None),
        ("22-10-2024", day(2024, 10, 22), None),
        ("8 Jun 2024", day(2024, 6, 8), None),
        ("December 11, 2025", day(2025, 12, 11), None),
        ("Sep 13th, 2024", day(2024, 9, 13), None),
        ("January , 2026", day(2026, 1, 1), "month"),
        ("insert date", None, None),
    ],
)
def test_date_shapes(written: str, expected: datetime | None, precision: str | None) -> None:
    doc = read_adr(
        f"# T\n\n| Date | {written} |\n|---|---|\n| Status | Accepted |\n\n## What\n\nUse X.\n", path="0001-t.md"
    )
    assert doc is not None
    assert doc.occurred_at == expected
    assert doc.metadata.get("date_precision") == precision


def test_markdown_that_is_not_an_adr_is_none() -> None:
    guide = "# Onboarding guide\n\n## 1. Principles\n\nModules should be independent.\n\n## 2. API\n\nUse a CRD.\n"
    assert read_adr(guide, path="design/onboarding-guide.md") is None
    assert read_adr("# ADRs\n\n| ADR | Status |\n|---|---|\n| 1 | Accepted |\n", path="README.md") is None
    template = "# {short title}\n\n* Status: {proposed | rejected | accepted | deprecated | superseded by ADR-0005}\n"
    assert read_adr(template, path="adr-template.md") is None


def test_code_samples_and_comments_are_not_the_header() -> None:
    text = """# Use probes

<!-- for the Status of new ADRs, please use Approved -->

## Decision

We will add readiness probes.

```yaml
status: rejected
date: 1999-01-01
```
"""
    doc = read_adr(text, path="0003-probes.md")
    assert doc is not None
    assert doc.status is DocumentStatus.CURRENT  # no status at all: in force
    assert doc.occurred_at is None
    assert doc.metadata["status_text"] is None


def test_a_text_over_the_limit_is_refused() -> None:
    with pytest.raises(InvalidInput, match="over the limit"):
        read_adr("# T\n\nStatus: Accepted\n\n" + "x" * (MAX_CHARS + 1), path="0001-big.md")


# --- a folder -----------------------------------------------------------------------------------

SUPERSEDED_OLD = "# 3. Use REST\n\nStatus: Accepted\n\nDate: 2020-01-01\n\n## Decision\n\nWe will expose REST.\n"
SUPERSEDING_NEW = (
    "# 5. Use gRPC\n\nStatus: Accepted\n\nDate: 2021-01-01\n\nSupersedes ADR-0003\n\n## Decision\n\nWe will use gRPC.\n"
)


def test_the_folder_makes_supersession_symmetric(tmp_path: Path) -> None:
    folder = write(
        tmp_path,
        {
            "0003-use-rest.md": SUPERSEDED_OLD,
            "0005-use-grpc.md": SUPERSEDING_NEW,
            "0004-use-a-monorepo.md": STATUS_SECTION,
            "0009-split-repos.md": "# 9. Split repos\n\nStatus: Accepted\n\nDate: 2022-01-01\n\n## Decision\n\nSplit.",
        },
    )
    result = read_adr_folder(folder)
    assert isinstance(result, AdrImport) and result.skipped == []
    docs = {d.ref: d for d in result.documents}
    assert [d.ref for d in result.documents] == [
        "adr:0003-use-rest",
        "adr:0004-use-a-monorepo",
        "adr:0005-use-grpc",
        "adr:0009-split-repos",
    ]  # by date
    assert docs["adr:0005-use-grpc"].supersedes == ("adr:0003-use-rest",)  # "ADR-0003" resolved by number
    assert docs["adr:0003-use-rest"].superseded_by == ("adr:0005-use-grpc",)
    assert docs["adr:0003-use-rest"].status is DocumentStatus.SUPERSEDED
    assert docs["adr:0009-split-repos"].supersedes == ("adr:0004-use-a-monorepo",)
    assert docs["adr:0009-split-repos"].status is DocumentStatus.CURRENT


def test_adrs_read_one_by_one_are_linked_as_the_folder_links_them() -> None:
    docs = [read_adr(SUPERSEDING_NEW, path="0005-use-grpc.md"), read_adr(SUPERSEDED_OLD, path="0003-use-rest.md")]
    old, new = link_adrs([d for d in docs if d is not None])
    assert (old.ref, new.ref) == ("adr:0003-use-rest", "adr:0005-use-grpc")
    assert old.superseded_by == (new.ref,) and old.status is DocumentStatus.SUPERSEDED


def test_a_proposal_does_not_supersede_yet_and_a_deprecated_adr_stays_deprecated(tmp_path: Path) -> None:
    proposal = SUPERSEDING_NEW.replace("Status: Accepted", "Status: Proposed")
    old = SUPERSEDED_OLD.replace("Status: Accepted", "Status: Deprecated")
    result = read_adr_folder(write(tmp_path, {"0003-use-rest.md": SUPERSEDED_OLD, "0005-use-grpc.md": proposal}))
    old_doc = next(d for d in result.documents if d.ref == "adr:0003-use-rest")
    assert old_doc.superseded_by == ("adr:0005-use-grpc",) and old_doc.status is DocumentStatus.CURRENT
    (tmp_path / "0003-use-rest.md").write_text(old, encoding="utf-8")
    (tmp_path / "0005-use-grpc.md").write_text(SUPERSEDING_NEW, encoding="utf-8")
    result = read_adr_folder(tmp_path)
    old_doc = next(d for d in result.documents if d.ref == "adr:0003-use-rest")
    assert old_doc.status is DocumentStatus.DEPRECATED


def test_adrs_sharing_a_number_or_a_stem_stay_distinct(tmp_path: Path) -> None:
    body = "# T\n\nStatus: Accepted\n\n## Decision\n\nWe will do {}.\n"
    folder = write(
        tmp_path,
        {
            "operator/ODH-ADR-Operator-0007-auth-crd.md": body.format("auth"),
            "operator/ODH-ADR-Operator-0007-version-map.md": body.format("versions"),
            "automl/ODH-ADR-0001-x.md": body.format("automl"),
            "autorag/ODH-ADR-0001-x.md": body.format("autorag"),
        },
    )
    refs = sorted(d.ref for d in read_adr_folder(folder).documents)
    assert refs == [
        "adr:automl/odh-adr-0001-x",
        "adr:autorag/odh-adr-0001-x",
        "adr:odh-adr-operator-0007-auth-crd",
        "adr:odh-adr-operator-0007-version-map",
    ]


def test_bounds_oversize_and_non_utf8_files(tmp_path: Path) -> None:
    folder = write(
        tmp_path,
        {
            "0001-big.md": "# Big\n\nStatus: Accepted\n\n## Decision\n\n" + "We will grow. " * 20_000,
            "sub/0002-latin.markdown": "# Caf\xe9\n\nStatus: Accepted\n\n## Decision\n\nWe serve caf\xe9.".encode(
                "latin-1"
            ),
            "notes.txt": "not markdown",
            ".hidden/0003-x.md": NYGARD,
        },
    )
    result = read_adr_folder(folder)
    assert [d.metadata["path"] for d in result.documents] == ["sub/0002-latin.markdown"]
    latin = result.documents[0]
    assert "Caf\ufffd" in latin.title and latin.metadata.get("replaced_characters") is True
    quotes_hold(latin)
    [(path, why)] = result.skipped
    assert path == "0001-big.md" and "over the limit of 200,000" in why


def test_bounds_bytes_on_disk_and_file_count(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(adr_module, "MAX_FILES", 3)
    monkeypatch.setattr(adr_module, "MAX_BYTES", 2_000)
    files: dict[str, str | bytes] = {f"000{i}-x.md": SUPERSEDED_OLD for i in range(1, 6)}
    files["0000-huge.md"] = "x" * 3_000
    result = read_adr_folder(write(tmp_path, files))
    assert len(result.documents) == 2  # 0000 (skipped: too big), 0001, 0002 read; the rest not
    assert result.skipped[0] == (".", "more than 3 Markdown files: only the first 3 were read")
    assert ("0000-huge.md", "over 2,000 bytes, not read") in result.skipped


def test_an_embedded_base64_image_is_left_out_and_does_not_count(tmp_path: Path) -> None:
    image = "iVBORw0KGgo" + "A" * (MAX_CHARS + 10)
    text = "# Pictures\n\nStatus: Draft\n\n## What\n\nShow a picture.\n\n![][image1]\n\n"
    text += f"[image1]: <data:image/png;base64,{image}>\n"
    doc = read_adr(text, path="EH-ADR-0003-pictures.md")
    assert doc is not None
    assert doc.metadata["base64_left_out"] == len(image)
    assert "characters of base64 left out" in doc.turns[-1].text
    assert [i.quote for i in doc.items] == ["Show a picture."]


def test_a_missing_folder_or_a_file_is_invalid_input(tmp_path: Path) -> None:
    with pytest.raises(InvalidInput, match="does not exist"):
        read_adr_folder(tmp_path / "nope")
    (tmp_path / "0001-x.md").write_text(NYGARD, encoding="utf-8")
    with pytest.raises(InvalidInput, match="is a file, not a folder"):
        read_adr_folder(tmp_path / "0001-x.md")


def test_a_folder_without_adrs_gives_nothing(tmp_path: Path) -> None:
    assert read_adr_folder(tmp_path) == AdrImport(documents=[], skipped=[])
    write(tmp_path, {"README.md": "# Our ADRs\n\nSee below.\n"})
    result = read_adr_folder(tmp_path)
    assert result.documents == [] and result.skipped == [("README.md", "not an ADR (README file)")]


# --- the real folder ----------------------------------------------------------------------------


@pytest.fixture(scope="module")
def real() -> AdrImport:
    assert REAL.is_dir(), f"the real ADRs are missing: {REAL} (see /work/shared/data/README.md)"
    return read_adr_folder(REAL)


def by_file(result: AdrImport, name: str) -> SourceDocument:
    [doc] = [d for d in result.documents if d.metadata["path"] == PREFIX + name]
    return doc


def test_every_real_adr_gives_a_document_and_the_guide_is_skipped(real: AdrImport) -> None:
    assert len(list(REAL.glob("*.md"))) == 45
    assert len(real.documents) == 44
    [(path, why)] = real.skipped
    assert path == PREFIX + "operator_design_module-onboarding-guide.md" and why.startswith("not an ADR")
    refs = [d.ref for d in real.documents]
    assert len(set(refs)) == len(refs)
    for doc in real.documents:
        quotes_hold(doc)
        assert doc.title.startswith("ADR ODH-ADR-") and len(doc.items) >= 1, doc.ref
        assert doc.metadata["status_text"], doc.ref
        assert doc.turns[0].speaker, doc.ref
    undated = [d.metadata["path"] for d in real.documents if d.occurred_at is None]
    assert undated == [PREFIX + "data-connect-hub_ODH-ADR-0001-data-connect-hub.md"]  # "insert date"
    dates = [d.occurred_at for d in real.documents if d.occurred_at]
    assert dates == sorted(dates)


@pytest.mark.parametrize(
    ("name", "when", "status"),
    [
        ("ODH-ADR-0003-use-apache-2-0-licence.md", day(2023, 4, 11), DocumentStatus.CURRENT),  # 11-April-2023
        ("operator_ODH-ADR-Operator-0007-auth-crd.md", day(2024, 10, 22), DocumentStatus.CURRENT),  # 22-10-2024
        ("operator_ODH-ADR-Operator-0007-components-version-mapping.md", day(2024, 10, 31), DocumentStatus.CURRENT),
        ("explainability_ODH-ADR-XAI-0001-trustyaiservice-database-configuration.md", day(2024, 6, 8),
         DocumentStatus.CURRENT),
        ("operator_ODH-ADR-Operator-0002-operator-scope.md", day(2023, 9, 5), DocumentStatus.CURRENT),  # Sep 5th, 2023
        ("distributed-workloads_ODH-ADR-DW-0001-determine-codeflare-deployment-strategy.md", day(2023, 9, 22),
         DocumentStatus.PROPOSED),  # "Review"
        ("operator_ODH-ADR-Operator-0008-resources-lifecycle.md", day(2025, 4, 5), DocumentStatus.PROPOSED),  # TBD
        ("operator_ODH-ADR-Operator-0010-Observability-component_metrics_scraping.md", day(2025, 10, 16),
         DocumentStatus.PROPOSED),
        ("ODH-ADR-0007-gitops-repository-openshift-ai-lifecycle.md", day(2025, 12, 11), DocumentStatus.CURRENT),
        ("eval-hub_ODH-ADR-EH-0004-eval-sidecar-creds-injection.md", day(2026, 5, 1), DocumentStatus.PROPOSED),
        ("model-registry_ODH-ADR-MR-0001-Sign.md", day(2026, 1, 1), DocumentStatus.CURRENT),  # Refinement completed
        ("data-connect-hub_ODH-ADR-0001-data-connect-hub.md", None, DocumentStatus.CURRENT),
        ("ODH-ADR-0001-use-architecture-decision-records-for-open-data-hub.md", day(2023, 2, 20),
         DocumentStatus.PROPOSED),  # Draft
    ],
)  # fmt: skip
def test_real_dates_and_statuses_checked_by_hand(
    real: AdrImport, name: str, when: datetime | None, status: DocumentStatus
) -> None:
    doc = by_file(real, name)
    assert doc.occurred_at == when
    assert doc.status is status


def test_real_adrs_by_hand(real: AdrImport) -> None:
    first = by_file(real, "ODH-ADR-0001-use-architecture-decision-records-for-open-data-hub.md")
    assert first.ref == "adr:odh-adr-0001-use-architecture-decision-records-for-open-data-hub"
    assert first.title == "ADR ODH-ADR-0001: Use Architecture Decision Records for Open Data Hub"
    assert first.turns[0].speaker == "Greg Sheremeta"
    assert [i.quote for i in first.items] == ["We will keep each ADR in a short text file in Markdown format."]
    membership = by_file(real, "ODH-ADR-0006-organization-membership-automation.md")
    assert membership.items[0].statement == (
        "Codification of Open Data Hub GitHub organization membership: We will use codify membership in the "
        "OpenDataHub-io GitHub organization using Peribolos."
    )
    red_team = by_file(real, "automated-red-teaming_ODH-ADR-ART-001.md")
    assert len(red_team.items) == 6 and red_team.items[2].quote.startswith("Use Kubeflow Pipeline components")
    sevens = [d for d in real.documents if d.metadata["adr_id"] == "ODH-ADR-Operator-0007"]
    assert len(sevens) == 2 and sevens[0].ref != sevens[1].ref
    assert (
        by_file(real, "eval-hub_ODH-ADR-EH-0004-eval-sidecar-creds-injection.md").metadata["date_precision"] == "month"
    )
    pictures = by_file(real, "eval-hub_ODH-ADR-EH-0003-OCI-artifact.md")  # 308,812 characters, mostly a PNG
    assert pictures.metadata["base64_left_out"] > 250_000
    assert all(d.supersedes == () and d.superseded_by == () for d in real.documents)  # all N/A, a PR link or prose
