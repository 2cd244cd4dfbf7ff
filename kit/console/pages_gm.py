"""The game master's console: the What's My Number? entry grid (enter, undo, publish, amend)
and the Lowest Unique Number host's per-table rounds; the exported log.

Every action is a post (same origin, GM cookie, signed CSRF token, the journal version the
page showed), answered by a redirect back to the console; refused entries come back as the
same page with status 422 and every problem beside its box; a stale version gets a 409 page.
"""

from __future__ import annotations

from collections.abc import Mapping
from types import SimpleNamespace
from typing import Any

from starlette.requests import Request
from starlette.responses import Response

from ..errors import KitError
from ..i18n import N_, Words, words
from .pages import (
    PageProblem,
    call,
    console,
    gm_post,
    language,
    render,
    require_gm,
    see_other,
)
from .pages_public import report_links
from .service import Conflict
from .views import guard, host, said
from .views.grid import Grid, absorb, grid_rows, read_grid
from .views.wmn import open_turn, published_reports

WMN = "whats-my-number"


def _version(values: Mapping[str, str]) -> int | None:
    text = values.get("version", "")
    return int(text) if text.isdigit() else None


def _links(request: Request, game_id: str, w: Words) -> list[dict[str, str]]:
    """The game's open links (the GM link is apart: ``_gm_link``)."""
    base = f"{request.url.scheme}://{request.url.netloc}/console/{game_id}"
    return [
        {"label": w.gettext("Public page for the players"), "href": base},
        {"label": w.gettext("Big-screen standings"), "href": f"{base}/standings"},
    ]


def _gm_link(request: Request, game_id: str) -> str:
    """The GM link with its token: shown once after the game is made, then behind a
    disclosure (anyone who sees the screen could copy it)."""
    return (f"{request.url.scheme}://{request.url.netloc}/console/{game_id}/gm/"
            f"{guard.gm_token(request)}")


def _common(request: Request, state: Any, w: Words) -> dict[str, Any]:
    game_id = state.id
    return {"state": state, "game_id": game_id, "links": _links(request, game_id, w),
            "gm_link": _gm_link(request, game_id),
            "csrf": guard.csrf_token(game_id, guard.gm_token(request)),
            "notice": _notice(request, w), "new": request.query_params.get("new") == "1",
            "action": f"/console/{game_id}/gm/", "gm_url": f"/console/{game_id}/gm"}


def _notice(request: Request, w: Words) -> str:
    q = request.query_params
    if "published" in q and q["published"].isdigit():
        return w.gettext("Turn %(turn)s is published: its report is below.",
                         turn=int(q["published"]))
    if "amended" in q and q["amended"].isdigit():
        return w.gettext("Turn %(turn)s was amended; its erratum is in the reports.",
                         turn=int(q["amended"]))
    messages = {"saved": N_("Entries saved."), "same": N_("Nothing changed: no entry saved."),
                "unchanged": N_("No cell changes: nothing to amend."),
                "undone": N_("The last entry was taken back."),
                "round": N_("Round saved: check its tally with the table.")}
    return next((w.gettext(m) for k, m in messages.items() if k in q), "")


def wmn_context(request: Request, state: Any, w: Words, *, posted: Mapping[str, str] | None
                = None, grid: Grid | None = None) -> dict[str, Any]:
    turn = open_turn(state.log, state.published, w)
    reports, _ = published_reports(state.log, state.published, w)
    return {**_common(request, state, w), "turn": turn, "reports": reports,
            "rows": grid_rows(turn.players, turn.allowance, turn.entries, w, posted, grid),
            "general": grid.general if grid else [],
            "problems": sum(len(v) for v in grid.rows.values()) + len(grid.general)
            if grid else 0,
            "files": [], "secrets": dict(state.log.get("secrets", {})),
            "amend_turns": list(range(1, state.published + 1))}


async def gm_page(request: Request) -> Response:
    game_id = await require_gm(request)
    state = await call(console(request).state, game_id)
    w = words(language(request)["lang"])
    if state.kind == WMN:
        amend = request.query_params.get("amend", "")
        if amend.isdigit() and 1 <= int(amend) <= state.published:
            return render(request, "console/amend.html",
                          **amend_context(request, state, int(amend), w))
        # before turn 1 too: the GM register holds the secret numbers to hand out
        files = await report_links(request, game_id, WMN, private=True,
                                   published=state.published)
        return render(request, "console/gm.html", script=True,
                      **{**wmn_context(request, state, w), "files": files})
    files = await report_links(request, game_id, state.kind, private=True) if any(
        state.rounds_entered.values()) else []
    return render(request, "console/host.html", script=True, files=files,
                  **host.host_context(state, w), **_common(request, state, w))


