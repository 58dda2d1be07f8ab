"""Daily check for reads that arrive late."""
from datetime import datetime, timedelta

import duckdb
import polars as pl
from airflow import DAG
from airflow.operators.python import PythonOperator

RAW = "s3://raw/reads"


def find_late_reads(ds: str, **_):
    lf = pl.scan_parquet(f"{RAW}/read_date=*/*.parquet", storage_options={"aws_endpoint_url": "http://minio:9000"})
    late = (
        lf.with_columns((pl.col("arrived_at") - pl.col("read_date").cast(pl.Datetime("us", "UTC"))).alias("delay"))
        .filter(pl.col("delay") > timedelta(days=7))
        .collect()
    )
    con = duckdb.connect("/data/warehouse/warehouse.duckdb")
    con.execute("insert into late_reads select * from late")
    con.close()


with DAG(
    dag_id="late_reads_check",
    start_date=datetime(2026, 9, 1),
    schedule="30 4 * * *",
    catchup=False,
) as dag:
    PythonOperator(task_id="find_late_reads", python_callable=find_late_reads)
