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
from ...game import FormRead, said
from ...game.refusals import Conflict
from ...i18n import N_, Words, words
from ...server.guard import refuse_wrong_token
from ..addressing import base_url
from ..presence import Presence
from ..results import FormPosted, GameState
from ..specs import console_of
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
from .join import desk_context
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


def presence(presence: Presence, game_id: str, w: Words) -> dict[str, dict[str, Any]]:
    """Each seat ("player:Ann", "table:2") whose page any server on this database has seen:
    "here now" while a stream of it is open, else "last seen 20:14" (this computer's time); a
    seat absent from it was never opened."""
    said = {}
    for seat, seen in presence.seats(game_id).items():
        if seen.here:
            text = w.gettext("here now")
        elif seen.last_seen is not None:
            text = w.gettext("last seen %(time)s",
                             time=datetime.fromtimestamp(seen.last_seen).strftime("%H:%M"))
        else:  # never opened
            continue
        said[seat] = {"text": text, "here": seen.here}
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
    context["joining"] = await call(desk_context, request, state.id)
    # the page follows the GM's event stream, whose ids are the GM view's versions
    context.update(presence=await call(presence, console(request).presence, state.id, w),
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
    w = words(language(request)["lang"])

    def read(state: GameState) -> FormRead | None:
        reader = console_of(state.kind).forms.get(action)
        if action != "undo" and reader is None:
            raise PageProblem(404, N_("Not found"), N_("There is no page here."))
        return reader(values, state.seen(), w) if reader is not None else None

    done = await call(console(request).post_form, game_id, read, _version(values),
                      opener(request))
    posted = done.form
    sent = posted.sent if posted is not None else []
    if done.conflict is not None:
        return stale_page(request, game_id, done.conflict, sent, _again(posted, values))
    try:
        if posted is None:
            return await _undone(request, done)
        return await _post(request, done, posted)
    except Conflict as conflict:  # an entry that follows this one, or its check
        return stale_page(request, game_id, conflict, sent, _again(posted, values))


async def _undone(request: Request, done: FormPosted) -> Response:
    """Back to the page once undone; refused, the game's page says why (it stays the page
    shown)."""
    if done.refused is not None:
        w = words(language(request)["lang"])
        return await _page(request, done.state, 422, refusal=w.gettext(
            "Not undone: %(reason)s", reason=w.semicolon.join(said.lines(done.refused, w))))
    return _back(request, done.state.id, "undone=1")


async def _post(request: Request, done: FormPosted, posted: FormRead) -> Response:
    """A game's form: saved (then back to the page), previewed, or shown with its problems."""
    service, state = console(request), done.state
    w = words(language(request)["lang"])
    if posted.unchanged:
        return _back(request, state.id, posted.unchanged)
    if done.entered is not None:
        entered = done.entered
        if posted.absorb is None:
            return _back(request, state.id, posted.done)
        if entered.recorded and posted.then is not None:
            then = posted.then
            await _checked(request, service.enter, state.id, then.kind, then.body,
                           then.params, version=entered.version, opener=opener(request))
        if entered.recorded:
            return _back(request, state.id, posted.done)
        return await _page(request, state, 200, posted, entered.answer)
    if done.refused is not None:
        if posted.absorb is None:
            raise _not_done(done.refused, w)
        posted.absorb(done.refused, w)
    if posted.sound is not None and posted.absorb is not None:
        try:
            await call(service.check, state.id, posted.kind, posted.sound, posted.params)
        except Conflict:
            raise
        except KitError as error:
            posted.absorb(error, w)
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


def _not_done(error: KitError, w: Words) -> PageProblem:
    """The 422 page of a refusal that no form shows beside its boxes."""
    return PageProblem(422, N_("Not done"), N_("The console refused this: %(reason)s"),
                       reason=w.semicolon.join(said.lines(error, w)))


async def _checked(request: Request, fn: Any, *args: Any, **kwargs: Any) -> Any:
    """A service call whose refusal (not a conflict) is shown as a 422 page."""
    try:
        return await call(fn, *args, **kwargs)
    except Conflict:  # the caller's 409 page
        raise
    except KitError as error:
        raise _not_done(error, words(language(request)["lang"])) from None


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
    q = request.query_params
    invited = q.get("invited", "")  # the invitations a new game's start queued
    query = "&".join(f"{k}={v}" for k, v in (("new", "1"), ("invited", invited),
                                             ("lang", language(request)["lang"]))
                     if (k == "new" and q.get("new") == "1")
                     or (k == "invited" and invited.isdigit())
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
