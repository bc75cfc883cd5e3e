select click_id, visitor_ref, dwell_ms, day
from {{ source('raw', 'clicks') }}
