"""The game master's console: the game's own page (its template and context, from the game
master's view), its forms posted as the game's entries, undo, and the exported log.

Every action is a post (same origin, GM cookie, signed CSRF token, the journal version the
page showed), answered by a redirect back to the console; a refused entry comes back as the
same page with status 422 and every problem beside its box (or, for a form without boxes, a
short page saying why); a stale version gets a 409 page saying what changed.
"""

from __future__ import annotations

from collections.abc import Mapping
from datetime import datetime
from typing import Any

from starlette.requests import Request
from starlette.responses import Response

from ...errors import KitError
from ...game import FormRead
from ...i18n import N_, Words, words
from ...server.guard import refuse_wrong_token
from ..addressing import base_url
from ..events import Hub
from ..refusals import Conflict
from ..service import GameState
from ..specs import console_of
from ..views import said
from . import auth
from .base import (
    PageProblem,
    call,
    console,
    gm_post,
    language,
    opener,
    render,
    require_gm,
    see_other,
)
from .handed import handed_links
from .mail import mail_context
from .public import game_templates, report_links

NOTICES = {"saved": N_("Entries saved."), "same": N_("Nothing changed: no entry saved."),
           "unchanged": N_("No cell changes: nothing to amend."),
           "undone": N_("The last entry was taken back.")}


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


def presence(hub: Hub, game_id: str, w: Words) -> dict[str, dict[str, Any]]:
    """Each seat ("player:Ann", "table:2") whose page this server has seen: "here now" while
    its page holds a stream, else "last seen 20:14" (this computer's time); a seat absent
    from it was never opened here."""
    said = {}
    for seat, state in hub.presence(game_id)[1].items():
        text = w.gettext("here now") if state == "here" else w.gettext(
            "last seen %(time)s", time=datetime.fromtimestamp(float(state)).strftime("%H:%M"))
        said[seat] = {"text": text, "here": state == "here"}
    return said


def _gm_link(request: Request, game_id: str) -> str:
    """The GM link with its token: shown once after the game is made, then behind a
    disclosure (anyone who sees the screen could copy it)."""
    return (f"{request.url.scheme}://{request.url.netloc}/console/{game_id}/gm/"
            f"{auth.gm_token(request)}")


def _common(request: Request, game_id: str, w: Words) -> dict[str, Any]:
    q = request.query_params
    return {"game_id": game_id, "links": _links(request, game_id, w),
            "gm_link": _gm_link(request, game_id),
            "csrf": auth.csrf_token(game_id, auth.gm_token(request)),
            "notice": next((w.gettext(m) for k, m in NOTICES.items() if k in q), ""),
            "new": q.get("new") == "1", "action": f"/console/{game_id}/gm/",
            "gm_url": f"/console/{game_id}/gm",
            # where the GM makes the players' links, and the address they carry
            "seat_links": {"action": f"/console/{game_id}/gm/links",
                           "address": base_url(request)}}


async def _page(request: Request, state: GameState, status: int = 200,
                posted: FormRead | None = None, answer: Mapping[str, Any] | None = None,
                refusal: str = "") -> Response:
    """The game's GM page for ``state`` (a refused or previewed form shown in it)."""
    w = words(language(request)["lang"])
    seen = state.seen()
    # off the event loop, as the render below: a 100-player game's page is a few hundred
    # milliseconds of work that would hold every other request
    made = await call(console_of(state.kind).gm_page, seen, w, dict(request.query_params),
                      posted, answer)
    context = {**_common(request, state.id, w), "files": [], "refusal": refusal}
    context.update({k: v for k, v in made.context.items() if k != "notice" or v})
    if context.pop("show_files", True) and posted is None:
        context["files"] = await report_links(request, state.id, state.kind, private=True,
                                              published=int(seen.get("published", 1)))
        context["mail"] = await call(mail_context, request, state.id, seen)
    context["handed"] = await call(handed_links, console(request), state.id, request)
    # the page follows the GM's event stream, whose ids are the GM view's versions
    context.update(presence=presence(console(request).store.events, state.id, w),
                   never_opened=w.gettext("never opened"),
                   live_events=f"/console/{state.id}/gm/events",
                   live_version=state.view.data.get("version", state.version))
    return await call(render, request, game_templates(state.kind) + made.template, status,
                      script=True, **context)


