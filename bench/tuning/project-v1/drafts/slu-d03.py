from datetime import datetime

import pandas as pd
import requests
from airflow import DAG
from airflow.operators.python import PythonOperator


def compute_uplift(**_):
    promos = pd.DataFrame(requests.get("https://marketing.internal/api/promos").json())
    sales = pd.read_gbq("select store_id, sale_date, revenue from marts.fct_sales_daily")
    df = sales.merge(promos, on="store_id")
    df["uplift"] = df.groupby("store_id")["revenue"].pct_change()
    df.to_gbq("marts.fct_promo_uplift", if_exists="replace")


with DAG("promo_uplift", start_date=datetime(2026, 4, 1), schedule="@daily", catchup=False) as dag:
    PythonOperator(task_id="compute_uplift", python_callable=compute_uplift)
