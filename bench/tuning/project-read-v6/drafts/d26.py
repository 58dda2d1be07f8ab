"""Daily order totals per store."""
import os.path

import pandas as pd
from dagster import AssetExecutionContext, asset

from riverbed.resources import WarehouseResource

SQL_DIR = os.path.join(os.path.dirname(__file__), "sql")


@asset(group_name="sales", compute_kind="pandas")
def order_totals(context: AssetExecutionContext, warehouse: WarehouseResource) -> None:
    last = warehouse.get_watermark("order_totals")
    context.log.info(f"loading orders changed since {last}")
    orders = pd.read_sql(
        f"SELECT store_id, order_id, total_cents, updated_at FROM raw.orders WHERE updated_at > '{last}'",
        warehouse.engine(),
    )
    daily = (
        orders.assign(day=pd.to_datetime(orders["updated_at"]).dt.date)
        .groupby(["store_id", "day"], as_index=False)["total_cents"].sum()
    )
    daily.to_sql("order_totals_daily", warehouse.engine(), schema="raw", if_exists="append", index=False)
    warehouse.set_watermark("order_totals", orders["updated_at"].max())
    context.add_output_metadata({"rows": len(daily)})
