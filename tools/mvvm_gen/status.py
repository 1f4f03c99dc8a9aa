"""The status names, from the header's ``mvvm_status`` enum: the library's table behind
``mvvm_status_name`` (``--status-swift``) and the C tests' (``--status-c``), so that no list of
them is copied by hand."""

from __future__ import annotations

from pathlib import Path
from typing import List, Tuple

from . import abi
from .templates import Templates

t = Templates("status")


def _statuses(header: Path) -> List[Tuple[str, int]]:
    statuses = abi.read(header).enums.get("mvvm_status")
    if not statuses:
        raise ValueError("%s declares no mvvm_status enum" % header)
    return statuses


def swift_table(header: Path) -> str:
    return t("swift_file", entries="\n".join(t("swift_entry", name=name) for name, _ in _statuses(header))) + "\n"


def c_table(header: Path) -> str:
    return t("c_file", entries="\n".join(t("c_entry", name=name) for name, _ in _statuses(header))) + "\n"
