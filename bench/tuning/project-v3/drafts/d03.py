"""Nightly occupancy pivot (runs in the reports image)."""
import polars as pl
from zoneinfo import ZoneInfo

from bedplan.reports.source import hourly_occupancy

DUBLIN = ZoneInfo("Europe/Dublin")


def build(conn, path: str) -> None:
    rows = hourly_occupancy(conn, weeks=13)
    df = pl.DataFrame(rows, schema=["ward", "hour", "occupied"])
    df = df.with_columns(pl.col("hour").dt.convert_time_zone("Europe/Dublin").dt.weekday().alias("weekday"))
    pivot = df.pivot(on="weekday", index="ward", values="occupied", aggregate_function="mean")
    pivot.write_excel(path, worksheet="occupancy")
