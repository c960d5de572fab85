"""Root fields for collaboration networks: researcher and institution networks, collaboration paths."""

from __future__ import annotations

from typing import Annotated

import strawberry

from weft.graph.interruptible import run_interruptible
from weft.graph.network import Network, NetworkParams, researcher_network
from weft.graph.network_institutions import institution_network
from weft.graph.network_paths import collaboration_paths
from weft.schema.context import Info
from weft.schema.support.analytics import analytics_wanted
from weft.schema.support.enums import RankBy
from weft.schema.types.collaboration_path_result import CollaborationPathResult
from weft.schema.types.institution_network import InstitutionNetwork
from weft.schema.types.researcher_network import ResearcherNetwork


async def _with_analytics(info: Info, network: Network) -> Network:
    """`network` with the analytics the query selects computed now, once, in a thread of their own
    that the request deadline stops (graph/interruptible.py)."""
    wanted = analytics_wanted(info.selected_fields[0].selections)
    if wanted:
        await run_interruptible(network.precompute, wanted)
    return network


@strawberry.type
class NetworkQuery:
    @strawberry.field(
        description="A researcher's co-authorship network (from COAUTHORED_WITH) within `depth` hops "
        "(1..3); ties lighter than `minWeight` are left out; with `yearFrom`/`yearTo` a tie's weight "
        "counts only papers in that window. `limit` (1..1000) keeps the centre and the most relevant "
        "researchers, nearest ring first, within a ring by `rankBy` (then by id), chosen in the database. "
        "Ring 1 is every co-author; past it a researcher with more than WEFT_NETWORK_TOP_TIES (50 by "
        "default) co-authors reaches only that many of its heaviest ties (the backbone kept at load), so "
        "a prolific co-author does not flood ring 2; `edges` are the centre's ties and the reaching ties "
        "among the kept ones. With a year window every tie reaches. Bounded: a ring is read only while "
        "the nearer rings hold fewer than `limit` researchers, so at most `limit - 1` researchers' ties "
        "are expanded "
        "(`exploredDepth` says how far it read). CENTRALITY is approximated by the number of co-authors "
        "in the whole graph (PageRank of the ego network would need all of it). Null for an unknown id."
    )
    async def researcher_network(
        self,
        info: Info,
        id: str,
        depth: int = 1,
        min_weight: int = 1,
        year_from: int | None = None,
        year_to: int | None = None,
        limit: int = 200,
        rank_by: RankBy = RankBy.WEIGHT,
    ) -> ResearcherNetwork | None:
        params = NetworkParams(depth, min_weight, year_from, year_to, limit, rank_by.name)
        network = await researcher_network(info.context.reader, id, params)
        if network is None:
            return None
        return ResearcherNetwork.from_record(await _with_analytics(info, network))

    @strawberry.field(
        description="The shortest co-authorship paths (at most `maxLength` hops, 1..6, over ties of at "
        "least `minWeight`) between two researchers, with the papers linking each hop; `path` is "
        "null with a `reason` when there is none. Null when either id is unknown."
    )
    async def collaboration_path(
        self,
        info: Info,
        from_: Annotated[str, strawberry.argument(name="from")],
        to: str,
        max_length: int = 4,
        min_weight: int = 1,
        max_paths: int = 10,
    ) -> CollaborationPathResult | None:
        result = await collaboration_paths(
            info.context.reader, from_, to, max_length=max_length, min_weight=min_weight, max_paths=max_paths
        )
        return CollaborationPathResult.from_record(result) if result else None

    @strawberry.field(
        description="An institution (internal id, ROR or OpenAlex id) and the institutions its "
        "researchers co-published with on at least `minWeight` papers, the strongest `limit - 1` "
        "of them, with ties among all of them. Null for an unknown id."
    )
    async def institution_network(
        self,
        info: Info,
        id: str,
        min_weight: int = 1,
        limit: int = 200,
    ) -> InstitutionNetwork | None:
        network = await institution_network(info.context.reader, id, min_weight=min_weight, limit=limit)
        if network is None:
            return None
        return InstitutionNetwork.from_record(await _with_analytics(info, network))
