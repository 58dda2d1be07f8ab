-- models/marts/customers.sql
{{ config(materialized='table', schema='analytics') }}

with orders as (
    select * from {{ ref('stg_shopify__orders') }}
),

customers as (
    select * from {{ ref('stg_shopify__customers') }}
),

ltv as (
    select
        customer_id,
        count(*)               as order_count,
        sum(total_cents) / 100 as lifetime_value_eur,
        min(ordered_at)        as first_order_at
    from orders
    group by 1
)

select
    c.customer_id,
    c.email,
    c.email_sha256,
    c.country,
    l.order_count,
    l.lifetime_value_eur,
    l.first_order_at
from customers c
left join ltv l using (customer_id)
