"""GraphQL object, interface and input types: one type per module, named after it."""
