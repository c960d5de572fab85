"""Stage 2 of the bulk path: the staged rows -> the finished graph, in SQL (loaders/bulk/sql.py) on an
engine (loaders/bulk/engine.py: DuckDB; loaders/bulk/spark.py: Spark).

The engine spills or distributes, so the graph never has to fit in memory; Python only sends SQL and
plans claims for the few author slots that need one.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass
from datetime import datetime
from typing import Any

from weft.graph.identity.ids import KEY_PROPERTIES
from weft.graph.sources import SOURCE_PRIORITY
from weft.loaders.bulk import sql
from weft.loaders.bulk.engine import Engine
from weft.loaders.bulk.stage import SOURCE_SUFFIX
from weft.loaders.claims import plan_claims
from weft.loaders.rows import REL_ENDS

LABELS = ("Institution", "Category", "Researcher", "Paper")
STORED_TYPE = {"CATEGORY_PART_OF": "PART_OF", "INSTITUTION_PART_OF": "PART_OF"}
NAMED = ("Researcher", "Institution")  # labels whose alt_names gather every name any row used
_IDENTIFIER = re.compile(r"^[a-z][a-z0-9_]*$")
_TYPES = {
    frozenset({"str"}): "VARCHAR",
    frozenset({"int"}): "BIGINT",
    frozenset({"float"}): "DOUBLE",
    frozenset({"int", "float"}): "DOUBLE",
    frozenset({"bool"}): "BOOLEAN",
    frozenset({"str[]"}): "VARCHAR[]",
    frozenset({"int[]"}): "BIGINT[]",
}
Echo = Callable[[str], object]


def identifier(name: str) -> str:
    """A property name safe to put in generated SQL (builders' snake_case names); ValueError otherwise."""
    if not _IDENTIFIER.match(name):
        raise ValueError(f"property name {name!r} cannot be a column")
    return name


def sql_type(name: str, kinds: set[str]) -> str | None:
    """The DuckDB type of a property from the value kinds it took (pure); None when only empty lists.

    >>> sql_type("year", {"int"}), sql_type("versions", {"str[]", "[]"}), sql_type("x", {"[]"})
    ('BIGINT', 'VARCHAR[]', None)
    """
    found = frozenset(kinds - {"[]"})
    if not found:
        return None
    if found not in _TYPES:
        raise ValueError(f"{name} has values of several types: {sorted(found)}")
    return _TYPES[found]


def parsed_json(column: str, props: dict[str, str], alias: str) -> str:
    """A JSON text column parsed once into a struct of `props` (`{prop: sql type}`), or NULL for none (pure).

    One parse per row, where an extract per property parsed the text once per property (~20% of
    props_Researcher at 1M).

    >>> print(parsed_json("props", {"year": "BIGINT", "versions": "VARCHAR[]"}, "pj"))
    from_json(props, '{"year": "BIGINT", "versions": ["VARCHAR"]}') AS pj
    """
    if not props:
        return f"NULL AS {alias}"
    fields = ", ".join(f'"{k}": ' + (f'["{t[:-2]}"]' if t.endswith("[]") else f'"{t}"') for k, t in props.items())
    return f"from_json({column}, '{{{fields}}}') AS {alias}"


def _props_of(kinds: dict[str, set[str]], prefix: str) -> dict[str, str]:
    """`{prop: sql type}` of one `kinds` prefix (`Paper`, `Paper/source`, `AUTHORED`)."""
    found: dict[str, str] = {}
    for key, seen in sorted(kinds.items()):
        head, _, name = key.rpartition(".")
        if head == prefix and (kind := sql_type(key, seen)) is not None:
            found[identifier(name)] = kind
    return found


@dataclass(frozen=True)
class LabelSql:
    """The generated parts of NODE_PROPS for one label."""

    parsed: str
    extracts: str
    aggregates: str
    keys: str
    columns: str


def node_props_sql(label: str, kinds: dict[str, set[str]], loaded_at: datetime) -> LabelSql:
    """NODE_PROPS's generated lists for `label` from the property kinds staging saw (pure)."""
    key_props = [prop for _, prop in KEY_PROPERTIES[label]]
    shared = {k: v for k, v in _props_of(kinds, label).items() if k not in key_props}
    own = {k: v for k, v in _props_of(kinds, label + SOURCE_SUFFIX).items() if k not in key_props}
    extracts = [f'pj."{k}" AS p_{k}' for k in shared]
    extracts += [f'sj."{k}" AS s_{k}' for k in own]
    aggregates = [
        f"arg_max(p_{k}, rrank) FILTER (WHERE p_{k} IS NOT NULL) AS {k}, "
        f"max(rrank) FILTER (WHERE p_{k} IS NOT NULL) AS r_{k}"
        for k in shared
    ]
    aggregates += [f"arg_max(s_{k}, srank) FILTER (WHERE s_{k} IS NOT NULL) AS {k}" for k in own]
    for source in sorted(SOURCE_PRIORITY):
        aggregates.append(f"max(srank) FILTER (WHERE source = '{source}') AS rank_{source}")
    names = "list_sort(list_distinct(flatten(coalesce(list(alt) FILTER (WHERE alt IS NOT NULL), [])) "
    named = label in NAMED and "name" in shared
    names += "|| coalesce(list(p_name) FILTER (WHERE p_name IS NOT NULL), [])))" if named else "))"
    aggregates.append(f"{names} AS all_names")
    stamp = f"TIMESTAMPTZ '{loaded_at.isoformat()}'"
    columns = [f"nullif(a.{k}, [])" if t.endswith("[]") else f"a.{k}" for k, t in shared.items()]
    columns = [f"{c} AS {k}" for c, k in zip(columns, shared, strict=True)]
    columns += [f"a.{k}" for k in own]
    columns += [f"k.{p}" for p in key_props]
    ranks = ", ".join(f"CASE WHEN a.r_{k} IS NOT NULL THEN '{k}=' || a.r_{k} END" for k in shared)
    columns.append(f"nullif(list_sort(list_filter([{ranks}], lambda e: e IS NOT NULL)), []) AS prop_ranks")
    for source in sorted(SOURCE_PRIORITY):
        columns.append(f"a.rank_{source} AS {source}_rank")
        columns.append(f"CASE WHEN a.rank_{source} IS NOT NULL THEN {stamp} END AS {source}_loaded_at")
    if label in NAMED:
        columns.append("nullif(a.all_names, []) AS alt_names")
        text = "CASE WHEN array_length(a.all_names) = 0 THEN '' ELSE array_to_string(a.all_names, ' ') || ' ' END"
        columns.append(f"{text} AS alt_names_text")
    else:
        columns.append("nullif(a.all_names, []) AS alt_names")
    if label == "Paper":
        counts = [f"a.{k}" for k in ("cited_by_count_openalex", "cited_by_count_s2") if k in own]
        cited = f"coalesce({', '.join(counts)})" if counts else "CAST(NULL AS BIGINT)"
        date = "a.publication_date" if "publication_date" in shared else "NULL"
        year = "CAST(a.year AS VARCHAR)" if "year" in shared else "NULL"
        columns += [
            f"{cited} AS cited_by_count",
            f"coalesce({cited}, 0) AS sort_cited",
            f"coalesce({date}, {year}, '') AS sort_date",
        ]
    return LabelSql(
        parsed=f"{parsed_json('props', shared, 'pj')}, {parsed_json('sprops', own, 'sj')}",
        extracts=", ".join(extracts) or "NULL AS p_none",
        aggregates=", ".join(aggregates),
        keys=", ".join(f"max(k.val) FILTER (WHERE k.prop = '{p}') AS {p}" for p in key_props),
        columns=", ".join(columns),
    )


def edge_sql(rel_type: str, kinds: dict[str, set[str]]) -> tuple[str, str, str]:
    """EDGES's generated (parsed, extracts, aggregates) for one relationship type (pure)."""
    props = _props_of(kinds, rel_type)
    extracts = [f'pj."{k}" AS p_{k}' for k in props]
    aggregates = [f", arg_max(p_{k}, ord) FILTER (WHERE p_{k} IS NOT NULL) AS {k}" for k in props]
    return parsed_json("props", props, "pj"), ", ".join(extracts) or "NULL AS p_none", "".join(aggregates)


def sources_sql() -> str:
    """EDGES's sorted list of the sources stating an edge, as one flag per known source (pure)."""
    flags = ", ".join(f"CASE WHEN bool_or(source = '{s}') THEN '{s}' END" for s in sorted(SOURCE_PRIORITY))
    return f"list_filter([{flags}], lambda s: s IS NOT NULL)"


@dataclass
class Transform:
    """One transform run on an engine."""

    engine: Engine
    kinds: dict[str, set[str]]
    echo: Echo
    warnings: list[str]

    def run(self, statement: str, **params: Any) -> None:
        self.engine.run(statement, **params)

    def scalar(self, statement: str) -> Any:
        return self.engine.scalar(statement)


def lookup_tables(t: Transform) -> None:
    rel_ends = [[k, s, e, STORED_TYPE.get(k, k)] for k, (s, e) in REL_ENDS.items()]
    t.engine.create_table(
        "rel_ends", {"type": "VARCHAR", "start_label": "VARCHAR", "end_label": "VARCHAR", "stored": "VARCHAR"}, rel_ends
    )
    priorities = [[k, v] for k, v in SOURCE_PRIORITY.items()]
    t.engine.create_table("source_priority", {"source": "VARCHAR", "priority": "BIGINT"}, priorities)
    schemes = [list(pair) for pair in KEY_PROPERTIES["Paper"]]
    t.engine.create_table("paper_schemes", {"scheme": "VARCHAR", "prop": "VARCHAR"}, schemes)


def identity(t: Transform) -> None:
    """Nodes: components of rows sharing a hard key, their keys, ids and aliases."""
    t.run(sql.KEY_EDGES)
    t.run(sql.COMPONENTS_START)
    rounds = 0
    while True:
        t.run(sql.COMPONENTS_STEP)
        changed = t.scalar(sql.COMPONENTS_CHANGED)
        t.engine.rename("cm2", "cm")
        rounds += 1
        if not changed:
            break
    t.run(sql.ROW_NODES)
    t.run(sql.NODE_KEYS)
    t.run(sql.NODES)
    conflicts = t.scalar("SELECT count(*) FROM node WHERE conflict")
    if conflicts:
        t.warnings.append(f"{conflicts} nodes were stated with two values of one key; each keeps the smaller")
    t.run(sql.KEY_NODES)
    t.run(sql.EFFECTIVE)


def node_properties(t: Transform, loaded_at: datetime) -> None:
    """props_<label>: every node's final properties."""
    for label in LABELS:
        parts = node_props_sql(label, t.kinds, loaded_at)
        t.run(
            sql.NODE_PROPS.format(
                label=label,
                parsed=parts.parsed,
                extracts=parts.extracts,
                aggregates=parts.aggregates,
                keys=parts.keys,
                columns=parts.columns,
            )
        )


def relationships(t: Transform) -> None:
    """edge_<type>: every stated relationship, once per (type, start, end)."""
    t.run(sql.REL_IDS)
    t.run(sql.REL_INSTITUTIONS)
    for rel_type in REL_ENDS:
        parsed, extracts, aggregates = edge_sql(rel_type, t.kinds)
        statement = sql.EDGES.format(
            type=rel_type, parsed=parsed, extracts=extracts, aggregates=aggregates, sources=sources_sql()
        )
        t.run(statement)


def claims(t: Transform) -> int:
    """loaders/claims.py's rule over every author slot an id-less researcher shares; returns moves."""
    t.run(sql.RESEARCHER_KEYS)
    moves: list[list[Any]] = []
    group: list[dict[str, Any]] = []

    def plan() -> None:
        for move in plan_claims(group):
            moves.append([move["paper"], move["from"], move["to"], move["sources"]])
        group.clear()

    for slot in t.engine.stream(sql.CLAIM_SLOTS):
        slot["claimed"] = []
        if group and group[-1]["paper"] != slot["paper"]:
            plan()
        group.append(slot)
    plan()
    if moves:
        columns = {"paper": "VARCHAR", "from": "VARCHAR", "to": "VARCHAR", "sources": "VARCHAR[]"}
        t.engine.create_table("claim_moves", columns, moves)
        others = [c for c in t.engine.columns("edge_AUTHORED") if c not in ("sid", "eid", "sources", "claimed_sources")]
        t.run(
            sql.CLAIM_EDGES.format(
                columns=", ".join(f'"{identifier(c)}"' for c in others),
                qualified=", ".join(f'a."{identifier(c)}"' for c in others),
            )
        )
        t.run(sql.UNCLAIMED)
    return len(moves)


def derived(t: Transform, max_authors: int, same_name_cap: int, top_ties: int) -> None:
    """Papers' category ids, CITES, COAUTHORED_WITH (pair rule), TOP_TIE, STATES_AFFILIATION,
    AFFILIATED_WITH, SAME_NAME_AS and the Ref nodes."""
    for table, columns in sql.COLUMNS_READ.items():
        t.engine.add_columns(table, columns)
    t.run(sql.PAPER_CATEGORY_IDS)
    t.run(sql.PAPER_REF_KEYS)
    t.run(sql.CITES)
    t.run(sql.AUTHORSHIPS)
    t.run(sql.COAUTHORED, max_authors=max_authors)
    t.run(sql.TOP_TIES, top_ties=top_ties)
    t.run(sql.STATED)
    t.run(sql.AFFILIATED)
    same_name(t, same_name_cap)
    t.run(sql.REFS)


def same_name(t: Transform, same_name_cap: int) -> None:
    """SAME_NAME_AS, from props_Researcher: the compatible people of each bucket of at most `same_name_cap`."""
    t.run(sql.SAME_NAME_PAIRS, cap=same_name_cap)
    t.run(sql.SAME_NAME_COMPATIBLE)
    t.run(sql.SAME_NAME)
