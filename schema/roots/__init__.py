"""The root `Query`'s fields, one class per area; `weft.schema.root` merges them."""