def amend_context(request: Request, state: Any, number: int, w: Words, *,
                  posted: Mapping[str, str] | None = None, grid: Grid | None = None,
                  changes: list[str] | None = None) -> dict[str, Any]:
    """A published turn's grid, prefilled with its orders, for an amendment."""
    _, result = published_reports(state.log, state.published, w)
    report = result.turns[number - 1]
    orders = dict(state.log.get("turn", [])[number - 1])
    players = tuple(state.players)
    return {**_common(request, state, w), "number": number,
            "rows": grid_rows(players, dict(report.allowance), orders, w, posted, grid),
            "general": grid.general if grid else [], "changes": changes,
            "problems": sum(len(v) for v in grid.rows.values()) if grid else 0,
            "posted": posted or {}}


async def gm_action(request: Request) -> Response:
    """``POST /console/{id}/gm/{action}``: turn, undo, publish, amend, round."""
    game_id, values = await gm_post(request)
    action = request.path_params["action"]
    handlers = {"turn": _enter_turn, "undo": _undo, "publish": _publish, "amend": _amend,
                "round": _enter_round}
    if action not in handlers:
        raise PageProblem(404, N_("Not found"), N_("There is no page here."))
    try:
        return await handlers[action](request, game_id, values)
    except Conflict as conflict:
        return stale_page(request, game_id, conflict)


def _stale(request: Request, state: Any, values: Mapping[str, str]) -> Response | None:
    """The 409 page when the form showed an older version than the game's (checked before
    the form is read against entries it never saw)."""
    seen = _version(values)
    if seen is None or seen == state.version:
        return None
    missed = [what for version, what in state.journal if version > seen]
    return stale_page(request, state.id, SimpleNamespace(said=missed, version=state.version),
                      sent_text(state, values, words(language(request)["lang"])))


def sent_text(state: Any, values: Mapping[str, str], w: Words) -> list[str]:
    """What a refused form held, one line a player, so the GM can enter it again."""
    if values.get("table", "").isdigit() and 1 <= int(values["table"]) <= len(state.tables):
        names = state.tables[int(values["table"]) - 1]
        found = host.read_round(values, int(values["table"]), names, w).choices
        return [w.gettext("%(label)s: %(value)s", label=name,
                          value=w.gettext("pass") if value == "pass" else str(value))
                for name, value in found.items()]
    players = tuple(state.players)
    grid = read_grid(values, players, dict.fromkeys(players, len(players)), {}, w)
    lines = []
    for name, order in grid.orders.items():
        if isinstance(order, Mapping):
            listed = ", ".join(f"{k} {v}" for k, v in order["list"].items())
            lines.append(w.gettext("%(name)s: list %(numbers)s", name=name, numbers=listed))
        else:
            lines.append(w.gettext("%(label)s: %(value)s", label=name,
                                   value=w.numbers(list(order))))
    lines += [w.gettext("%(name)s: no orders", name=name) for i, name in enumerate(players)
              if values.get(f"n{i}")]
    return lines


def stale_page(request: Request, game_id: str, conflict: Any,
               sent: list[str] | None = None) -> Response:
    w = words(language(request)["lang"])
    changes = [what.text(w) for what in conflict.said] or [
        w.gettext("The game is now at version %(version)s.", version=conflict.version)]
    return render(request, "console/message.html", 409,
                  heading=w.gettext("The game changed since this page was loaded"),
                  text=w.gettext("Nothing you sent was saved, so nothing is lost or entered "
                                 "twice. Another window or device entered something first. "
                                 "Open the console again to see the game as it is now, then "
                                 "enter your changes again."),
                  changes=changes, sent=sent or [],
                  back=f"/console/{game_id}/gm{language(request)['keep']}",
                  back_text=w.gettext("Back to the game master console"))


def _back(request: Request, game_id: str, flag: str, anchor: str = "") -> Response:
    keep = language(request)["keep"].replace("?", "&")
    return see_other(f"/console/{game_id}/gm?{flag}{keep}{anchor}")


