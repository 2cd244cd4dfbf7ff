"""The console's JSON API for players' e-mail (``kit.mail``), for the game master only:

- ``GET /api/games/{id}/emails`` (or ``GET /api/games/{id}/mail``) -> ``{"emails": {name:
  address}, "sending": bool, "attach_pdf": bool, "receipts": bool, "failed": [{"player",
  "kind", "turn", "reason"}]}``: ``failed``, the letters that will not go out, newest first
- ``PUT /api/games/{id}/mail`` ``{"attach_pdf": bool, "receipts": bool}`` (either or both) ->
  the same: whether the turn letters queued from now on carry the turn's report and the
  player's own slip as PDF; whether a player's own post of orders gets a receipt
  (``kit.console.mail.receipts``)
- ``PUT /api/games/{id}/emails/{name}`` ``{"address": "..."}`` -> ``{"player", "address"}``;
  ``DELETE`` the same path removes the player's address (``"address": null``)
- ``POST /api/games/{id}/remind`` -> ``{"turn", "missing", "without_address"}`` and, with a
  mail server, ``"queued"`` (now) and ``"before"`` (queued by an earlier press), else
  ``"drafts"`` (name -> ``{"to", "mailto"}``)
- ``POST /api/games/{id}/mail/invitations`` -> ``{"queued", "before", "without_address"}``:
  an invitation queued to each player with an address and none queued or sent to it
  (``kit.console.mail.invitations``); 409 without a mail server
- ``GET /api/games/{id}/drafts/{name}.eml?kind=report|reminder`` -> that player's letter as a
  ``.eml`` draft (the last published turn's, or this turn's reminder)
- ``GET /api/games/{id}/slips.pdf`` -> the secret-number slips, each with its player's link
  as a QR code and address (made for the request, never stored)
"""

from __future__ import annotations

from typing import Any

from starlette.concurrency import run_in_threadpool
from starlette.requests import Request
from starlette.responses import JSONResponse, Response
from starlette.routing import Route

from ..mail.invitations import invite
from ..mail.postbox import REMINDER, REPORT, drafts, letters_now, link_slips, remind
from ..pages.base import NO_STORE, eml_response, pdf_response
from .games import ApiError, _gm, _same_site, handled, opener, read_json


def _settings(console: Any, game_id: str) -> dict[str, Any]:
    """The game's mail as the GM reads it: addresses, whether mail is sent, the switches,
    the letters that failed and why."""
    return {"emails": console.mail.addresses(game_id), "sending": console.mail.sending,
            "attach_pdf": console.mail.attach_pdf(game_id),
            "receipts": console.mail.receipts(game_id),
            "failed": [{"player": f.player, "kind": f.kind, "turn": f.turn,
                        "reason": str(f.reason)} for f in console.mail.failed(game_id)]}


@handled
async def emails(request: Request) -> Response:
    console, game_id = await _gm(request)
    answer = await run_in_threadpool(_settings, console, game_id)
    return JSONResponse(answer, headers=NO_STORE)


SWITCHES = {"attach_pdf": "give true (the turn letters carry PDFs) or false",
            "receipts": "give true (a player's own orders get a receipt by e-mail) or false"}


@handled
async def set_mail(request: Request) -> Response:
    _same_site(request)
    console, game_id = await _gm(request)
    body = await read_json(request)
    unknown = sorted(set(body) - set(SWITCHES))
    if unknown or not body:
        raise ApiError(422, unknown[0] if unknown else "mail",
                       "give attach_pdf, receipts or both, each true or false")
    for name, hint in SWITCHES.items():
        if name in body and not isinstance(body[name], bool):
            raise ApiError(422, name, hint)
    if "attach_pdf" in body:
        await run_in_threadpool(console.mail.set_attach_pdf, game_id, body["attach_pdf"])
    if "receipts" in body:
        await run_in_threadpool(console.mail.set_receipts, game_id, body["receipts"])
    answer = await run_in_threadpool(_settings, console, game_id)
    return JSONResponse(answer, headers=NO_STORE)


@handled
async def set_email(request: Request) -> Response:
    _same_site(request)
    console, game_id = await _gm(request)
    player = request.path_params["name"]
    text = None
    if request.method == "PUT":
        body = await read_json(request)
        text = body.get("address")
        if not isinstance(text, str) or not text.strip():
            raise ApiError(422, "address", "give the player's e-mail address as text; "
                           "DELETE removes it")
    players = await run_in_threadpool(lambda: list(console.state(game_id).view.data.get(
        "players", [])))
    kept = await run_in_threadpool(console.mail.set_address, game_id, players, player, text)
    return JSONResponse({"player": player, "address": kept}, headers=NO_STORE)


@handled
async def remind_missing(request: Request) -> Response:
    _same_site(request)
    console, game_id = await _gm(request)
    answer = await run_in_threadpool(remind, console, game_id, opener(request))
    return JSONResponse(answer, headers=NO_STORE)


@handled
async def send_invitations(request: Request) -> Response:
    _same_site(request)
    console, game_id = await _gm(request)
    if not console.mail.sending:
        raise ApiError(409, "mail", "no mail server is set (kit serve --smtp): invitations "
                       "go out by e-mail only")
    done = await run_in_threadpool(invite, console, game_id, opener(request))
    return JSONResponse({"queued": list(done.queued), "before": list(done.before),
                         "without_address": list(done.without_address)}, headers=NO_STORE)


@handled
async def draft_file(request: Request) -> Response:
    console, game_id = await _gm(request)
    kind = request.query_params.get("kind", REPORT)
    if kind not in (REPORT, REMINDER):
        raise ApiError(422, "kind", f"must be {REPORT} or {REMINDER}")
    player = request.path_params["name"]
    letters = await run_in_threadpool(letters_now, console, game_id, kind, opener(request))
    found = drafts([(key, letter) for key, letter in letters if key.player == player])
    if player not in found:
        raise ApiError(404, "name", "no such letter: the player has no address, or there is "
                       "no published turn (report) or no missing orders (reminder)")
    return eml_response(found[player]["eml"], f"{kind}.eml")


@handled
async def slips_pdf(request: Request) -> Response:
    console, game_id = await _gm(request)
    made = await run_in_threadpool(link_slips, console, game_id, opener(request))
    if made is None:
        raise ApiError(404, "file", "this game has no sheet of players' links")
    return pdf_response(made, "slips-with-links.pdf")


def mail_routes() -> list[Route]:
    """The mail API's routes, under ``/api/games``."""
    return [
        Route("/{id}/emails", emails, methods=["GET"]),
        Route("/{id}/emails/{name}", set_email, methods=["PUT", "DELETE"]),
        Route("/{id}/mail", emails, methods=["GET"]),
        Route("/{id}/mail", set_mail, methods=["PUT"]),
        Route("/{id}/remind", remind_missing, methods=["POST"]),
        Route("/{id}/mail/invitations", send_invitations, methods=["POST"]),
        Route("/{id}/drafts/{name}.eml", draft_file, methods=["GET"]),
        Route("/{id}/slips.pdf", slips_pdf, methods=["GET"]),
    ]
