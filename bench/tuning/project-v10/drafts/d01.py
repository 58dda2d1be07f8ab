from datetime import datetime, timedelta
import logging

log = logging.getLogger("sumpline.consumer")

MAX_CLOCK_SKEW = timedelta(seconds=120)


def resolve_ts(rtu_id: str, rtu_ts: datetime, received_at: datetime) -> tuple[datetime, bool]:
    skew = rtu_ts - received_at
    if abs(skew) > MAX_CLOCK_SKEW:
        log.warning("clock skew rtu=%s skew_s=%.0f", rtu_id, skew.total_seconds())
        return received_at, True
    return rtu_ts, False


def to_row(msg: dict, received_at: datetime) -> tuple:
    ts, suspect = resolve_ts(msg["rtu"], datetime.fromisoformat(msg["t"]), received_at)
    return (ts, msg["site"], msg["rtu"], msg.get("p"), msg.get("q"), msg.get("lvl"), suspect, received_at)
