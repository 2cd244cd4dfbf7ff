"""The game master's e-mail section of the console (``templates/console/_mail.html``, which a
game's GM page includes): each player's address (give, change, remove), PDFs on the turn
letters, receipts of the players' orders, "Send invitations", "Remind the missing",
and without a mail server a ``mailto:`` link and a ``.eml`` draft per player instead.

Posts are GM posts (same origin, GM cookie, signed CSRF token), answered by a redirect back to
the GM page's e-mail section; a refused address comes back as a short page naming every
problem. Letters and links come from ``kit.console.mail.postbox``, opened with the GM cookie's
token.
"""

from __future__ import annotations

from typing import Any

from starlette.requests import Request
from starlette.responses import Response
from starlette.routing import Route

from ...errors import KitError
from ...game import said
from ...i18n import N_, Words, words
from ..mail.invitations import invite
from ..mail.letters import INVITATION, RECEIPTS
from ..mail.postbox import (
    REMINDER,
    REPORT,
    Failed,
    drafts,
    letters_now,
    link_slips,
    remind,
)
from ..specs import console_of
from .base import (
    PageProblem,
    call,
    console,
    eml_response,
    gm_post,
    language,
    opener,
    pdf_response,
    require_gm,
    see_other,
)

NOTICES = {"address": N_("Address saved."), "removed": N_("Address removed."),
           "attach": N_("Each turn letter will carry the turn’s report and the player’s own "
                        "slip as PDF."),
           "plain": N_("Turn letters will carry no PDF."),
           "receipts": N_("Each player’s orders sent from their page will get a receipt by "
                          "e-mail."),
           "noreceipts": N_("Orders will get no receipt by e-mail.")}


NO_SERVER = N_("Invitations go out by e-mail only, and no mail server is set (kit serve "
               "--smtp): hand each player their link, or the room code, instead.")


def _back(request: Request, game_id: str, flag: str) -> Response:
    keep = language(request)["keep"].replace("?", "&")
    return see_other(f"/console/{game_id}/gm?{flag}{keep}#mail")


def _notice(request: Request, w: Words) -> str:
    q = request.query_params
    if "reminded" in q:
        count = int(q["reminded"]) if q["reminded"].isdigit() else 0
        return w.ngettext("Reminder queued for %(num)s player.",
                          "Reminders queued for %(num)s players.", count, num=count)
    if "invited" in q:
        count = int(q["invited"]) if q["invited"].isdigit() else 0
        return w.ngettext("Invitation queued for %(num)s player.",
                          "Invitations queued for %(num)s players.", count, num=count)
    return next((w.gettext(m) for k, m in NOTICES.items() if k in q), "")


LETTER_KINDS = {REPORT: N_("Turn %(turn)s letter"), REMINDER: N_("Turn %(turn)s reminder"),
                RECEIPTS: N_("Receipt of turn %(turn)s orders"), INVITATION: N_("Invitation")}


def failed_rows(failed: list[Failed], w: Words) -> list[dict[str, str]]:
    """Each letter that will not go out as the e-mail section lists it: to whom, which
    letter, why (in the page's language)."""
    return [{"player": f.player,
             "letter": w.gettext(LETTER_KINDS[f.kind], turn=f.turn) if f.kind in LETTER_KINDS
             else f.kind, "reason": f.reason.text(w)} for f in failed]


def mail_context(request: Request, game_id: str, seen: dict[str, Any]) -> dict[str, Any]:
    """What ``_mail.html`` shows (run off the event loop): each player's address; with a mail
    server where the last published turn's letters stand (sent, still to go out, failed),
    without one each player's drafts (the published turn's letter, a reminder)."""
    service = console(request)
    w = words(language(request)["lang"])
    book = service.mail.addresses(game_id)
    rows = [{"player": p, "address": book.get(p, ""), "drafts": []}
            for p in seen.get("players", [])]
    if not service.mail.sending and book:
        made = {kind: drafts(letters_now(service, game_id, kind, opener(request)))
                for kind in (REPORT, REMINDER)}
        labels = {REPORT: w.gettext("Turn %(turn)s letter", turn=seen.get("published", 0)),
                  REMINDER: w.gettext("Reminder")}
        for row in rows:
            row["drafts"] = [
                {"label": labels[kind], "mailto": made[kind][row["player"]]["mailto"],
                 "eml": f"/console/{game_id}/mail/{row['player']}.eml?kind={kind}"}
                for kind in (REPORT, REMINDER) if row["player"] in made[kind]]
    published = int(seen.get("published", 0))
    letters = service.mail.turn_mail(game_id, published) if service.mail.sending \
        and published else {}
    order = {p: i for i, p in enumerate(seen.get("players", []))}
    sheet = console_of(str(seen.get("game", ""))).link_sheet if seen.get("game") else None
    failed = failed_rows(service.mail.failed(game_id), w) if service.mail.sending else []
    return {"players": rows, "sending": service.mail.sending, "failed": failed,
            "attach_pdf": service.mail.attach_pdf(game_id),
            "receipts": service.mail.receipts(game_id),
            "receipts_offered": bool(seen.get("game"))
            and console_of(str(seen["game"])).player_echo is not None,
            "slips": f"/console/{game_id}/mail/slips.pdf" if sheet else "",
            "action": f"/console/{game_id}/mail/", "notice": _notice(request, w),
            "missing": list(seen.get("missing", [])), "turn": published,
            "letters": {state: sorted(names, key=lambda p: order.get(p, len(order)))
                        for state, names in letters.items()} if any(letters.values()) else {}}


