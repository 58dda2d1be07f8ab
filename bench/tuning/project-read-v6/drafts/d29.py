# notebooks/churn_weekly.py — exploratory, not deployed
# %%
from pathlib import Path

import matplotlib.pyplot as plt
import pandas as pd
from google.cloud import bigquery

OUT = Path(__file__).parent / "out"
OUT.mkdir(exist_ok=True)

client = bigquery.Client(project="riverbed-analytics")
job_config = bigquery.QueryJobConfig(maximum_bytes_billed=500 * 10**9)

# %%
sql = """
select date_trunc(activity_date, week) as week, count(distinct customer_sha256) as wac
from analytics.fct_customer_activity
group by 1 order by 1
"""
df: pd.DataFrame = client.query(sql, job_config=job_config).to_dataframe()

# %%
ax = df.plot(x="week", y="wac", figsize=(10, 4), title="Weekly active customers")
ax.set_ylabel("customers")
plt.tight_layout()
plt.savefig(OUT / "wac.png", dpi=120)
