"""Swift types as the symbol graphs spell them: a declaration's fragments (``[`` ``Expense`` ``]?``,
each type name with its precise identifier) parsed into a small tree the derivation reads."""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Any, Dict, List, Optional, Sequence, Tuple

#: One piece of a declaration in a symbol graph: its kind, its spelling, a type's precise identifier.
Fragment = Dict[str, Any]

#: The standard library's optional, array and dictionary, however they are written.
OPTIONAL, ARRAY, DICTIONARY = "s:Sq", "s:Sa", "s:SD"
VOID = "s:s4Voida"


@dataclass(frozen=True)
class SwiftType:
    #: named, optional, array, dictionary, tuple, function or other
    kind: str
    #: named: as written, dotted for a nested type ("PlayerViewModel.Action")
    name: str = ""
    usr: str = ""
    #: generic arguments; optional: the wrapped type; array: the element; dictionary: key and
    #: value; tuple: its elements; function: its parameters
    args: Tuple["SwiftType", ...] = ()
    #: function: its result
    result: Optional["SwiftType"] = None
    #: as written
    text: str = ""

    @property
    def is_void(self) -> bool:
        return (self.kind == "tuple" and not self.args) or (self.kind == "named" and self.usr == VOID)


_TOKEN = re.compile(r"\s+|->|\.\.\.|[\[\](){}<>,:?!.&=]|@[\w$]+|[\w$]+")


def parse(fragments: Sequence[Fragment]) -> SwiftType:
    """The type the fragments spell (a whole declaration's fragments are not a type: give the
    type's own, :func:`type_fragments`)."""
    text = ""
    identifiers: Dict[int, str] = {}
    for fragment in fragments:
        if fragment.get("kind") == "typeIdentifier" and "preciseIdentifier" in fragment:
            identifiers[len(text)] = fragment["preciseIdentifier"]
        text += fragment["spelling"]
    tokens = [(m.start(), m.group()) for m in _TOKEN.finditer(text) if not m.group().isspace()]
    parser = _Parser(tokens, identifiers, text)
    parsed = parser.type()
    return parsed


def type_fragments(fragments: Sequence[Fragment], after_name: bool = True) -> List[Fragment]:
    """A property's type among its declaration's fragments: after the ``: `` that follows its
    name, up to the ``{ get }`` or ``= default`` that ends it."""
    out: List[Fragment] = []
    seen_name = not after_name
    started = False
    for fragment in fragments:
        if not seen_name:
            seen_name = fragment["kind"] == "identifier"
            continue
        spelling = fragment["spelling"]
        if not started:
            if fragment["kind"] == "text" and ":" in spelling:
                started = True
                rest = spelling.split(":", 1)[1]
                if rest.strip():
                    out.append({"kind": "text", "spelling": rest})
            continue
        if fragment["kind"] == "text" and ("{" in spelling or "=" in spelling):
            head = re.split(r"[{=]", spelling, maxsplit=1)[0]
            if head.strip():
                out.append({"kind": "text", "spelling": head})
            break
        out.append(fragment)
    return out


class _Parser:
    def __init__(self, tokens: List[Tuple[int, str]], identifiers: Dict[int, str], text: str) -> None:
        self.tokens = tokens
        self.identifiers = identifiers
        self.text = text
        self.at = 0

    def peek(self, ahead: int = 0) -> str:
        index = self.at + ahead
        return self.tokens[index][1] if index < len(self.tokens) else ""

    def take(self) -> Tuple[int, str]:
        token = self.tokens[self.at] if self.at < len(self.tokens) else (len(self.text), "")
        self.at += 1
        return token

    def expect(self, token: str) -> None:
        if self.take()[1] != token:
            raise ValueError("cannot read the type %r" % self.text)

    def type(self) -> SwiftType:
        start = self.tokens[self.at][0] if self.at < len(self.tokens) else len(self.text)
        other = False
        while self.peek() in ("some", "any", "inout", "sending", "borrowing", "consuming", "__owned", "__shared") \
                or self.peek().startswith("@"):
            token = self.take()[1]
            other = other or token in ("some", "inout")
            if token.startswith("@") and self.peek() == "(":
                self.skip_group("(", ")")
        parsed = self.primary()
        while True:
            if self.peek() in ("?", "!"):
                self.take()
                parsed = SwiftType("optional", args=(parsed,))
            elif self.peek() == "." and self.peek(1) in ("Type", "Protocol"):
                self.take()
                self.take()
                parsed = SwiftType("other")
            elif self.peek() == "&":
                self.take()
                self.primary()
                parsed = SwiftType("other")
            else:
                break
        end = self.tokens[self.at - 1][0] + len(self.tokens[self.at - 1][1]) if self.at else start
        if other:
            parsed = SwiftType("other")
        return SwiftType(parsed.kind, parsed.name, parsed.usr, parsed.args, parsed.result, self.text[start:end].strip())

    def skip_group(self, opening: str, closing: str) -> None:
        depth = 0
        while self.at < len(self.tokens):
            token = self.take()[1]
            depth += token == opening
            depth -= token == closing
            if depth == 0:
                return

    def primary(self) -> SwiftType:
        token = self.peek()
        if token == "[":
            self.take()
            first = self.type()
            if self.peek() == ":":
                self.take()
                second = self.type()
                self.expect("]")
                return SwiftType("dictionary", args=(first, second))
            self.expect("]")
            return SwiftType("array", args=(first,))
        if token == "(":
            self.take()
            elements: List[SwiftType] = []
            while self.peek() not in (")", ""):
                # a label (`_ x:` or `x:`) before an element
                if self.peek(1) == ":" or (self.peek() == "_" and self.peek(2) == ":"):
                    self.take()
                    if self.peek() != ":":
                        self.take()
                    self.take()
                elements.append(self.type())
                if self.peek() == ",":
                    self.take()
            self.expect(")")
            if self.peek() in ("async", "throws", "rethrows", "->"):
                while self.peek() in ("async", "throws", "rethrows"):
                    self.take()
                    if self.peek() == "(":
                        self.skip_group("(", ")")
                self.expect("->")
                result = self.type()
                return SwiftType("function", args=tuple(elements), result=result)
            if len(elements) == 1:
                return elements[0]
            return SwiftType("tuple", args=tuple(elements))
        if re.fullmatch(r"[\w$]+", token or "-"):
            names: List[str] = []
            usr = ""
            while True:
                position, name = self.take()
                names.append(name)
                usr = self.identifiers.get(position, "")
                if self.peek() == "." and re.fullmatch(r"[\w$]+", self.peek(1)) and self.peek(1) not in ("Type", "Protocol"):
                    self.take()
                    continue
                break
            args: Tuple[SwiftType, ...] = ()
            if self.peek() == "<":
                self.take()
                found: List[SwiftType] = []
                while self.peek() not in (">", ""):
                    found.append(self.type())
                    if self.peek() == ",":
                        self.take()
                self.expect(">")
                args = tuple(found)
            if usr == OPTIONAL and len(args) == 1:
                return SwiftType("optional", args=args)
            if usr == ARRAY and len(args) == 1:
                return SwiftType("array", args=args)
            if usr == DICTIONARY and len(args) == 2:
                return SwiftType("dictionary", args=args)
            return SwiftType("named", ".".join(names), usr, args)
        raise ValueError("cannot read the type %r" % self.text)
