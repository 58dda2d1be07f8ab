from sqlalchemy import select
from sqlalchemy.orm import Session
import logging
from datetime import datetime, timezone

from bedplan.models import Admission, BedSlot

log = logging.getLogger("bedplan.assign")


def assign_bed(db: Session, admission_id: int, ward_id: int) -> BedSlot | None:
    adm = db.get(Admission, admission_id)
    slot = db.scalars(
        select(BedSlot)
        .where(BedSlot.ward_id == ward_id, BedSlot.status == "free")
        .order_by(BedSlot.priority)
        .limit(1)
        .with_for_update(skip_locked=True)
    ).first()
    if slot is None:
        log.warning("no free bed on ward %s", ward_id, extra={"admission_id": adm.id})
        return None
    slot.status = "occupied"
    slot.admission_id = adm.id
    slot.assigned_at = datetime.now(timezone.utc)
    db.flush()
    log.info("assigned bed %s", slot.code, extra={"admission_ref": adm.admission_ref})
    return slot