async def gm_page(request: Request) -> Response:
    game_id = await require_gm(request)
    return await _page(request, await call(console(request).state, game_id))


async def gm_action(request: Request) -> Response:
    """``POST /console/{id}/gm/{action}``: undo, or one of the game's forms."""
    game_id, values = await gm_post(request)
    action = request.path_params["action"]
    service = console(request)
    state = await call(service.state, game_id)
    reader = console_of(state.kind).forms.get(action)
    if action != "undo" and reader is None:
        raise PageProblem(404, N_("Not found"), N_("There is no page here."))
    w = words(language(request)["lang"])
    posted = reader(values, state.seen(), w) if reader is not None else None
    seen_version = _seen(state, _version(values))
    if seen_version is not None and seen_version != state.version:
        # checked before the form is read against entries it never saw
        missed = [what for version, what in state.journal if version > seen_version]
        return stale_page(request, game_id, Conflict(state.version, [], missed),
                          posted.sent if posted is not None else [], _again(posted, values))
    try:
        if posted is None:
            return await _undo(request, state, seen_version)
        return await _post(request, state, posted, seen_version)
    except Conflict as conflict:
        return stale_page(request, game_id, conflict, posted.sent if posted is not None else [],
                          _again(posted, values))


def _seen(state: GameState, version: int | None) -> int | None:
    """The version a GM form is checked against: entries that only the players' own links
    made since the page was loaded (their own rows) do not make it stale."""
    if version is None or version >= state.version:
        return version
    game = console_of(state.kind)
    since = [e for e in state.entries if e["version"] > version]
    if all((entry := game.entry(e["kind"])) is not None and "gm" not in entry.by
           for e in since):
        return None
    return version


async def _undo(request: Request, state: GameState, version: int | None) -> Response:
    """Undo the last entry; refused, the game's page says why (it stays the page shown)."""
    try:
        await call(console(request).undo, state.id, version=version)
    except KitError as error:
        if isinstance(error, Conflict):
            raise
        w = words(language(request)["lang"])
        return await _page(request, state, 422, refusal=w.gettext(
            "Not undone: %(reason)s", reason=w.semicolon.join(said.lines(error, w))))
    return _back(request, state.id, "undone=1")


async def _post(request: Request, state: GameState, posted: FormRead,
                version: int | None) -> Response:
    """A game's form: saved (then back to the page), previewed, or shown with its problems."""
    service = console(request)
    if posted.unchanged:
        return _back(request, state.id, posted.unchanged)
    if posted.ok():
        if posted.absorb is None:
            await _checked(request, service.enter, state.id, posted.kind, posted.body,
                           posted.params, version=version, opener=opener(request))
            return _back(request, state.id, posted.done)
        try:
            entered = await call(service.enter, state.id, posted.kind, posted.body,
                                 posted.params, version=version, opener=opener(request))
        except KitError as error:
            if isinstance(error, Conflict):
                raise
            posted.absorb(error, words(language(request)["lang"]))
        else:
            if entered.recorded and posted.then is not None:
                then = posted.then
                await _checked(request, service.enter, state.id, then.kind, then.body,
                               then.params, version=entered.version, opener=opener(request))
            if entered.recorded:
                return _back(request, state.id, posted.done)
            return await _page(request, state, 200, posted, entered.answer)
    if posted.sound is not None and posted.absorb is not None:
        try:
            await call(service.check, state.id, posted.kind, posted.sound, posted.params)
        except KitError as error:
            if isinstance(error, Conflict):
                raise
            posted.absorb(error, words(language(request)["lang"]))
    return await _page(request, state, 422, posted)


def _again(posted: FormRead | None, values: Mapping[str, str]) -> Mapping[str, str]:
    return posted.again if posted is not None and posted.again is not None else values


