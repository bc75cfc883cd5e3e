select session_id, cast(dwell_ms as bigint) as dwell_ms
from {{ source('raw', 'sessions') }}
