"""Following a source's own update feed (`weft sync SOURCE LOCATION`): one module per source's layout.

A source plugs in with a reader of its layout (what units exist past the stored watermark, in order) and
an applier that writes each unit through the load path (loaders/write.py) and then moves the watermark;
what every source shares (the report, pending notes, recompute, the log and the watermark) is units.py.
OpenAlex: openalex_layout.py and openalex.py; Semantic Scholar: s2_layout.py and s2.py; arXiv: arxiv.py.
"""
