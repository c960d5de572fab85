"""The ASGI app, the `weft` command line and the pages."""
