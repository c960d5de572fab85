"""schema.graphql is the exported SDL of the code, and every type and field has a description."""

from __future__ import annotations

from graphql import GraphQLInputObjectType, GraphQLInterfaceType, GraphQLObjectType

from weft.graph.settings import PROJECT_ROOT
from weft.schema.root import build_schema, export_sdl


def test_schema_file_matches_code() -> None:
    assert (PROJECT_ROOT / "schema.graphql").read_text(encoding="utf-8") == export_sdl()


def test_every_type_and_field_is_described() -> None:
    schema = build_schema()._schema
    kinds = (GraphQLObjectType, GraphQLInterfaceType, GraphQLInputObjectType)
    missing = []
    for name, type_ in schema.type_map.items():
        if name.startswith("__") or not isinstance(type_, kinds):
            continue
        if not type_.description:
            missing.append(name)
        for field_name, field in type_.fields.items():
            if not field.description:
                missing.append(f"{name}.{field_name}")
    assert missing == []


def test_shared_fields_come_from_interfaces() -> None:
    schema = build_schema()._schema
    interfaces = [t for t in schema.type_map.values() if isinstance(t, GraphQLInterfaceType)]
    implementers = {i.name: sorted(t.name for t in schema.get_implementations(i).objects) for i in interfaces}
    assert implementers == {
        "Entity": ["Institution", "Paper", "Researcher"],
        "NamedEntity": ["Institution", "Researcher"],
        "CollaborationNetwork": ["InstitutionNetwork", "ResearcherNetwork"],
        "NetworkMember": ["InstitutionNetworkNode", "NetworkNode"],
    }
