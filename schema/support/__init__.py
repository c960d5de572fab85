"""What the types and roots share: paging and connections, value types, enums, filters, DataLoaders,
query limits, error coding and the network analytics a selection asks for."""
