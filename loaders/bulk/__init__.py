"""The bulk path: dump files -> staged rows -> DuckDB -> Parquet for `neo4j-admin database import`.

`weft build` runs `loaders.bulk.build.build_paths`; `weft import` runs `graph.bulk_import.import_parquet`.
"""
