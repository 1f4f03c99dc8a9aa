"""Values and strings between Python and C: encoding and decoding strings, ``mvvm_value`` in and
out, the checks a value passes before it reaches C (type, int64 range, allowed ``values``), and
the generic typed getters."""

from __future__ import annotations

import ctypes
from ctypes import byref, c_bool, c_double, c_int64, c_void_p
from typing import Any, Callable, Optional, Sequence, Union

from . import _lib
from ._errors import InternalError, InvalidArgumentError, TypeMismatchError
from ._lib import FlatEvent, Value, lib

__all__ = ["Scalar"]

#: What a property, a command argument or a signal payload holds, in Python.
Scalar = Union[bool, int, float, str, None]

_INT64_MIN, _INT64_MAX = -(2**63), 2**63 - 1
_UINT64_MAX = 2**64 - 1
#: The Python type of each description type.
_PYTHON_TYPES = {"bool": "bool", "int": "int", "double": "float", "string": "str"}



def _encode(text: Any, what: str) -> bytes:
    """A Python string as NUL-terminated UTF-8 for C, or a clear error before reaching C."""
    if not isinstance(text, str):
        raise TypeMismatchError("%s must be a str, not %s" % (what, type(text).__name__))
    if "\x00" in text:
        raise InvalidArgumentError("%s contains a NUL character (index %d), which C strings cannot hold"
                                   % (what, text.index("\x00")))
    try:
        return text.encode("utf-8")
    except UnicodeEncodeError as error:
        raise InvalidArgumentError("%s is not valid Unicode: cannot encode %r at index %d as UTF-8 (%s)"
                                   % (what, text[error.start:error.end], error.start, error.reason)) from None


def _decode(raw: Optional[bytes], what: str, *what_arguments: Any) -> str:
    """UTF-8 from C as a Python string; invalid UTF-8 raises InternalError (never crashes).
    ``what % what_arguments`` names the string in errors, formatted only then."""
    if raw is not None:
        try:
            return raw.decode("utf-8")
        except UnicodeDecodeError as error:
            problem = "the library gave invalid UTF-8 (%s)" % error
    else:
        problem = "the library gave a NULL string"
    raise InternalError("%s: %s" % (what % what_arguments if what_arguments else what, problem))


def _take_string(pointer: c_void_p, what: str) -> str:
    """Copies and frees a string the library allocated."""
    address = pointer.value
    if not address:
        raise InternalError("%s: the library gave a NULL string" % what)
    try:
        raw = ctypes.string_at(address)
    finally:
        lib.mvvm_string_free(address)
    return _decode(raw, what)


def _value_from_c(value: Union[Value, FlatEvent], what: str, *what_arguments: Any) -> Scalar:
    """A value from C; ``what % what_arguments`` names it in errors (formatted only then: this
    runs for every event)."""
    kind = value.type
    if kind == _lib.TYPE_NONE:
        return None
    if kind == _lib.TYPE_BOOL:
        return bool(value.boolean)
    if kind == _lib.TYPE_INT:
        return int(value.integer)
    if kind == _lib.TYPE_DOUBLE:
        return float(value.number)
    if kind == _lib.TYPE_STRING:
        return _decode(value.string, what, *what_arguments)
    raise InternalError("%s: unknown mvvm_type %d" % (what % what_arguments if what_arguments else what, kind))


def _value_to_c(value: Scalar, what: str) -> Value:
    """A Python value as an ``mvvm_value`` (the struct keeps its encoded string alive)."""
    result = Value()
    if value is None:
        result.type = _lib.TYPE_NONE
    elif isinstance(value, bool):
        result.type, result.boolean = _lib.TYPE_BOOL, value
    elif isinstance(value, int):
        result.type, result.integer = _lib.TYPE_INT, _check_int64(value, what)
    elif isinstance(value, float):
        result.type, result.number = _lib.TYPE_DOUBLE, value
    elif isinstance(value, str):
        result.type, result.string = _lib.TYPE_STRING, _encode(value, what)
    else:
        raise TypeMismatchError("%s must be bool, int, float, str or None, not %s" % (what, type(value).__name__))
    return result


def _check_int64(value: int, what: str) -> int:
    if not _INT64_MIN <= value <= _INT64_MAX:
        raise InvalidArgumentError("%s is out of the int64 range: %d" % (what, value))
    return value


def _check_typed(type_name: str, value: Any, what: str) -> Any:
    """Checks (and converts) a value for a property of ``type_name``, before C."""
    if type_name == "bool":
        if not isinstance(value, bool):
            raise TypeMismatchError("%s is a bool property, not %s" % (what, type(value).__name__))
        return value
    if type_name == "int":
        if isinstance(value, bool) or not isinstance(value, int):
            raise TypeMismatchError("%s is an int property, not %s" % (what, type(value).__name__))
        return _check_int64(value, what)
    if type_name == "double":
        if isinstance(value, bool) or not isinstance(value, (int, float)):
            raise TypeMismatchError("%s is a double property, not %s" % (what, type(value).__name__))
        return float(value)
    if type_name == "string":
        return _encode(value, what)
    raise InternalError("%s: unknown property type %r" % (what, type_name))


