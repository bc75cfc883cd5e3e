with lines as (

    select * from {{ ref('stg_gl_entries') }}

)

select
    cast(export_date as varchar) || '|' || entity || '|' || account as gl_balance_key,
    export_date,
    entity,
    account,
    sum(debit) as total_debit,
    sum(credit) as total_credit,
    count(*) as line_count,
    min(posting_date) as first_posting_date,
    max(posting_date) as last_posting_date,
    max(loaded_at) as loaded_at
from lines
group by export_date, entity, account
