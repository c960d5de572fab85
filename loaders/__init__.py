"""Loaders: source dumps (OpenAlex, Semantic Scholar, arXiv) into the graph; entry point `loaders.run.load_paths`."""
