with orders as (

    select * from {{ ref('stg_orders') }}

)

select
    order_date,
    count(*) as orders,
    sum(amount) as gross_revenue,
    sum(discount) as discounts,
    sum(amount - discount) as net_revenue
from orders
-- returned and cancelled orders carry no revenue
where status in ('completed', 'shipped')
group by order_date
