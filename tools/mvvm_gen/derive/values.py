"""Which Swift types cross as values, and what registering them takes: the standard library's
scalars, Foundation's UUID, Date, URL and Decimal (through ``MVVMFoundation``), optionals and
arrays of values, ``String`` and ``Int`` enums, ``Codable`` structs as records, other structs of
values as field records, and whatever the package itself made exportable."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Callable, Dict, Iterable, List, Set, Tuple

from ..naming import snake_case
from .control import Control
from .graph import Graph, Symbol, usr_module
from .types import SwiftType, parse, type_fragments

#: The standard library's scalars that cross as values (Sources/MVVMExport/ExportableValue.swift).
SCALARS = {"s:Sb", "s:Si", "s:s5Int64V", "s:s5Int32V", "s:s5Int16V", "s:s4Int8V", "s:s6UInt64V", "s:s6UInt32V",
           "s:s6UInt16V", "s:s5UInt8V", "s:Sd", "s:Sf", "s:SS"}
#: Foundation's values (Sources/MVVMFoundation), wherever the toolchain's Foundation declares them.
FOUNDATION_MODULES = {"Foundation", "FoundationEssentials", "FoundationInternationalization"}
FOUNDATION_VALUES = {"UUID", "Date", "URL", "Decimal"}
#: The export API's protocols a type of the package may conform to already.
EXPORTABLE = {"MVVMExport.ExportableValue", "MVVMExport.ExportableRecord", "MVVMExport.ExportableFieldRecord",
              "MVVMExport.ExportableBytes", "MVVMExport.ExportableInteger", "MVVMExport.ExportableNarrowing"}
#: What a registration registers (the others are values as they are).
RECORDS = {"MVVMExport.ExportableRecord", "MVVMExport.ExportableFieldRecord"}
CODABLE = ("Swift.Decodable", "Swift.Encodable")


class NotExportable(Exception):
    """Why a type does not cross: the text says so to the developer."""


@dataclass
class Record:
    symbol: Symbol
    #: "codable" (fields from its coding) or "fields" (registered by its fields)
    form: str
    #: the conformance the derived file declares ("" when the package declares it)
    conformance: str
    #: fields: (C name, property) in order, and the labels of the initialiser that makes one
    fields: List[Tuple[str, str]] = field(default_factory=list)
    #: the records its fields hold, registered first
    needs: List[str] = field(default_factory=list)


@dataclass
class Enum:
    symbol: Symbol
    conformance: str


class Values:
    """The value types of a derivation, found as members use them."""

    def __init__(self, graph: Graph, visible: Callable[[Symbol], bool], declared_by_derived: Dict[str, Set[str]],
                 control: Control) -> None:
        self.graph = graph
        self.control = control
        #: whether a symbol of the package may be named where the derived file is
        self.visible = visible
        #: the conformances the derived file now declares, by type name: not the package's own
        self.declared_by_derived = declared_by_derived
        self.records: Dict[str, Record] = {}
        self.enums: Dict[str, Enum] = {}
        self.uses_foundation = False
        self._checking: Set[str] = set()

    def conforms_by_package(self, symbol: Symbol, protocols: Iterable[str]) -> bool:
        """Whether the package itself (not the derived file) makes ``symbol`` conform."""
        own = self.graph.conformances.get(symbol.usr, set())
        derived = self.declared_by_derived.get(symbol.qualified, set())
        if derived:
            # the derived file's conformance brings its refinement's parents with it
            own = own - {"MVVMExport.%s" % name for name in derived} - {"MVVMExport.ExportableValue"}
        return bool(own & set(protocols))

    def reset(self) -> None:
        """Forgets the records and enums found so far."""
        self.records, self.enums, self.uses_foundation = {}, {}, False

    def accept(self, swift_type: SwiftType) -> str:
        """Why ``swift_type`` does not cross as a value ("" when it does, and what it takes is
        kept: its records and enums); what a refused type met on the way is not kept."""
        before = (dict(self.records), dict(self.enums), self.uses_foundation)
        try:
            self.check(swift_type)
            return ""
        except NotExportable as why:
            self.records, self.enums, self.uses_foundation = before
            return str(why)

    def check(self, swift_type: SwiftType) -> None:
        """Raises :class:`NotExportable` unless ``swift_type`` crosses as a value; keeps what it
        takes."""
        kind = swift_type.kind
        if kind == "optional":
            wrapped = swift_type.args[0]
            if wrapped.kind == "optional":
                raise NotExportable("an optional of an optional cannot cross (null would mean either)")
            return self.check(wrapped)
        if kind == "array":
            return self.check(swift_type.args[0])
        if kind == "dictionary":
            raise NotExportable("%s is a dictionary: no value crosses as one (an array of records does)" % swift_type.text)
        if kind == "function":
            raise NotExportable("%s is a closure" % swift_type.text)
        if kind != "named":
            raise NotExportable("%s is no value libmvvm exports" % (swift_type.text or "its type"))
        usr = swift_type.usr
        if usr in SCALARS and not swift_type.args:
            return
        if usr_module(usr) in FOUNDATION_MODULES and swift_type.name.split(".")[-1] in FOUNDATION_VALUES:
            self.uses_foundation = True
            return
        symbol = self.graph.symbols.get(usr)
        if symbol is None:
            if self.graph.conformances.get(usr, set()) & EXPORTABLE:
                return
            raise NotExportable("%s is no value libmvvm exports" % swift_type.text)
        if not self.visible(symbol):
            raise NotExportable("%s is %s, not visible where the derived file is" % (symbol.qualified, symbol.access))
        excluded = self.control.type(symbol.qualified).exclude
        if excluded is not None:
            raise NotExportable("%s is excluded by the control file (%s)" % (symbol.qualified, excluded))
        if self.conforms_by_package(symbol, EXPORTABLE) and not self.conforms_by_package(symbol, RECORDS):
            return      # a value of the package's own making (a narrower string, bytes...)
        if symbol.kind == "swift.enum":
            self._enum(symbol)
        elif symbol.kind == "swift.struct":
            self._record(symbol)
        elif self.conforms_by_package(symbol, EXPORTABLE):
            return
        else:
            raise NotExportable("%s is a %s, neither a value nor a view model of this module"
                                % (symbol.qualified, symbol.kind.split(".")[-1]))

    def _enum(self, symbol: Symbol) -> None:
        if symbol.usr in self.enums:
            return
        if self.conforms_by_package(symbol, EXPORTABLE):
            self.enums[symbol.usr] = Enum(symbol, "")
            return
        raw = [member for member in self.graph.members_of(symbol.usr) if member.name == "init(rawValue:)"]
        parameters = (raw[0].signature or {}).get("parameters", []) if raw else []
        raw_type = parse(type_fragments(parameters[0]["declarationFragments"])) if parameters else None
        if raw_type is None or raw_type.usr not in ("s:SS", "s:Si"):
            raise NotExportable("%s is an enum without String or Int raw values" % symbol.qualified)
        self.enums[symbol.usr] = Enum(symbol, "ExportableValue")

    def stored_properties(self, symbol: Symbol) -> List[Symbol]:
        """A struct's stored properties, in order: no ``{ get }``, not static."""
        return sorted((member for member in self.graph.members_of(symbol.usr)
                       if member.kind == "swift.property" and "{" not in member.text),
                      key=Symbol.place)

    def _record(self, symbol: Symbol) -> None:
        if symbol.usr in self.records:
            return
        if symbol.usr in self._checking:
            raise NotExportable("%s contains itself: a record's value must end" % symbol.qualified)
        self._checking.add(symbol.usr)
        try:
            fields = self.stored_properties(symbol)
            needs: List[str] = []
            for stored in fields:
                try:
                    before = set(self.records)
                    self.check(parse(type_fragments(stored.fragments)))
                    needs += [usr for usr in self.records if usr not in before]
                except NotExportable as why:
                    raise NotExportable("%s's field %s: %s" % (symbol.qualified, stored.name, why))
            if self.conforms_by_package(symbol, {"MVVMExport.ExportableRecord"}):
                record = Record(symbol, "codable", "")
            elif self.graph.conformances.get(symbol.usr, set()) >= set(CODABLE) \
                    and not self.conforms_by_package(symbol, {"MVVMExport.ExportableFieldRecord"}):
                record = Record(symbol, "codable", "ExportableRecord")
            else:
                names = [stored.name for stored in fields]
                made = "init(%s)" % "".join(name + ":" for name in names)
                makers = [member for member in self.graph.members_of(symbol.usr)
                          if member.kind == "swift.init" and member.name == made and self.visible(member)
                          and "throws" not in member.effects()]
                if not fields or not makers:
                    raise NotExportable("%s is neither Codable nor made by an initialiser of its fields (%s)"
                                        % (symbol.qualified, made))
                conformance = "" if self.conforms_by_package(symbol, {"MVVMExport.ExportableFieldRecord"}) \
                    else "ExportableFieldRecord"
                record = Record(symbol, "fields", conformance, [(snake_case(name), name) for name in names])
            record.needs = needs
            self.records[symbol.usr] = record
        finally:
            self._checking.discard(symbol.usr)

    def ordered_records(self) -> List[Record]:
        """The records, each after those its fields hold, else in the order of the code."""
        done: List[Record] = []
        placed: Set[str] = set()

        def place(record: Record) -> None:
            if record.symbol.usr in placed:
                return
            placed.add(record.symbol.usr)
            for usr in record.needs:
                place(self.records[usr])
            done.append(record)

        for record in sorted(self.records.values(), key=lambda r: r.symbol.place()):
            place(record)
        return done
