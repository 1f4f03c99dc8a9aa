"""Ruby: the ABI module of the Ruby bindings (``abi.rb``: constants, structs and signatures from
the header) and the signatures (RBS) of the classes the Ruby bindings build at run time."""

from __future__ import annotations

import json
import re
from typing import Dict, List, Optional, Set, Tuple

from . import naming
from .abi import ABI_TYPES, Abi
from .escape import rbs_comment, rbs_string
from .model import Argument, Class, GenerationError, Library, Record, Type
from .templates import Templates

abi_t = Templates("rbabi")

#: C types of the header -> the names abi.rb gives Fiddle's types (the data file
#: ``abi-types.json``). A pointer of any kind, a callback and an enum are what Fiddle passes them as.
FIDDLE_TYPES: Dict[str, str] = ABI_TYPES["ruby"]



def fiddle_type(c_type: str, abi: Abi) -> str:
    if c_type in FIDDLE_TYPES:
        return FIDDLE_TYPES[c_type]
    if c_type.endswith("*") or c_type in abi.callbacks:
        return "POINTER"
    if c_type in abi.enums:
        return "INT"
    if c_type in abi.structs:
        return abi_t("struct_type", name=c_type)
    raise ValueError("no Fiddle type for the C type %r" % c_type)


def abi_module(abi: Abi) -> str:
    """bindings/ruby/lib/mvvm/abi.rb: the header's constants, struct fields and signatures."""
    constants = [abi_t("enum", enum=enum, members="\n".join(
        abi_t("constant", name=name[len("MVVM_"):], value=value) for name, value in members))
        for enum, members in abi.enums.items()]
    constants.append("\n".join(abi_t("constant", name=name[len("MVVM_"):], value=value)
                               for name, value in abi.defines.items()))
    enums = "\n".join(abi_t("enum_entry", enum=enum, members="\n".join(
        abi_t("enum_member", name=name, value=value) for name, value in members)) for enum, members in abi.enums.items())
    structs = "\n".join(abi_t("struct", name=name, fields=", ".join(
        abi_t("struct_field", name=f.name, type=fiddle_type(f.type, abi)) for f in fields)) for name, fields in abi.structs.items())

    def signature(name: str, params: List[str], result: str) -> str:
        return abi_t("signature", name=name, params=", ".join(fiddle_type(p, abi) for p in params),
                     result=fiddle_type(result, abi))

    callbacks = "\n".join(signature(name, [p.type for p in f.params], f.result) for name, f in abi.callbacks.items())
    functions = "\n".join(signature(f.name, [p.type for p in f.params], f.result) for f in abi.functions)
    return abi_t("file", constants="\n\n".join(constants), enums=enums, structs=structs, callbacks=callbacks,
                 functions=functions) + "\n"

rbs_t = Templates("rbs")


def ruby_reserved() -> Tuple[Set[str], Set[str]]:
    """Ruby's naming rule, from ``naming-ruby.json``, the one file the Ruby binding
    (Mvvm::Names) reads too: the names Ruby keeps (a member of such a name takes a trailing
    underscore), and the constants a library's namespace holds before its classes and records
    take theirs: none (an Mvvm::Library is a module of that library's classes and records only).
    Given as a pair, as ``generate_rbs`` takes them."""
    data = json.loads(naming.RUBY_DATA.read_text())
    return set(data["keywords"]) | set(data["object_methods"]) | set(data["hooks"]), set()


def namespace_of(library_file: str, given: Optional[str] = None) -> str:
    """The Ruby constant the signatures declare a library's classes in, as the host names the
    library's namespace (``Catalog = Mvvm.load(path)``): `given` (``--rbs-namespace``), else the
    library's file name in CamelCase (``libcatalog.so`` -> ``Catalog``, ``libapp_sample.so.1`` ->
    ``AppSample``)."""
    name = given
    if name is None:
        stem = re.sub(r"\.so(\.[0-9.]*)?$|\.dylib$", "", library_file)
        stem = stem[3:] if stem.startswith("lib") else stem
        name = "".join(part[:1].upper() + part[1:] for part in re.split(r"[^A-Za-z0-9]+", stem))
    if not re.fullmatch(r"[A-Z][A-Za-z0-9_]*", name):
        raise GenerationError("--rbs: %r is no Ruby constant to declare the classes in: give --rbs-namespace "
                              "(such as Yours)" % name)
    return name


