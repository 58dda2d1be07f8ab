import itertools

import pytest

from forethought import InvalidTransition, Status
from forethought.domain import Action, handle_for, transition
from forethought.domain.lifecycle import ALLOWED
from forethought.domain.records import Record
from forethought.domain.times import parse_time

ALLOWED_PAIRS = {
    (Status.CANDIDATE, Status.ACTIVE),
    (Status.CANDIDATE, Status.REJECTED),
    (Status.ACTIVE, Status.SUPERSEDED),
    (Status.ACTIVE, Status.RETRACTED),
}


def _record(status: Status) -> Record:
    when = parse_time("2026-01-01")
    return Record(
        id="01ABC",
        space_id="s",
        handle=handle_for("01ABC"),
        lineage_id="01ABC",
        kind="note",
        statement="x",
        status=status,
        occurred_at=when,
        recorded_at=when,
    )


def test_the_allowed_table_is_exactly_the_documented_one() -> None:
    assert {(a, b) for a, targets in ALLOWED.items() for b in targets} == ALLOWED_PAIRS


@pytest.mark.parametrize(("current", "target"), list(itertools.product(Status, Status)))
def test_every_transition_is_allowed_or_refused(current: Status, target: Status) -> None:
    record = _record(current)
    at = parse_time("2026-02-01")
    if (current, target) in ALLOWED_PAIRS:
        after, event = transition(record, target, actor="t", at=at, reason="because")
        assert after.status is target
        assert record.status is current  # the original is untouched (immutable)
        assert event.action is Action.STATUS_CHANGED
        assert (event.from_status, event.to_status) == (current.value, target.value)
        assert event.record_id == record.id and event.reason == "because"
        if target in (Status.SUPERSEDED, Status.RETRACTED):
            assert after.valid_to == at
    else:
        with pytest.raises(InvalidTransition):
            transition(record, target, actor="t", at=at)


def test_records_are_frozen() -> None:
    record = _record(Status.ACTIVE)
    with pytest.raises(Exception):  # noqa: B017 - pydantic raises its ValidationError for frozen models
        record.statement = "changed"  # type: ignore[misc]
