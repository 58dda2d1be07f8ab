-- models/staging/driverapp/stg_driverapp__drivers.sql
{{ config(materialized='incremental', unique_key='driver_id', incremental_strategy='merge') }}

with source as (
    select * from {{ source('driverapp', 'drivers') }}
    {{ incremental_window() }}
),

renamed as (
    select
        id::number                         as driver_id,
        haulier_id::varchar                as haulier_id,
        {{ hash_pii('full_name') }}        as full_name_hash,
        {{ hash_pii('mobile_number') }}    as mobile_number_hash,
        upper(licence_class)::varchar      as licence_class,
        is_active::boolean                 as is_active,
        created_at::timestamp_tz           as created_at,
        _fivetran_synced::timestamp_tz     as _loaded_at
    from source
),

final as (
    select * from renamed
)

select * from final
