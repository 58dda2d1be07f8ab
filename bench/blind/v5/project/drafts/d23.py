"""Daily diesel price asset."""
from datetime import date, timedelta

import pandas as pd
import requests
from dagster import AssetExecutionContext, DailyPartitionsDefinition, asset

from quarrylake.resources import SnowflakeResource

FUEL_API = "https://api.fuelindex.example/v2/prices"
partitions = DailyPartitionsDefinition(start_date="2025-01-01")


@asset(partitions_def=partitions, group_name="haulage", compute_kind="python")
def diesel_prices_daily(context: AssetExecutionContext, snowflake: SnowflakeResource) -> None:
    day = date.fromisoformat(context.partition_key)
    resp = requests.get(FUEL_API, params={"product": "diesel", "region": "GB-WLS", "date": day.isoformat()}, timeout=30)
    resp.raise_for_status()
    rows = resp.json()["prices"]
    if not rows:
        context.log.warning(f"no diesel prices for {day}")
        return

    df = pd.DataFrame(rows)
    df["price_date"] = day
    df["pence_per_litre"] = df["price_gbp_per_litre"].astype(float) * 100
    df = df[["price_date", "station_count", "pence_per_litre"]]

    with snowflake.get_connection() as conn:
        conn.cursor().execute(
            "delete from ANALYTICS.HAULAGE.DIESEL_PRICES_DAILY where price_date = %s", (day,)
        )
        from snowflake.connector.pandas_tools import write_pandas
        write_pandas(conn, df, "DIESEL_PRICES_DAILY", database="ANALYTICS", schema="HAULAGE")
    context.add_output_metadata({"rows": len(df), "day": day.isoformat(), "lag": str(date.today() - day - timedelta(0))})