async def set_address(request: Request) -> Response:
    """``POST /console/{id}/mail/address``: ``player``, ``address`` (empty or ``remove``:
    the player's address is removed)."""
    game_id, values = await gm_post(request)
    service = console(request)
    state = await call(service.state, game_id)
    text = "" if "remove" in values else values.get("address", "")
    try:
        await call(service.mail.set_address, game_id, list(state.view.data.get("players", [])),
                   values.get("player", ""), text)
    except KitError as error:
        w = words(language(request)["lang"])
        raise PageProblem(422, N_("Not saved"), N_("The address was not saved: %(reason)s"),
                          reason=w.semicolon.join(said.lines(error, w))) from None
    return _back(request, game_id, "address=1" if text else "removed=1")


async def set_attach(request: Request) -> Response:
    """``POST /console/{id}/mail/attach``: ``attach`` (checked) asks for the turn's report
    and each player's own slip as PDF on the turn letters queued from now on."""
    game_id, values = await gm_post(request)
    on = values.get("attach") == "1"
    await call(console(request).mail.set_attach_pdf, game_id, on)
    return _back(request, game_id, "attach=1" if on else "plain=1")


async def set_receipts(request: Request) -> Response:
    """``POST /console/{id}/mail/receipts``: ``receipts`` (checked) asks for a receipt by
    e-mail of each player's own post of orders from now on."""
    game_id, values = await gm_post(request)
    on = values.get("receipts") == "1"
    await call(console(request).mail.set_receipts, game_id, on)
    return _back(request, game_id, "receipts=1" if on else "noreceipts=1")


async def remind_missing(request: Request) -> Response:
    """``POST /console/{id}/mail/remind``: a reminder to each missing player with an
    address (with a mail server; without, the section lists the drafts)."""
    game_id, _values = await gm_post(request)
    answer = await call(remind, console(request), game_id, opener(request))
    return _back(request, game_id, f"reminded={len(answer.get('queued', []))}")


async def send_invitations(request: Request) -> Response:
    """``POST /console/{id}/mail/invitations``: an invitation to each player with an address
    and none queued or sent to it (with a mail server; without, a page saying why)."""
    game_id, _values = await gm_post(request)
    service = console(request)
    if not service.mail.sending:
        raise PageProblem(409, N_("No mail server"), NO_SERVER)
    done = await call(invite, service, game_id, opener(request))
    return _back(request, game_id, f"invited={len(done.queued)}")


async def draft_file(request: Request) -> Response:
    """``GET /console/{id}/mail/{name}.eml?kind=report|reminder``: one player's draft."""
    game_id = await require_gm(request)
    kind = request.query_params.get("kind", REPORT)
    player = request.path_params["name"]
    letters = await call(letters_now, console(request), game_id,
                         kind if kind in (REPORT, REMINDER) else REPORT, opener(request))
    found = drafts([(key, letter) for key, letter in letters if key.player == player])
    if player not in found:
        raise PageProblem(404, N_("Not found"), N_("There is no page here."))
    return eml_response(found[player]["eml"], f"{kind}.eml")


async def slips_pdf(request: Request) -> Response:
    """``GET /console/{id}/mail/slips.pdf``: the game's sheet of players' links (QR codes)."""
    game_id = await require_gm(request)
    made = await call(link_slips, console(request), game_id, opener(request))
    if made is None:
        raise PageProblem(404, N_("Not found"), N_("There is no page here."))
    return pdf_response(made, "slips-with-links.pdf")


def mail_routes() -> list[Route]:
    """The mail pages' routes, under ``/console``."""
    return [
        Route("/{id}/mail/slips.pdf", slips_pdf, methods=["GET"]),
        Route("/{id}/mail/address", set_address, methods=["POST"]),
        Route("/{id}/mail/remind", remind_missing, methods=["POST"]),
        Route("/{id}/mail/invitations", send_invitations, methods=["POST"]),
        Route("/{id}/mail/attach", set_attach, methods=["POST"]),
        Route("/{id}/mail/receipts", set_receipts, methods=["POST"]),
        Route("/{id}/mail/{name}.eml", draft_file, methods=["GET"]),
    ]
