from airflow.decorators import dag, task
from pendulum import datetime

from claimsight.models import OcrResult
from claimsight.ocr.engine import ocr_to_store
from claimsight.storage import list_new_keys


@dag(
    dag_id="claims_police_ocr",
    start_date=datetime(2026, 5, 1, tz="Europe/Berlin"),
    schedule="@hourly",
    catchup=False,
    default_args={"pool": "ocr"},
)
def claims_police_ocr():
    @task
    def list_new() -> list[str]:
        return list_new_keys("claims-raw/police/")

    @task
    def ocr(keys: list[str]) -> dict:
        result: OcrResult = ocr_to_store(keys, out_prefix="claims-ocr/police/")
        return result.model_dump()

    ocr(list_new())


claims_police_ocr()
