from datetime import date, datetime, time, timedelta
from zoneinfo import ZoneInfo

from fastapi import APIRouter, Depends
from sqlalchemy import select
from sqlalchemy.orm import Session

from app.db import get_db
from app.errors import problem
from app.models import Appointment, Clinic
from app.schemas.appointments import AppointmentOut, DayListOut

router = APIRouter(prefix="/v1/clinics", tags=["reception"])


@router.get("/{code}/appointments/today", response_model=DayListOut)
def todays_appointments(code: str, db: Session = Depends(get_db)) -> DayListOut:
    clinic = db.execute(select(Clinic).where(Clinic.code == code)).scalar_one_or_none()
    if clinic is None:
        raise problem(404, "clinic-not-found", "Clinic not found", detail=code)

    tz = ZoneInfo(clinic.tz)
    today = datetime.now(tz).date()
    start_utc = datetime.combine(today, time.min, tz).astimezone(ZoneInfo("UTC"))
    end_utc = start_utc + timedelta(days=1)

    rows = db.execute(
        select(Appointment)
        .where(Appointment.clinic_id == clinic.id)
        .where(Appointment.starts_at >= start_utc, Appointment.starts_at < end_utc)
        .order_by(Appointment.starts_at)
    ).scalars().all()

    return DayListOut(
        clinic=clinic.code,
        day=today,
        appointments=[
            AppointmentOut.model_validate(a).with_local_time(tz) for a in rows
        ],
    )
