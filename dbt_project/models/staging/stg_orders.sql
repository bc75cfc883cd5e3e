with source as (

    select * from {{ source('lake', 'orders_clean') }}

)

select
    order_id,
    order_date,
    customer_id,
    cast(amount as decimal(18, 2)) as amount,
    -- the application's discount is numeric; anything else must fail loudly, not become zero
    cast(discount as decimal(18, 2)) as discount,
    status,
    loaded_at
from source
