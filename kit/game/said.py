"""Problems as a page says them: in the page's language, with their field.

The engine and the service raise ``KitError``s whose message and field may be ``kit.errors.Msg``
(defined once with parameters): the command line prints their English, a page shows them in
its own language ("tour 3, joueur Eve : ..."), the player's name kept as typed.
"""

from __future__ import annotations

from ..errors import KitError, Msg, Problems
from ..i18n import N_, Words


def each(error: KitError) -> tuple[KitError, ...]:
    """Every problem of ``error`` (itself, or a ``Problems``' list)."""
    return error.problems if isinstance(error, Problems) else (error,)


def line(problem: KitError, w: Words | None) -> str:
    """"field: message" in ``w``'s language (English, as the command line says it, without)."""
    if w is None:
        return str(problem)
    # "problem", not "message": gettext's own first parameter is called message
    return w.gettext(N_("%(field)s: %(problem)s"), field=problem.where(w),
                     problem=problem.text(w))


def lines(error: KitError, w: Words | None) -> list[str]:
    """Every problem of ``error`` as a line in ``w``'s language."""
    return [line(problem, w) for problem in each(error)]


def player_of(problem: KitError) -> str | None:
    """The player a problem's field names ("turn 3, player Eve" -> "Eve"), when it names one."""
    place = problem.place
    while place is not None:
        player = place.values.get("player")
        if isinstance(player, str):
            return player
        where = place.values.get("where")  # "line 12, <field>"
        place = where if isinstance(where, Msg) else None
    return None


__all__ = ["each", "line", "lines", "player_of"]
