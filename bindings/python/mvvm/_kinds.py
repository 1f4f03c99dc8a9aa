"""Foundation's values as Python's own: the kinds the description names ``"uuid"``, ``"date"``,
``"url"`` and ``"decimal"`` (UUID, URL and Decimal travel as strings, Date as a double of seconds
since 1970). The library checks and converts them; this module only renders what it gives:

=========  ==========================================  =============================================
kind       read as                                     also given as
=========  ==========================================  =============================================
uuid       :class:`uuid.UUID`                          a ``str``
date       an aware :class:`datetime.datetime` in UTC  a number of seconds (a naive datetime is
                                                       refused)
url        a ``str`` (Foundation's absoluteString)
decimal    :class:`decimal.Decimal`                    an ``int``, a ``str``
=========  ==========================================  =============================================

A date read outside the years 1-9999 a datetime holds raises :class:`OverflowError` naming the
member. A record built by the host holds each such field in the type it is read as (:func:`adopt`:
a UUID's text a :class:`uuid.UUID`, seconds an aware datetime, an int or text a Decimal), so it
equals the same record read back; a URL is compared as its text, which the library gives in
Foundation's form (``https://例え.jp`` comes back as ``https://xn--r8jz45g.jp``).
"""

from __future__ import annotations

import datetime
import decimal
import re
import uuid
from typing import TYPE_CHECKING, Any, Callable, Dict, Optional

from ._errors import InvalidArgumentError

if TYPE_CHECKING:
    from mvvm_gen.model import Type

__all__ = ["adopt", "renders", "render", "renderer", "seconds_since_1970"]

_EPOCH = datetime.datetime(1970, 1, 1, tzinfo=datetime.timezone.utc)
_SECOND = datetime.timedelta(seconds=1)


def _date(seconds: Any, what: str) -> datetime.datetime:
    try:
        return _EPOCH + datetime.timedelta(seconds=seconds)
    except (OverflowError, ValueError):  # beyond datetime's years, or NaN
        raise OverflowError("%s: %r seconds since 1970 is outside the years 1-9999 a datetime holds"
                            % (what, seconds)) from None


#: Each kind's rendering of the value the library gives (a value already rendered is kept).
_RENDER: Dict[str, Callable[[Any, str], Any]] = {
    "uuid": lambda value, what: value if isinstance(value, uuid.UUID) else uuid.UUID(value),
    "date": lambda value, what: value if isinstance(value, datetime.datetime) else _date(value, what),
    "decimal": lambda value, what: value if isinstance(value, decimal.Decimal) else decimal.Decimal(value),
}


def renders(kind: "Type") -> bool:
    """Whether a value of ``kind`` is rendered (a record renders its own fields when read)."""
    if kind.kind in _RENDER:
        return True
    return kind.kind == "array" and kind.element is not None and renders(kind.element)


def render(value: Any, kind: "Type", what: str) -> Any:
    """``value`` as the library gave it, in Python's type for ``kind``; ``what`` names it in an
    error."""
    if value is None:
        return None
    one = _RENDER.get(kind.kind)
    if one is not None:
        return one(value, what)
    if kind.kind == "array" and kind.element is not None and renders(kind.element):
        return [render(item, kind.element, "%s[%d]" % (what, index)) for index, item in enumerate(value)]
    return value


_UUID_TEXT = re.compile(r"[0-9A-Fa-f]{8}-[0-9A-Fa-f]{4}-[0-9A-Fa-f]{4}-[0-9A-Fa-f]{4}-[0-9A-Fa-f]{12}\Z")


def adopt(value: Any, kind: "Type") -> Any:
    """``value``, given by the host for a value of ``kind`` in another form the library accepts
    (a UUID's text, a date's seconds, a decimal's int or text), in Python's type for it, as the
    library would give it back; any other value as given (the library says why it refuses it)."""
    if kind.kind == "uuid" and isinstance(value, str) and _UUID_TEXT.match(value):
        return uuid.UUID(value)
    if kind.kind == "date" and isinstance(value, (int, float)) and not isinstance(value, bool):
        try:
            return _date(value, "")
        except OverflowError:
            return value
    if kind.kind == "decimal" and isinstance(value, (int, str)) and not isinstance(value, bool):
        try:
            return decimal.Decimal(value)
        except decimal.InvalidOperation:
            return value
    if kind.kind == "array" and kind.element is not None and isinstance(value, list) and renders(kind.element):
        return [adopt(item, kind.element) for item in value]
    return value


def renderer(kind: "Type", what: str) -> Optional[Callable[[Any], Any]]:
    """:func:`render` of ``kind`` as a function of the value, or None when nothing is rendered."""
    if not renders(kind):
        return None
    return lambda value: render(value, kind, what)


def seconds_since_1970(moment: datetime.datetime) -> float:
    """An aware datetime as the library takes a date (exactly: its microseconds over a million)."""
    if moment.utcoffset() is None:
        raise InvalidArgumentError("%r is a naive datetime: a date is given with its time zone "
                                   "(datetime.now(timezone.utc), or .replace(tzinfo=timezone.utc))" % (moment,))
    return (moment - _EPOCH) / _SECOND
