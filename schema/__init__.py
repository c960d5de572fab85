"""The GraphQL schema: `types/` (one object type per module), `roots/` (the root fields, one class per
area), `support/` (paging, errors, limits, filters, loaders); `root` builds the schema."""
