"""The site: server-rendered pages for papers, researchers and institutions, with the feeds, sitemap,
llms.txt and openapi.json machines read; every page is drawn from the graph/reads functions the
GraphQL API uses."""
