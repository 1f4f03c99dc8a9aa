"""The fixed part of the C ABI as ``include/mvvm.h`` declares it: its enums, numeric macros,
structs, callback types and generic functions, read from the header itself so that no binding
keeps a hand copy of them (the Python and Ruby bindings' ABI modules are rendered from this)."""

from __future__ import annotations

import json
import re
from dataclasses import dataclass, field
from pathlib import Path
from typing import Dict, List, Tuple

from .model import Named

#: The markers around the header's generated part (the typed calls), which is not the fixed ABI.
#: The C types of the header as each language's ABI module declares them (the data file
#: ``abi-types.json``, beside this module).
ABI_TYPES: Dict[str, Dict[str, str]] = {
    language: table for language, table in json.loads((Path(__file__).resolve().parent / "abi-types.json").read_text()).items()
    if not language.startswith("_")}

BEGIN = "/* @generated typed calls begin: python3 -m mvvm_gen writes this part; do not edit. */"
END = "/* @generated typed calls end */"


class Param(Named[str]):
    """A C function's parameter or a struct's field: its name and its C type."""


@dataclass(frozen=True)
class Function:
    name: str
    result: str
    params: List[Param]


@dataclass
class Abi:
    #: enum type name -> [(constant, value)]
    enums: Dict[str, List[Tuple[str, int]]] = field(default_factory=dict)
    #: MVVM_* numeric macros
    defines: Dict[str, int] = field(default_factory=dict)
    #: struct name -> fields, in order
    structs: Dict[str, List[Param]] = field(default_factory=dict)
    #: callback typedef name -> its signature
    callbacks: Dict[str, Function] = field(default_factory=dict)
    #: the generic functions, in header order (the typed calls are not among them)
    functions: List[Function] = field(default_factory=list)


def _strip_comments(text: str) -> str:
    text = re.sub(r"/\*.*?\*/", " ", text, flags=re.S)
    return re.sub(r"//[^\n]*", " ", text)


def _param(text: str) -> Param:
    text = " ".join(text.split())
    match = re.match(r"^(.*?)(\w+)$", text)
    if not match or not match.group(1).strip():
        return Param("", text)
    return Param(match.group(2), " ".join(match.group(1).replace("*", " * ").split()).replace("* *", "**"))


def _params(text: str) -> List[Param]:
    text = text.strip()
    if text in ("", "void"):
        return []
    return [_param(part) for part in text.split(",")]


def read(header: Path) -> Abi:
    text = re.sub(r"/\* @generated typed calls begin.*?@generated typed calls end \*/", "", header.read_text(), flags=re.S)
    code = _strip_comments(text)
    abi = Abi()
    for match in re.finditer(r"typedef\s+enum\s+\w*\s*\{(.*?)\}\s*(\w+)\s*;", code, flags=re.S):
        name, body = match.group(2), match.group(1)
        members = []
        for entry in body.split(","):
            member = re.match(r"\s*(\w+)\s*=\s*(-?\d+)\s*$", entry)
            if member:
                members.append((member.group(1), int(member.group(2))))
        abi.enums[name] = members
    for match in re.finditer(r"#define\s+(MVVM_\w+)\s+(?:INT64_C\()?(-?\d+)\)?\s*$", code, flags=re.M):
        abi.defines[match.group(1)] = int(match.group(2))
    for match in re.finditer(r"typedef\s+struct\s+\w*\s*\{(.*?)\}\s*(\w+)\s*;", code, flags=re.S):
        fields = [_param(line) for line in match.group(1).split(";") if line.strip()]
        abi.structs[match.group(2)] = fields
    for match in re.finditer(r"typedef\s+(\w[\w\s\*]*?)\s*\(\s*\*\s*(\w+)\s*\)\s*\((.*?)\)\s*;", code, flags=re.S):
        abi.callbacks[match.group(2)] = Function(match.group(2), " ".join(match.group(1).split()), _params(match.group(3)))
    for match in re.finditer(r"^\s*((?:const\s+)?\w+(?:\s*\*)*)\s*(mvvm_\w+)\s*\(([^;{]*?)\)\s*;", code, flags=re.M | re.S):
        result = " ".join(match.group(1).replace("*", " * ").split()).replace("* *", "**")
        abi.functions.append(Function(match.group(2), result, _params(match.group(3))))
    return abi
