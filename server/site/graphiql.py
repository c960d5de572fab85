"""GraphiQL at /graphql from the project's own files (npm `graphiql` and React copied into
server/static/vendor by web/copy-vendor.mjs), so it works on a machine with no internet."""

from __future__ import annotations

from functools import cache

from weft.server.site.render import templates


@cache
def graphiql_html() -> str:
    """The GraphiQL page (Strawberry's default loads its scripts from unpkg.com), its files by hashed URL."""
    return templates.get_template("graphiql.html").render()
