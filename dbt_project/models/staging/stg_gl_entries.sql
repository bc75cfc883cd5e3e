with source as (

    select * from {{ source('finance_bronze', 'gl_entries') }}

)

select
    entry_id,
    entity,
    account,
    posting_date,
    cast(debit as decimal(18, 2)) as debit,
    cast(credit as decimal(18, 2)) as credit,
    export_date,
    source_file,
    loaded_at
from source
