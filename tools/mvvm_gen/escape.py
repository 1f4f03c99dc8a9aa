"""Text from the description (docs, a string's allowed values, Swift type names, module and file
names) as each generated file writes it: one function per target language and place (a comment,
a string literal), which every insertion of such text goes through. A doc is written by its
author, not checked by the library: whatever it holds ("\"\"\"", a closing quote, ``*/``,
backslashes, line breaks, control characters), it cannot end its comment or literal early, and
the file parses; a literal's value is the text exactly (a literal a target cannot write exactly
is None: the caller widens the type instead)."""

from __future__ import annotations

import re
import unicodedata
from typing import Callable, Dict, List, Optional

__all__ = ["python_docstring", "python_string", "c_comment", "c_string", "swift_string", "swift_comment",
           "ts_comment", "ts_string", "rbs_comment", "rbs_string"]


def _each(text: str, escape: Callable[[str], Optional[str]]) -> str:
    """``text`` with each character ``escape`` gives a replacement for replaced."""
    return "".join(escape(ch) or ch for ch in text)


def _is_control(ch: str) -> bool:
    """A C0 or C1 control character, or a lone surrogate (valid in no file's encoding)."""
    return unicodedata.category(ch) in ("Cc", "Cs")


def _shown(ch: str) -> str:
    """How a comment shows a control character: as JSON escapes it."""
    return "\\u%04x" % ord(ch)


# Line breaks of any of the targets (JavaScript's U+2028 and U+2029 too), each made one "\n".
_LINE_BREAK = re.compile("\r\n|[\r\n\x0b\x0c\x1c\x1d\x1e\x85\u2028\u2029]")


def _lines(text: str) -> List[str]:
    return [line.rstrip() for line in _LINE_BREAK.split(text)]


def _controls_shown(line: str) -> str:
    """A line of a comment with its control characters (but tabs) shown."""
    return _each(line, lambda ch: _shown(ch) if _is_control(ch) and ch != "\t" else None)


def _literal(text: str, escapes: Dict[str, str], control: Callable[[str], str]) -> str:
    """A double-quoted literal of ``text``: each character ``escapes`` names so written, each
    other control character as ``control`` writes it."""
    return '"%s"' % _each(text, lambda ch: escapes.get(ch) or (control(ch) if _is_control(ch) else None))


#: What every language's double-quoted literal escapes alike.
_ESCAPES = {"\\": "\\\\", '"': '\\"', "\n": "\\n", "\r": "\\r", "\t": "\\t"}


def _one_line(text: str) -> str:
    """For a comment of one line: its line breaks spaces, its control characters shown."""
    return _controls_shown(" ".join(_lines(text)))


# --- Python


def _python_escape(ch: str) -> str:
    return "\\x%02x" % ord(ch) if ord(ch) < 0x100 else "\\u%04x" % ord(ch)


def python_docstring(text: str) -> str:
    """The body of a ``\"\"\"`` docstring whose value is ``text`` exactly: backslashes and control
    characters escaped, and each quote that a quote or the docstring's end follows."""
    text = _each(text.replace("\\", "\\\\"),
                 lambda ch: _python_escape(ch) if _is_control(ch) and ch not in "\n\t" else None)
    return re.sub(r'"(?="|\Z)', r'\\"', text)


def python_string(text: str) -> str:
    """A double-quoted Python literal of ``text``."""
    return _literal(text, _ESCAPES, _python_escape)


# --- C (headers' /* */ comments, the fuzzer's string literals)


def c_comment(text: str) -> str:
    """``text`` inside a ``/* */`` comment, its lines continued with " * ": no ``*/`` ends it,
    no ``/*`` nests in it, no trigraph or backslash joins its lines into either (a line's trailing
    spaces go: GCC joins a backslash, spaces and a line break too), control characters shown."""
    text = text.replace("*/", "* /").replace("/*", "/ *")
    text = re.sub(r"\?(?=\?)", "?\\\\", text)  # ?\? : no ??/, the trigraph of a backslash
    return "\n * ".join(_controls_shown(line) for line in _lines(text.strip()))


def c_string(text: str) -> str:
    """A C string literal of ``text`` (UTF-8; control characters, quotes, backslashes and ``?``
    escaped, so that no trigraph forms)."""
    return _literal(text, dict(_ESCAPES, **{"?": "\\?"}),
                    lambda ch: "".join("\\%03o" % byte for byte in ch.encode("utf-8", "surrogatepass")))


# --- Swift (the typed calls' definitions)


def swift_string(text: str) -> str:
    """A Swift string literal of ``text`` (no interpolation: its backslashes are escaped)."""
    return _literal(text, _ESCAPES, lambda ch: "\\u{%x}" % ord(ch))


def swift_comment(text: str) -> str:
    """``text`` in a ``//`` comment: one line."""
    return _one_line(text)


# --- TypeScript (declarations)


def ts_comment(text: str) -> str:
    """``text`` in a ``/** */`` or ``//`` comment of one line: no ``*/`` ends it."""
    return _one_line(text).replace("*/", "* /")


def ts_string(text: str) -> str:
    """A string literal of ``text``, as JavaScript's JSON.stringify writes it, with U+2028 and
    U+2029 escaped too (line breaks to older parsers)."""
    escapes = dict(_ESCAPES, **{"\b": "\\b", "\f": "\\f", "\u2028": "\\u2028", "\u2029": "\\u2029"})
    return _literal(text, escapes, lambda ch: "\\u%04x" % ord(ch))


# --- Ruby (RBS signatures)


def rbs_comment(text: str) -> List[str]:
    """``text`` as the lines of a ``#`` comment (its line breaks lines; control characters shown:
    Ruby's parsers take a NUL, ^D or ^Z for the file's end)."""
    return [_controls_shown(line) for line in _lines(text)] if text else []


#: The escapes RBS's double-quoted literal reads alike in RBS 2 and 3; it reads no escaped
#: backslash alike (RBS 2 keeps ``\\`` as two, and takes ``\"`` after one as an escaped quote).
_RBS_ESCAPES = {'"': '\\"', "\n": "\\n", "\r": "\\r", "\t": "\\t", "\x0b": "\\v", "\x0c": "\\f", "\x07": "\\a",
                "\x08": "\\b", "\x1b": "\\e"}


def rbs_string(text: str) -> Optional[str]:
    """An RBS string literal type of ``text``, or None when RBS cannot write it exactly (a
    backslash, a control character of no escape)."""
    if "\\" in text or any(_is_control(ch) and ch not in _RBS_ESCAPES for ch in text):
        return None
    return '"%s"' % _each(text, _RBS_ESCAPES.get)
