"""What anyone with the public link sees: the public page, the big-screen standings and the
published report files (the GM register and slips only with the GM cookie).

Both pages read ``Console.public_state`` alone. The standings page refreshes itself without a
script (``<noscript>`` meta refresh); with its small script it polls ``public.json`` and swaps
in the new standings when the game's version changes, without reloading the page.
"""

from __future__ import annotations

import mimetypes
import re
from typing import Any

from starlette.requests import Request
from starlette.responses import Response

from ..i18n import N_, words
from .pages import PageProblem, call, console, language, render
from .views import board, guard

WMN = "whats-my-number"
REFRESH_SECONDS = 5
POLL_MS = 2000
PRIVATE = ("register", "slip", "secret")  # report files for the GM's eyes only
SERVED = re.compile(r"[a-z0-9-]+\.(?:pdf|html)|report\.txt|fonts/[A-Za-z0-9_.-]+\.ttf")


STEMS = {"turn-reports": N_("Turn reports"), "results": N_("Results"), "erratum": N_("Erratum"),
         "private-slips": N_("Private slips for each player"),
         "gm-register": N_("Game master register")}
KINDS = {".pdf": N_("%(document)s (PDF, to print)"), ".html": N_("%(document)s (HTML, for a "
                                                                  "screen)")}


def _listing(service: Any, game_id: str, kind: str) -> list[str]:
    """The report folder's files (made on first request for the published content)."""
    try:
        first = service.report_file(game_id, "turn-reports.pdf" if kind == WMN
                                    else "results.pdf")
    except Exception:  # noqa: BLE001 - no reports yet (nothing published), or none to make
        return []
    return sorted(p.name for p in first.parent.iterdir() if p.suffix in KINDS)


async def report_links(request: Request, game_id: str, kind: str, *, private: bool,
                       published: int = 1) -> list[dict[str, str]]:
    """Links to the published report files (the GM's own ones only when ``private``), and the
    text for an email; turn reports first (when a turn is ``published``), then the erratum,
    slips and register."""
    w = words(language(request)["lang"])
    # a party's results change with every round: named, not made, until someone asks
    names = (await call(_listing, console(request), game_id, kind) if kind == WMN
             else ["results.html", "results.pdf"])
    order = list(STEMS)
    names.sort(key=lambda n: (order.index(n.rsplit(".", 1)[0]) if n.rsplit(".", 1)[0] in order
                              else len(order), n.endswith(".html"), n))  # PDF first
    links = []
    for name in names:
        stem, suffix = name.rsplit(".", 1)
        mine = any(word in name for word in PRIVATE)
        if (mine and not private) or (stem == "turn-reports" and not published):
            continue  # (before turn 1 is published, the turn reports say only "no turns yet")
        label = w.gettext(STEMS[stem]) if stem in STEMS else stem
        links.append({"href": f"/console/{game_id}/files/{name}", "private": mine,
                      "text": w.gettext(KINDS["." + suffix], document=label)})
        if name in ("turn-reports.html", "results.html"):
            links.append({"href": f"/console/{game_id}/files/report.txt", "private": False,
                          "text": w.gettext("%(document)s (text, for an email)",
                                            document=label)})
    return links


def _board_context(public: dict[str, Any], lang: str) -> dict[str, Any]:
    w = words(lang)
    if public["game"] == WMN:
        return {"kind": "wmn", "turns": board.wmn_turns(public, w),
                "standings": board.wmn_standings(public), "players": public.get("players", []),
                "published": public.get("published", 0),
                "winners": public.get("winners", [])}
    boards = board.lun_boards(public)
    rounds = int(public.get("rounds") or 5)
    return {"kind": "lun", "boards": boards, "rounds": rounds,
            "progress": board.progress_text(boards, rounds, w)}


async def public_page(request: Request) -> Response:
    game_id = request.path_params["id"]
    public = await call(console(request).public_state, game_id)
    context = _board_context(public, language(request)["lang"])
    kind = public.get("game", "")
    shown = public.get("published") if kind == WMN else public.get("standings")
    files = await report_links(request, game_id, kind, private=False) if shown else []
    return render(request, "console/public.html", public=public, game_id=game_id, files=files,
                  **context)


async def standings_page(request: Request) -> Response:
    game_id = request.path_params["id"]
    public = await call(console(request).public_state, game_id)
    context = _board_context(public, language(request)["lang"])
    return render(request, "console/standings.html", script=True, connect=True, public=public,
                  game_id=game_id, refresh=REFRESH_SECONDS, poll=POLL_MS, **context)


async def report_file(request: Request) -> Response:
    """A file of the published reports; the GM register (and any slip) needs the GM cookie."""
    from .service import NotFound

    game_id, name = request.path_params["id"], request.path_params["name"]
    service = console(request)
    if not SERVED.fullmatch(name):  # the documents and their fonts; no record or other file
        raise PageProblem(404, N_("Not found"), N_("There is no such report file."))
    if any(word in name for word in PRIVATE):
        token = guard.gm_token(request)
        if not token or not await call(service.authorize, game_id, token):
            raise PageProblem(403, N_("Game master only"),
                              N_("This file is for the game master."))
    if name == "report.txt":
        base = f"{request.url.scheme}://{request.url.netloc}/console/{game_id}/files/"
        text = await call(_text_report, service, game_id, base)
        return Response(text, media_type="text/plain; charset=utf-8",
                        headers={"cache-control": "no-store"})
    try:
        path = await call(service.report_file, game_id, name)
    except NotFound:
        raise PageProblem(404, N_("Not found"), N_("There is no such report file.")) from None
    media = mimetypes.guess_type(path.name)[0] or "application/octet-stream"
    headers = {"cache-control": "no-store"}
    if path.suffix == ".html":
        headers["content-security-policy"] = (
            "default-src 'none'; style-src 'unsafe-inline'; font-src 'self'; img-src 'self' "
            "data:; form-action 'none'; base-uri 'none'; frame-ancestors 'none'")
        media = "text/html; charset=utf-8"
    return Response(path.read_bytes(), media_type=media, headers=headers)


def _text_report(service: Any, game_id: str, files: str = "") -> str:
    """The published turns as text for an email (``kit report --format text``), after a line
    for each turn amended since it was handed out (with the erratum's address under
    ``files``), so a player who printed it learns of it."""
    state = service.state(game_id)
    w = words(state.lang)
    notes = [w.gettext("Turn %(turn)s was amended after it was handed out.", turn=n) + " "
             + w.gettext("Erratum: %(link)s", link=files + "erratum.pdf")
             for n in service.public_state(game_id).get("amended", [])]
    text = _report_text(service, game_id, state)
    return "\n".join(notes) + "\n\n" + text if notes else text


def _report_text(service: Any, game_id: str, state: Any) -> str:
    import tomllib

    from ..registry import game_spec

    data = tomllib.loads(service.export_log(game_id))
    if state.kind == WMN:
        data["turn"] = list(data.get("turn", []))[: state.published]
        if not data["turn"]:
            del data["turn"]
        data.pop("published", None)
    try:
        from ..report import report_text
    except ImportError:
        spec = game_spec(state.kind)
        return spec.report.text(spec.report.parse(data), words(state.lang))
    return report_text(data, lang=state.lang)
