"""A library's description, read once: what ``mvvm_classes`` says of its classes and records (the
typed model, :mod:`mvvm_gen.model`), the Python name of each (:mod:`mvvm_gen.pynames`), and its record
classes (:mod:`mvvm._records`), made from the description's record entries alone.

Values are converted against this layer: a record read from the library or given to it is of a
class made here, so converting a value (a record, an array or optional of records, a Foundation
value in a field) never builds a view-model class. Those are made above, by :mod:`mvvm._build`,
from the same description and with the same record classes.
"""

from __future__ import annotations

import json
from ctypes import byref, c_void_p, string_at
from typing import TYPE_CHECKING, Any, Dict, List, Type

from mvvm_gen.model import Library as LibraryModel
from mvvm_gen.pynames import namespace_names

from ._errors import InternalError
from ._records import Record, record_class
from ._values import decode, take_string

if TYPE_CHECKING:
    from ._library import Library

__all__ = ["Description", "descriptions", "raw_descriptions"]


def descriptions(library: "Library") -> str:
    """``mvvm_classes`` of ``library``: every class it registers, as JSON."""
    out = c_void_p()
    library.functions.mvvm_classes(byref(out))
    return take_string(library.functions.mvvm_string_free, out, "mvvm_classes")


def raw_descriptions(library: "Library") -> List[Dict[str, Any]]:
    """Every class ``library`` registers, as ``mvvm_classes`` describes them (a new list)."""
    described: List[Dict[str, Any]] = json.loads(descriptions(library))
    return described


class Description:
    """One library's description (``text``, ``mvvm_classes``' JSON): its :attr:`model`, the Python
    names of its classes, records and request classes, and its record classes by C name."""

    def __init__(self, text: str) -> None:
        self.model = LibraryModel.from_json(text)
        model = self.model
        self.class_names, self.record_names, self.request_names = namespace_names(
            [(c.name, c.display) for c in model.classes], [(r.name, r.display) for r in model.records.values()],
            {c.name for c in model.classes if c.service is not None})
        #: The record classes by C name, and by Python name.
        self.records: Dict[str, Type[Record]] = {name: record_class(record, self.record_names[name])
                                                 for name, record in model.records.items()}
        self.records_by_python_name: Dict[str, Type[Record]] = {
            self.record_names[name]: made for name, made in self.records.items()}
        self._records_at: Dict[int, Type[Record]] = {}

    def record_at(self, address: int) -> Type[Record]:
        """The record class of a record value whose name is the static string at ``address``."""
        found = self._records_at.get(address)
        if found is None:
            name = decode(string_at(address), "a record name") if address else ""
            found = self.records.get(name)
            if found is None:
                raise InternalError("the library gave a record %r its descriptions do not name" % name)
            self._records_at[address] = found
        return found
