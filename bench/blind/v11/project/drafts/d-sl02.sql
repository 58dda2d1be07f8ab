-- sql/leaks/flag_probable_leaks.sql
-- 2026-09: threshold lowered from 72 h to 48 h (ops review of summer flags)
with hourly as (
    select
        meter_id,
        read_ts,
        consumption_litres > 2 as flowing
    from hourly_consumption
    where read_ts >= now() - interval 10 day
),
runs as (
    select
        *,
        sum(case when flowing then 0 else 1 end) over (partition by meter_id order by read_ts) as run_id
    from hourly
),
run_lengths as (
    select meter_id, run_id, count(*) as hours, min(read_ts) as started_at
    from runs
    where flowing
    group by meter_id, run_id
)
select meter_id, started_at, hours
from run_lengths
where hours >= 48
