"""Neo4j access for Weft: settings, drivers, the local server, migrations and graph reads/writes."""
