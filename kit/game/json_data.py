"""An engine's values (dataclasses, mappings, tuples) as plain JSON data, for views and logs."""

from __future__ import annotations

import dataclasses
import enum
import functools
from collections.abc import Mapping
from typing import Any

_PLAIN = frozenset({str, int, float, bool, type(None)})
_SHOWN = ("tally",)  # computed properties worth showing, when a value has them


@functools.cache
def _shape(kind: type) -> tuple[tuple[str, ...], tuple[str, ...]]:
    """A dataclass type's field names and the computed properties shown beside them (looked
    up once per type: a big game's public view converts a hundred thousand values)."""
    return (tuple(f.name for f in dataclasses.fields(kind)),
            tuple(name for name in _SHOWN if isinstance(getattr(kind, name, None), property)))


def to_json(value: Any) -> Any:
    """An engine value (dataclasses, mappings, tuples) as plain JSON data."""
    kind: type = type(value)
    if kind in _PLAIN:  # most values are these exactly (a subclass, an IntEnum say, is not)
        return value
    if dataclasses.is_dataclass(value) and not isinstance(value, type):
        names, shown = _shape(kind)
        out = {name: to_json(getattr(value, name)) for name in names}
        for name in shown:
            out[name] = to_json(getattr(value, name))
        return out
    if isinstance(value, enum.Enum):
        return value.value
    if kind is dict or isinstance(value, Mapping):
        return {str(k): to_json(v) for k, v in value.items()}
    if isinstance(value, (list, tuple, set, frozenset)):
        return [to_json(v) for v in value]
    if isinstance(value, (str, int, float, bool)):
        return value
    return str(value)