def stale_page(request: Request, game_id: str, conflict: Any,
               sent: list[str] | None = None, values: Mapping[str, str] | None = None
               ) -> Response:
    """The 409 page: what changed, what was sent, and the sent form again on the current
    version ("apply my entry again"), every typed value carried over."""
    w = words(language(request)["lang"])
    changes = [what.text(w) for what in conflict.changes_said] or [
        w.gettext("The game is now at version %(version)s.", version=conflict.version)]
    again = [(k, v) for k, v in (values or {}).items() if k not in ("csrf", "version")]
    return render(request, "console/message.html", 409,
                  heading=w.gettext("The game changed since this page was loaded"),
                  text=w.gettext("Nothing you sent was saved, so nothing is lost or entered "
                                 "twice. Another window or device entered something first. "
                                 "Apply your entry again on the game as it is now, or open "
                                 "the console again and enter your changes there."),
                  changes=changes, sent=sent or [],
                  again={"action": f"{request.url.path}{language(request)['keep']}",
                         "fields": again, "version": conflict.version,
                         "csrf": auth.csrf_token(game_id, auth.gm_token(request))}
                  if again else None,
                  back=f"/console/{game_id}/gm{language(request)['keep']}",
                  back_text=w.gettext("Back to the game master console"))


def _back(request: Request, game_id: str, query: str) -> Response:
    """Back to the GM page with ``query`` ("flag=1#anchor") and the page's language."""
    flag, _, anchor = query.partition("#")
    keep = language(request)["keep"].replace("?", "&")
    return see_other(f"/console/{game_id}/gm?{flag}{keep}" + (f"#{anchor}" if anchor else ""))


async def _checked(request: Request, fn: Any, *args: Any, **kwargs: Any) -> Any:
    """A service call whose refusal (not a conflict) is shown as a 422 page."""
    try:
        return await call(fn, *args, **kwargs)
    except KitError as error:
        if isinstance(error, Conflict):
            raise
        w = words(language(request)["lang"])
        raise PageProblem(422, N_("Not done"), N_("The console refused this: %(reason)s"),
                          reason=w.semicolon.join(said.lines(error, w))) from None


async def export_log(request: Request) -> Response:
    """The game's TOML log (GM only), as ``kit report`` reads it."""
    game_id = await require_gm(request)
    text = await call(console(request).export_log, game_id)
    return Response(text, media_type="application/toml; charset=utf-8", headers={
        "content-disposition": f'attachment; filename="game-{game_id}.toml"',
        "cache-control": "no-store"})


async def gm_link(request: Request) -> Response:
    """``/console/{id}/gm/{token}``: the token becomes the game's cookie, then the console."""
    game_id, token = request.path_params["id"], request.path_params["token"]
    if not await call(console(request).authorize, game_id, token):
        refuse_wrong_token(request.scope)  # 429 past the guard's limit of wrong tokens
        raise PageProblem(403, N_("Link not valid"),
                          N_("This game master link is not valid for this game. Check that it "
                             "was copied whole."))
    query = "&".join(f"{k}={v}" for k, v in (("new", "1"), ("lang", language(request)["lang"]))
                     if (k == "new" and request.query_params.get("new") == "1")
                     or (k == "lang" and language(request)["keep"]))
    response = see_other(f"/console/{game_id}/gm" + (f"?{query}" if query else ""))
    response.set_cookie(auth.COOKIE, token, path=auth.cookie_path(game_id), httponly=True,
                        samesite="strict", secure=request.url.scheme == "https",
                        max_age=60 * 60 * 24 * 120)
    held = [game_id, *[g for g in auth.games_held(request.cookies) if g != game_id]]
    response.set_cookie(auth.GAMES_COOKIE, ".".join(held[:auth.GAMES_KEPT]), path="/console",
                        httponly=True, samesite="strict", secure=request.url.scheme == "https",
                        max_age=60 * 60 * 24 * 120)
    response.headers["referrer-policy"] = "no-referrer"
    return response
