"""Players' names and choices as a game checks them: a name that would print wrong, names matched
as the game spells them, "must be one of"."""

from __future__ import annotations

import unicodedata
from collections.abc import Mapping, Sequence
from typing import Any

from ..errors import ConfigError, KitError, Msg, Problems, shown
from ..i18n import N_


def name_problem(field: str, name: str) -> KitError | None:
    """A player's name that would print wrong or spoof others: one holding a control, format
    (bidi override, zero-width) or unassigned character; None when it is fine."""
    if any(unicodedata.category(ch)[0] == "C" for ch in name):
        return ConfigError(field, Msg(N_(
            "%(name)s holds a control, direction or zero-width character; a name is "
            "printable text only"), name=shown(name)))
    return None


def one_of(choices: Sequence[str], got: object) -> Msg:
    """"must be one of: en, fr; got 'xx'"."""
    return Msg(N_("must be one of: %(choices)s; got %(got)s"), choices=", ".join(choices),
               got=shown(str(got)))


def match_names(given: object, names: Sequence[str], field: str, *,
                allow_none: bool = False, problems: list[KitError] | None = None
                ) -> dict[str, Any]:
    """``given`` with its keys spelt as the game's names (case and spacing ignored). Unknown
    names are left as typed, for the engine to name (with its suggestions)."""
    if not isinstance(given, Mapping):
        error = ConfigError(field, Msg(N_("give an object of name: value")))
        if problems is not None:
            problems.append(error)
            return {}
        raise Problems([error])
    folded = {" ".join(n.split()).casefold(): n for n in names}
    out: dict[str, Any] = {}
    for key, value in given.items():
        name = folded.get(" ".join(str(key).split()).casefold(), str(key))
        if value is None and not allow_none:
            continue
        out[name] = value
    return out
