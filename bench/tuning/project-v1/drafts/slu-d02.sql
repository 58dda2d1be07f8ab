{{ config(materialized='table') }}

with c as (
    select * from {{ ref('stg_pos__customers') }}
),

t1 as (
    select customer_id, count(*) as visits
    from {{ ref('fct_sales_daily') }}
    group by customer_id
)

select c.*, t1.visits
from c
left join t1 using (customer_id)
