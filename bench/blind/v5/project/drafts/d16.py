import pytest

from app.workers import notify
from tests.factories import AppointmentFactory, OutboxFactory


@pytest.fixture
def failing_provider(monkeypatch):
    calls = []

    def fake_send(to, text):
        calls.append((to, text))
        raise notify.ProviderTimeout("smsleopard timeout")

    monkeypatch.setattr(notify.smsleopard, "send", fake_send)
    return calls


def test_retry_then_give_up(db, failing_provider):
    appt = AppointmentFactory()
    row = OutboxFactory(kind="sms.reminder", payload={"appointment_id": appt.id})

    for _ in range(notify.MAX_ATTEMPTS):
        notify.process_batch(db)

    db.refresh(row)
    assert row.attempts == notify.MAX_ATTEMPTS
    assert row.failed_at is not None
    assert row.sent_at is None
    assert len(failing_provider) == notify.MAX_ATTEMPTS


def test_backoff_skips_recent_failure(db, failing_provider):
    row = OutboxFactory(kind="sms.reminder", attempts=1, next_attempt_in_seconds=600)
    notify.process_batch(db)
    db.refresh(row)
    assert row.attempts == 1
    assert failing_provider == []


def test_logs_only_ids(db, failing_provider, caplog):
    appt = AppointmentFactory(patient__full_name="Test Person")
    OutboxFactory(kind="sms.reminder", payload={"appointment_id": appt.id})
    notify.process_batch(db)
    assert "Test Person" not in caplog.text
    assert f"appointment_id={appt.id}" in caplog.text
