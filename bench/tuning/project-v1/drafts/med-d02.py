import logging
from datetime import timedelta

from celery import shared_task

from appointments.models import Appointment
from notifications import gateway

logger = logging.getLogger(__name__)


@shared_task
def send_followup_survey(appointment_id: int, patient_name: str, phone: str) -> None:
    appt = Appointment.objects.get(pk=appointment_id)
    logger.info("sending survey to %s (%s)", patient_name, phone)
    gateway.send("followup_survey", recipient_patient_id=appt.patient_id, params={})


def schedule_followup(appt: Appointment) -> None:
    send_followup_survey.apply_async(
        args=(appt.id, appt.patient.full_name, appt.patient.phone),
        eta=appt.ends_at + timedelta(days=2),
    )
