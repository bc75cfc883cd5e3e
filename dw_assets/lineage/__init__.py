"""What the stored OpenLineage events mean, without Dagster: `processing` (one pass of the lineage
sensor over new events), `graph_feed` (compact node and edge tables, the context graph's lineage
feed) and `schema_history` (each dataset's last schema and every change to it). Reads the event
store that `connectors.openlineage` fills; writes only its own tables on the state store."""
