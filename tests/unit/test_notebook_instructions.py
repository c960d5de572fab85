"""queries/analysis.ipynb's "Run it" paragraph sends nobody to a tool that `make install` does not install
without saying how to get it (issue 48 item 16: it said "open it in JupyterLab", which is not installed)."""

from __future__ import annotations

import importlib.util
import json

from weft.graph.settings import PROJECT_ROOT

NOTEBOOK = PROJECT_ROOT / "queries" / "analysis.ipynb"
# editor named in the text -> (its import name, the install command the text must give when it is missing)
EDITORS = {
    "JupyterLab": ("jupyterlab", "pip install jupyterlab"),
    "Jupyter Notebook": ("notebook", "pip install notebook"),
}


def test_every_editor_the_notebook_names_is_installed_or_its_install_is_given() -> None:
    cells = json.loads(NOTEBOOK.read_text())["cells"]
    intro = "".join(cells[0]["source"])
    assert "**Run it**" in intro
    for name, (module, install) in EDITORS.items():
        if name in intro and importlib.util.find_spec(module) is None:
            assert install in intro, f"the notebook says to use {name}, which `make install` does not install"
    assert ".venv/bin/python" in intro  # the kernel that has weft's dependencies
