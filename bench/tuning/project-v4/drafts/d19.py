from datetime import timedelta

from airflow import DAG
from airflow.operators.python import PythonOperator
from pendulum import datetime

from claimsight.ocr.engine import ocr_page
from claimsight.storage import read_bytes, list_new_keys


def _fetch(**ctx):
    keys = list_new_keys("claims-raw/police/")
    pages = [read_bytes(k) for k in keys]
    ctx["ti"].xcom_push(key="pages", value=pages)


def _ocr(**ctx):
    pages = ctx["ti"].xcom_pull(key="pages", task_ids="fetch")
    return [ocr_page(p) for p in pages]


with DAG(
    dag_id="claims_police_fetch",
    start_date=datetime(2026, 1, 1, tz="Europe/Berlin"),
    schedule=timedelta(hours=1),
    catchup=True,
) as dag:
    fetch = PythonOperator(task_id="fetch", python_callable=_fetch)
    ocr = PythonOperator(task_id="ocr", python_callable=_ocr)
    fetch >> ocr
