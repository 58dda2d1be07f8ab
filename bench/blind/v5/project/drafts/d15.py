import pytz
from datetime import datetime, timedelta

from fastapi import APIRouter, Depends, HTTPException
from pydantic import BaseModel
from sqlalchemy.orm import Session

from app.db import get_db
from app.models import Appointment, Clinic
from app.services.appointments import CancellationTooLate

router = APIRouter(prefix="/v1/me/appointments")


class CancelSchema(BaseModel):
    reason: str | None = None


@router.post("/{appointment_id}/cancel")
def cancel_my_appointment(appointment_id: int, body: CancelSchema, db: Session = Depends(get_db)):
    appt = db.query(Appointment).filter(Appointment.id == appointment_id).with_for_update().first()
    if appt is None:
        raise HTTPException(status_code=404, detail="not found")
    clinic = db.get(Clinic, appt.clinic_id)
    now = datetime.now(pytz.utc)
    if appt.starts_at - now < timedelta(hours=24):
        raise HTTPException(status_code=422, detail="too late to cancel online")
    appt.cancelled_at = now
    appt.cancel_reason = body.reason
    db.commit()
    return {"id": appt.id, "cancelled_at": appt.cancelled_at.isoformat(), "clinic": clinic.code}
