# sumpline/api/alarms.py
from datetime import datetime

from fastapi import APIRouter, Query

from sumpline.db import pool

router = APIRouter(prefix="/api/v2")


@router.get("/sites/{site_id}/alarms")
async def alarm_history(site_id: str, since: datetime = Query(...), limit: int = Query(200, le=1000)):
    rows = await pool().fetch(
        "SELECT raised_at, cleared_at, kind, pressure_kpa FROM alarms.history WHERE site_id = $1 AND raised_at >= $2 ORDER BY raised_at DESC LIMIT $3",
        site_id, since, limit,
    )
    return {
        "site_id": site_id,
        "alarms": [
            {
                "raised_at": r["raised_at"].strftime("%Y-%m-%dT%H:%M:%SZ"),
                "cleared_at": r["cleared_at"].strftime("%Y-%m-%dT%H:%M:%SZ") if r["cleared_at"] else None,
                "kind": r["kind"],
                "pressure_kpa": r["pressure_kpa"],
            }
            for r in rows
        ],
    }