async def _enter_turn(request: Request, game_id: str, values: dict[str, str]) -> Response:
    service = console(request)
    state = await call(service.state, game_id)
    stale = _stale(request, state, values)
    if stale is not None:
        return stale
    w = words(language(request)["lang"])
    turn = open_turn(state.log, state.published, w)
    grid = read_grid(values, turn.players, turn.allowance, turn.entries, w)
    if grid.ok and grid.orders:
        try:
            await call(service.enter_turn, game_id, grid.orders, version=_version(values))
        except KitError as error:
            if isinstance(error, Conflict):
                raise
            absorb(grid, error, turn.players, w)
        else:
            return _back(request, game_id, "saved=1", "#grid")
    elif grid.ok:
        return _back(request, game_id, "same=1", "#grid")
    return render(request, "console/gm.html", 422, script=True,
                  **wmn_context(request, state, w, posted=values, grid=grid))


async def _undo(request: Request, game_id: str, values: dict[str, str]) -> Response:
    await _checked(request, console(request).undo, game_id, version=_version(values))
    return _back(request, game_id, "undone=1")


async def _publish(request: Request, game_id: str, values: dict[str, str]) -> Response:
    turn = int(values["turn"]) if values.get("turn", "").isdigit() else 0
    await _checked(request, console(request).publish, game_id, turn, version=_version(values))
    return _back(request, game_id, f"published={turn}", "#reports")


async def _checked(request: Request, fn, *args: Any, **kwargs: Any) -> Any:
    """A service call whose refusal (not a conflict) is shown as a 422 page."""
    try:
        return await call(fn, *args, **kwargs)
    except KitError as error:
        if isinstance(error, Conflict):
            raise
        w = words(language(request)["lang"])
        raise PageProblem(422, N_("Not done"), N_("The console refused this: %(reason)s"),
                          reason=w.semicolon.join(said.lines(error, w))) from None


async def _amend(request: Request, game_id: str, values: dict[str, str]) -> Response:
    service = console(request)
    state = await call(service.state, game_id)
    stale = _stale(request, state, values)
    if stale is not None:
        return stale
    w = words(language(request)["lang"])
    number = int(values.get("turn", "0")) if values.get("turn", "").isdigit() else 0
    if not 1 <= number <= state.published:
        raise PageProblem(422, N_("Not done"), N_("Only a published turn can be amended."))
    _, result = published_reports(state.log, state.published, w)
    players = tuple(state.players)
    orders = dict(state.log.get("turn", [])[number - 1])
    grid = read_grid(values, players, dict(result.turns[number - 1].allowance), orders, w)
    confirm = values.get("confirm") == "1"
    if grid.ok and grid.orders:
        try:
            changes = await call(service.amend, game_id, number, grid.orders,
                                 version=_version(values), confirm=confirm)
        except KitError as error:
            if isinstance(error, Conflict):
                raise
            absorb(grid, error, players, w)
        else:
            if confirm:
                return _back(request, game_id, f"amended={number}", "#reports")
            return render(request, "console/amend.html", **amend_context(
                request, state, number, w, posted=values, grid=grid,
                changes=[host.cell_change(c, w) for c in changes]))
    elif grid.ok:
        return _back(request, game_id, "unchanged=1")
    return render(request, "console/amend.html", 422,
                  **amend_context(request, state, number, w, posted=values, grid=grid))


async def _enter_round(request: Request, game_id: str, values: dict[str, str]) -> Response:
    service = console(request)
    state = await call(service.state, game_id)
    stale = _stale(request, state, values)
    if stale is not None:
        return stale
    w = words(language(request)["lang"])
    number = int(values["table"]) if values.get("table", "").isdigit() else 0
    if not 1 <= number <= len(state.tables):
        raise PageProblem(422, N_("Not done"), N_("There is no such table."))
    names = state.tables[number - 1]
    form = host.read_round(values, number, names, w)
    if form.ok:
        try:
            await call(service.enter_round, game_id, number, form.choices,
                       version=_version(values))
        except KitError as error:
            if isinstance(error, Conflict):
                raise
            host.absorb(form, error, names, w)
        else:
            return _back(request, game_id, f"round={number}", f"#table-{number}")
    return render(request, "console/host.html", 422, script=True, files=[],
                  **host.host_context(state, w, form, values), **_common(request, state, w))


async def export_log(request: Request) -> Response:
    """The game's TOML log (GM only), as ``kit report`` reads it."""
    game_id = await require_gm(request)
    text = await call(console(request).export_log, game_id)
    return Response(text, media_type="application/toml; charset=utf-8", headers={
        "content-disposition": f'attachment; filename="game-{game_id}.toml"',
        "cache-control": "no-store"})
