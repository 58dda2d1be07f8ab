-- models/marts/site_weekly_tonnes.sql
{{ config(materialized='table') }}

with deliveries as (
    select * from {{ ref('fct_deliveries') }}
),

sites as (
    select * from {{ source('weighbridge', 'sites') }}
),

weekly as (
    select
        deliveries.site_id,
        date_trunc('week', deliveries.delivery_date) as week_start,
        sum(deliveries.net_tonnes) as tonnes,
        count(*) as tickets
    from deliveries
    group by 1, 2
),

final as (
    select
        weekly.*,
        sites.SITE_NAME as site_name,
        sites.REGION as region
    from weekly
    left join sites on sites.SITE_ID = weekly.site_id
)

select * from final
