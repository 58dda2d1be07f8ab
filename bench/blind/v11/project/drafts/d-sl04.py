import great_expectations as gx
import polars as pl

from sluice.warehouse import read_only_connection


def rejects_report(read_date: str) -> pl.DataFrame:
    con = read_only_connection()
    rejects = con.sql(
        """
        select r.meter_id, r.read_date, r.failed_check, c.name, c.street, c.postcode
        from rejects r
        join crm.customers c using (account_id)
        where r.read_date = ?
        """,
        params=[read_date],
    ).pl()
    ctx = gx.get_context()
    ctx.sources.add_pandas("rejects").add_dataframe_asset("rejects_df")
    return rejects
