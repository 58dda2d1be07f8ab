from pathlib import Path

import polars as pl
import pytest
from dagster import materialize

from quarrylake.assets.haulage import haulage_cost_daily
from quarrylake.resources import SnowflakeResource

FIXTURES = Path(__file__).parent / "fixtures"


class FakeFuelIndex:
    def __init__(self, prices):
        self.prices = prices

    def price_for(self, day):
        return self.prices.get(day)


@pytest.fixture
def deliveries():
    return pl.read_parquet(FIXTURES / "fct_deliveries_sample.parquet")


def test_missing_fuel_price_uses_previous_day(deliveries):
    fuel = FakeFuelIndex({"2026-02-02": 1.42})
    result = materialize(
        [haulage_cost_daily],
        resources={
            "fuel_index": fuel,
            "deliveries_source": deliveries,
            "snowflake": SnowflakeResource(account="quarrylake-dev", user="QL_TRANSFORM", warehouse="TRANSFORM_S"),
        },
        partition_key="2026-02-03",
    )
    assert result.success
    out = result.output_for_node("haulage_cost_daily")
    assert out.filter(pl.col("fuel_price_source") == "carried_forward").height > 0
