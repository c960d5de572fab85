"""Following a source's own update feed (`weft sync SOURCE LOCATION`): one module per source's layout.

A source plugs in with a reader of its layout (what units exist past the stored watermark, in order) and
an applier that writes each unit through the load path (loaders/write.py) and then moves the watermark
(graph/sync_state.py). OpenAlex: loaders/sync/openalex_layout.py and loaders/sync/openalex.py.
"""
