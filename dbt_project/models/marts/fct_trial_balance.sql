with balances as (

    select * from {{ ref('int_gl_by_entity') }}

),

entities as (

    select * from {{ ref('entities') }}

)

select
    cast(balances.export_date as varchar) || '|' || balances.entity as trial_balance_key,
    balances.export_date,
    balances.entity,
    entities.entity_name,
    entities.currency,
    sum(balances.total_debit) as total_debit,
    sum(balances.total_credit) as total_credit,
    sum(balances.total_debit) - sum(balances.total_credit) as net_balance,
    count(*) as account_count,
    sum(balances.line_count) as line_count,
    min(balances.first_posting_date) as first_posting_date,
    max(balances.last_posting_date) as last_posting_date,
    max(balances.loaded_at) as loaded_at
from balances
left join entities on balances.entity = entities.entity
group by balances.export_date, balances.entity, entities.entity_name, entities.currency