def _reader(type_name: str, encoded: bytes, what: str) -> Callable[[int], Any]:
    if type_name == "bool":
        get_bool = lib.mvvm_get_bool

        def read(handle: int) -> Any:
            flag = c_bool()
            get_bool(handle, encoded, byref(flag))
            return flag.value
    elif type_name == "int":
        get_int = lib.mvvm_get_int

        def read(handle: int) -> Any:
            number = c_int64()
            get_int(handle, encoded, byref(number))
            return number.value
    elif type_name == "double":
        get_double = lib.mvvm_get_double

        def read(handle: int) -> Any:
            real = c_double()
            get_double(handle, encoded, byref(real))
            return real.value
    elif type_name == "string":
        get_string = lib.mvvm_get_string

        def read(handle: int) -> Any:
            text = c_void_p()
            get_string(handle, encoded, byref(text))
            return _take_string(text, what)
    else:
        raise InternalError("%s: unknown property type %r in the class description" % (what, type_name))
    return read


def _get_generic(handle: int, encoded: bytes, kind: str, name: str) -> Scalar:
    """The value of the property (UTF-8 ``encoded`` name) with the getter of its ``kind``."""
    value: Scalar = _reader(kind, encoded, name)(handle)
    return value


# ------------------------------------------------------------------------------------------------
# Checking values before C
# ------------------------------------------------------------------------------------------------


_SETTERS = {"bool": "mvvm_set_bool", "int": "mvvm_set_int", "double": "mvvm_set_double", "string": "mvvm_set_string"}


def _writer(type_name: str, encoded: bytes, what: str, values: Optional[Sequence[str]] = None) -> Callable[[int, Any], None]:
    """``write(handle, value)``: checks ``value`` (:func:`_checked`) and sets the property
    ``encoded`` of type ``type_name``, with the status checked here rather than by an errcheck."""
    name = _SETTERS[type_name]
    setter = _lib.unchecked(name)
    check_status = _lib.check_status
    if type_name == "string" and not values:
        def write_string(handle: int, value: Any) -> None:
            status = setter(handle, encoded, _encode(value, what))
            if status or _lib.interrupts_pending:
                check_status(status, name)
        return write_string

    def write(handle: int, value: Any) -> None:
        status = setter(handle, encoded, _checked(type_name, value, what, values))
        if status or _lib.interrupts_pending:
            check_status(status, name)
    return write


def _checked(type_name: str, value: Any, what: str, values: Optional[Sequence[str]] = None,
             c_type: Optional[str] = None) -> Any:
    """``value`` as C takes it for a ``type_name`` (bytes for a string, an int64 bit pattern for
    a ``uint64_t``), or TypeMismatchError / InvalidArgumentError naming ``what``."""
    if type_name == "bool":
        if not isinstance(value, bool):
            raise TypeMismatchError("%s must be a bool, not %s" % (what, type(value).__name__))
        return value
    if type_name == "int":
        if isinstance(value, bool) or not isinstance(value, int):
            raise TypeMismatchError("%s must be an int, not %s" % (what, type(value).__name__))
        if c_type == "uint64_t":
            if not 0 <= value <= _UINT64_MAX:
                raise InvalidArgumentError("%s must be in 0 ... 2**64 - 1, not %d" % (what, value))
            return value - 2**64 if value > _INT64_MAX else value
        if not _INT64_MIN <= value <= _INT64_MAX:
            raise InvalidArgumentError("%s is out of the int64 range: %d" % (what, value))
        return value
    if type_name == "double":
        if isinstance(value, bool) or not isinstance(value, (int, float)):
            raise TypeMismatchError("%s must be a float, not %s" % (what, type(value).__name__))
        return float(value)
    if type_name == "string":
        if values and isinstance(value, str) and value not in values:
            raise InvalidArgumentError("%s must be one of %s, not %r" % (what, ", ".join(map(repr, values)), value))
        return _encode(value, what)
    raise InternalError("%s: unknown type %r in the class description" % (what, type_name))


def _c_value(type_name: str, checked: Any) -> Value:
    value = Value()
    if type_name == "bool":
        value.type, value.boolean = _lib.TYPE_BOOL, checked
    elif type_name == "int":
        value.type, value.integer = _lib.TYPE_INT, checked
    elif type_name == "double":
        value.type, value.number = _lib.TYPE_DOUBLE, checked
    else:
        value.type, value.string = _lib.TYPE_STRING, checked
    return value


def _object_value(handle: int) -> Value:
    value = Value()
    value.type, value.object = _lib.TYPE_OBJECT, handle
    return value