class _Signatures:
    """The RBS of one library's classes and records, as the Ruby binding makes them: the
    method names by Ruby's naming rule (naming-ruby.json: a reserved name takes a trailing
    underscore; a derived `name?` or `name=` that Ruby keeps is not made), the constants of the
    library's namespace as Mvvm::Library names them."""

    def __init__(self, library: Library, reserved: Set[str], constants: Set[str]) -> None:
        self.library = library
        self.reserved = reserved
        taken = set(constants)
        self.class_names: Dict[str, List[str]] = {}
        for cls in library.classes:
            self.class_names[cls.name] = self._constants(cls.display, taken)
        self.record_names: Dict[str, List[str]] = {}
        for record in library.records.values():
            self.record_names[record.name] = self._constants(record.display, taken)

    @staticmethod
    def _constants(display: str, taken: Set[str]) -> List[str]:
        """The constant the binding gives a display name: itself, with a trailing underscore
        while taken (lib/mvvm/library.rb's name_constant)."""
        while display in taken:
            display += "_"
        taken.add(display)
        return [display]

    def ruby(self, name: str) -> str:
        return name + "_" if name in self.reserved else name

    def class_type(self, c_name: Optional[str]) -> str:
        names = self.class_names.get(c_name or "")
        return names[0] if names else rbs_t("any_object")

    def record_type(self, name: Optional[str]) -> str:
        names = self.record_names.get(name or "")
        return names[0] if names else rbs_t("any_record")

    @staticmethod
    def union(types: List[str]) -> str:
        return rbs_t("union_separator").join(types)

    @staticmethod
    def plain(kind: Type, use: str) -> str:
        """A kind of one type as it is read or written (rbs.tmpl's ``read_<kind>``, ``written_<kind>``)."""
        return rbs_t(use + "_" + kind.kind) if use + "_" + kind.kind in rbs_t else rbs_t("untyped")

    def read(self, kind: Type) -> str:
        """What a reader gives for a value of `kind`."""
        if kind.kind == "list":
            return rbs_t("list", item=self.class_type(kind.item_class))
        literals = self.literals(kind)
        if literals:
            text = rbs_t("grouped", type=self.union(literals))
        elif kind.kind == "array":
            text = rbs_t("array", element=self.read(kind.element) if kind.element else rbs_t("untyped"))
        elif kind.kind == "record":
            text = self.record_type(kind.record)
        else:
            text = self.plain(kind, "read")
        return rbs_t("optional_type", type=text) if kind.optional else text

    @staticmethod
    def literals(kind: Type) -> List[str]:
        """The literal types of a string's allowed values; none when it has none or RBS cannot
        write one of them exactly (its plain type then)."""
        literals = [rbs_string(v) for v in kind.values or []]
        return [] if None in literals else [literal for literal in literals if literal is not None]

    def written(self, kind: Type) -> str:
        """What a writer or argument takes for a value of `kind` (the library converts it): a
        limited string also as a Symbol; a record also as a Hash of its fields."""
        literals = self.literals(kind)
        if literals:
            # A Symbol's name is bare when Ruby reads it so, quoted otherwise.
            symbols = [rbs_t("symbol", name=v if re.fullmatch(r"[a-z_]\w*", v) else literal)
                       for v, literal in zip(kind.values or [], literals)]
            text = rbs_t("grouped", type=self.union(literals + symbols))
        elif kind.kind == "array":
            text = rbs_t("array", element=self.written(kind.element) if kind.element else rbs_t("untyped"))
        elif kind.kind == "record":
            text = rbs_t("record_written", name=self.record_type(kind.record))
        elif kind.kind == "object":
            text = self.union([self.class_type(c) for c in kind.classes or []]) or rbs_t("any_object")
        else:
            text = self.plain(kind, "written")
        return rbs_t("optional_type", type=text) if kind.optional else text

    def overloads(self, arguments: List[Argument], result: str, block: str = "", first: str = "") -> List[str]:
        """By position, and by keyword (after `first`, given by position); an optional argument
        may be left out."""
        def positional(a: Argument) -> str:
            return rbs_t("positional", optional=optional(a.type), type=self.written(a.type), name=self.ruby(a.name))

        def keyword(a: Argument) -> str:
            return rbs_t("keyword", optional=optional(a.type), name=self.ruby(a.name), type=self.written(a.type))

        lead = [first] if first else []
        separator = rbs_t("parameter_separator")
        forms = [separator.join(lead + [positional(a) for a in arguments])]
        if arguments:
            forms.append(separator.join(lead + [keyword(a) for a in arguments]))
        return [rbs_t("signature", parameters=form, completion=block, result=result) for form in forms]

    def class_block(self, cls: Class) -> List[str]:
        names = self.class_names[cls.name]
        if not names:
            return []  # reachable by Mvvm.class_for only
        members: List[str] = []
        defined: Set[str] = set()

        def method(name: str, signatures: List[str], derived: bool = False) -> None:
            if name in defined or (derived and name in self.reserved):
                return
            defined.add(name)
            separator = rbs_t("overload_separator", indent=" " * len(name))
            members.append(rbs_t("method", name=name, signature=separator.join(signatures)))

        overloads: List[str] = []
        for constructor in cls.constructors:
            overloads += self.overloads(constructor.arguments, rbs_t("void"), first=rbs_t("loop_parameter"))
            services = [a for a in constructor.arguments if a.type.kind == "service"]
            if len(services) == 1 and constructor.arguments[-1] is services[0]:
                overloads += self.overloads(constructor.arguments[:-1], rbs_t("void"), rbs_t("service_block"),
                                            first=rbs_t("loop_parameter"))
        if overloads:
            method("initialize", overloads)
        else:
            members.append(rbs_t("made_by_parent"))
        for prop in cls.properties:
            name = self.ruby(prop.name)
            method(name, [rbs_t("reader", type=self.read(prop.type))])
            if prop.type.kind == "bool":
                method(rbs_t("predicate_name", name=name), [rbs_t("reader", type=self.read(prop.type))], derived=True)
            if prop.writable and not prop.is_list:
                written = self.written(prop.type)
                # A union returned is parenthesised: RBS reads `-> A | B` as two method types.
                bare_union = rbs_t("union_separator") in written and not written.startswith("(")
                returned = rbs_t("grouped", type=written) if bare_union else written
                method(rbs_t("writer_name", name=name), [rbs_t("writer", type=written, returned=returned)], derived=True)
        for command in cls.commands:
            if command.is_async:
                # Starts the call and gives its Mvvm::Call; the block gets (result, nil) or (nil, error).
                nothing = rbs_t("read_none")
                value = nothing if command.result.is_none else self.read(command.result)
                given = value if value == nothing or value.endswith("?") else rbs_t("optional_type", type=value)
                block = rbs_t("completion_block", given=given)
                method(self.ruby(command.name), self.overloads(command.arguments, rbs_t("call_type", type=value), block))
            else:
                result = rbs_t("self_result") if command.result.is_none else self.read(command.result)
                method(self.ruby(command.name), self.overloads(command.arguments, result))
        for child in cls.children:
            method(self.ruby(child.name), [rbs_t("reader", type=self.class_type(child.type))])
        for constructor in cls.constructors:
            for argument in constructor.arguments:
                if argument.type.kind == "object":
                    method(self.ruby(argument.name),
                           [rbs_t("reader", type=rbs_t("optional_type", type=self.written(argument.type)))])
        lines = comment_lines(cls.doc, "  ")
        lines.append(rbs_t("class", name=names[0], members="\n".join(members)))
        lines += [rbs_t("alias", alias=alias, name=names[0]) for alias in names[1:]]
        return lines

    def record_block(self, record: Record) -> List[str]:
        names = self.record_names[record.name]
        if not names:
            return []  # reachable by Library#records only
        fields = "\n".join(rbs_t("field", name=self.ruby(f.name), type=self.read(f.type)) for f in record.fields)
        params = rbs_t("parameter_separator").join(rbs_t("keyword", optional=optional(f.type), name=self.ruby(f.name), type=self.written(f.type))
                           for f in record.fields)
        lines = comment_lines(record.doc, "  ")
        lines.append(rbs_t("record", name=names[0], fields=fields, params=params))
        lines += [rbs_t("alias", alias=alias, name=names[0]) for alias in names[1:]]
        return lines


