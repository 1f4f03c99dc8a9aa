"""Templates: one file per language under ``templates/``, each a series of named blocks
(``## name`` on a line of its own, then the block's text), rendered with ``string.Template``
(``${name}`` placeholders). The code of each target chooses a block per member and fills it; the
text of what is generated lives in the templates."""

from __future__ import annotations

import re
from pathlib import Path
from string import Template
from typing import Dict

_FOLDER = Path(__file__).resolve().parent / "templates"


class Templates:
    def __init__(self, language: str) -> None:
        text = (_FOLDER / (language + ".tmpl")).read_text()
        self._blocks: Dict[str, Template] = {}
        parts = re.split(r"^## (\w+)\n", text, flags=re.M)
        for index in range(1, len(parts), 2):
            self._blocks[parts[index]] = Template(parts[index + 1].rstrip("\n"))

    def __contains__(self, block: str) -> bool:
        return block in self._blocks

    def __call__(self, block: str, **values: object) -> str:
        """The block ``block`` with ``values`` in its placeholders (every one must be given)."""
        return self._blocks[block].substitute({key: str(value) for key, value in values.items()})
