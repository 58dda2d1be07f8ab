import pytest
import sqlite3

from sumpline.api.trend import bucket_query


@pytest.fixture
def db():
    conn = sqlite3.connect(":memory:")
    conn.execute("CREATE TABLE readings (ts TEXT, site_id TEXT, pressure_kpa REAL)")
    yield conn
    conn.close()


def test_trend_groups_by_15m(db):
    db.executemany("INSERT INTO readings VALUES (?, ?, ?)", [("2026-03-01T00:01:00Z", "HV-014", 400.0)])
    rows = bucket_query(db, "HV-014", "pressure_kpa", "15m", 24)
    assert rows[0]["avg"] == 400.0
