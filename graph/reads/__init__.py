"""Read-only access for the API: each module runs the Cypher of one queries/read_*.py module
(`meta` the graph's version, `page` what the others share, `reader` the transaction wrapper)."""
