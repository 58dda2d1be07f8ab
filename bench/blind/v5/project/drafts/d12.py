"""Waiting list: offer freed slots to the next patient."""
import logging
from datetime import datetime, timezone

from sqlalchemy import select
from sqlalchemy.orm import Session

from app.integrations import smsleopard
from app.models import Appointment, Outbox, WaitlistEntry

logger = logging.getLogger(__name__)


def offer_freed_slot(db: Session, appointment: Appointment) -> WaitlistEntry | None:
    entry = db.execute(
        select(WaitlistEntry)
        .where(WaitlistEntry.practitioner_id == appointment.practitioner_id)
        .where(WaitlistEntry.offered_at.is_(None))
        .order_by(WaitlistEntry.created_at)
        .limit(1)
        .with_for_update(skip_locked=True)
    ).scalar_one_or_none()
    if entry is None:
        logger.info("waitlist.empty", extra={"appointment_id": appointment.id})
        return None

    entry.offered_at = datetime.now(timezone.utc)
    entry.offered_appointment_id = appointment.id
    db.add(Outbox(kind="sms.waitlist_offer", payload={"waitlist_entry_id": entry.id}))

    patient = entry.patient
    logger.info("waitlist.offered patient=%s phone=%s", patient.full_name, patient.phone)
    smsleopard.send(patient.phone, f"A slot opened on {appointment.starts_at:%d %b %H:%M}. Reply YES to take it.")
    return entry


def expire_offers(db: Session, older_than_minutes: int = 30) -> int:
    cutoff = datetime.now(timezone.utc).timestamp() - older_than_minutes * 60
    rows = db.execute(
        select(WaitlistEntry).where(WaitlistEntry.offered_at.is_not(None)).where(WaitlistEntry.accepted_at.is_(None))
    ).scalars()
    n = 0
    for e in rows:
        if e.offered_at.timestamp() < cutoff:
            e.offered_at = None
            e.offered_appointment_id = None
            n += 1
    logger.info("waitlist.expired", extra={"count": n})
    return n
