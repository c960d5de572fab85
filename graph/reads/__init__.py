"""Read-only access for the API: each module runs the Cypher of one queries/read_*.py module."""
