{{ config(
    materialized='incremental',
    incremental_strategy='merge',
    unique_key=['member_id', 'event_date'],
    partition_by={'field': 'event_date', 'data_type': 'date'},
) }}

with ledger as (
    select member_id, event_date, points_delta, _loaded_at
    from {{ ref('int_loyalty_points_ledger') }}
    {% if is_incremental() %}
    where _loaded_at >= timestamp_sub(current_timestamp(), interval {{ var('lookback_days') }} day)
    {% endif %}
),

daily_totals as (
    select member_id, event_date, sum(points_delta) as points_delta
    from ledger
    group by member_id, event_date
)

select
    member_id,
    event_date,
    points_delta
from daily_totals