def optional(kind: Type) -> str:
    """RBS's mark of a parameter that may be left out."""
    return rbs_t("optional_mark") if kind.optional else ""


def comment_lines(text: str, indent: str) -> List[str]:
    return [rbs_t("comment", indent=indent, line=line).rstrip() for line in rbs_comment(text)]


def generate_rbs(library: Library, reserved: Set[str], constants: Set[str], namespace: str = "Library") -> str:
    """Signatures of the classes and records the Ruby binding makes at run time (Mvvm::Classes,
    Mvvm::Record), in the module `namespace` (the constant a host names the library's namespace
    by: ``namespace = Mvvm.load(path)``; ``reserved`` and ``constants`` as ``ruby_reserved``
    gives them): a reader per property (`name?` too for a bool), a writer per binding, a method
    per command (by position or keyword, giving its result, or self; an async one its Mvvm::Call,
    with an optional completion block), a reader per child and per
    model argument, `initialize` overloads per constructor (positional, by keyword, a service as
    a block); a record as a Struct of its fields."""
    signatures = _Signatures(library, reserved, constants)
    lines: List[str] = []
    for cls in library.classes:
        lines += signatures.class_block(cls)
    for record in library.records.values():
        lines += signatures.record_block(record)
    return rbs_t("file", namespace=namespace, body="".join(line + "\n" for line in lines)) + "\n"
