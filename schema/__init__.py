"""Strawberry types and resolvers: one GraphQL type per module, composed in schema.root."""
