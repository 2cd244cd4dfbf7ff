"""What's My Number? on a player's own page: this turn's allowance, boxes for guesses or a
list of every other player, the echo of the orders received with the rulings they will get,
the deadline; after each publish the turn reports and the player's own slips.

Pure functions of the player's view data (``player.player_view``) and the posted
values; the console does the rest (the token, the journal, the redirect).
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from datetime import datetime
from typing import Any

from ....errors import KitError
from ....game import FormRead, GmPage
from ....i18n import N_, Words
from .. import rules
from .grid import boxes_posted, guesses_in_place
from .player import repeated, ruling_said
from .turns import RECENT_TURNS

NUMBER = re.compile(r"[+-]?\d{1,9}")
EXTRA_BOXES = 1  # one box past the allowance: a guess there is ignored, and the page says so


def local_time(stamp: str | None) -> str:
    """An ISO 8601 UTC time as this computer's local hour ("20:14")."""
    if not stamp:
        return ""
    return datetime.fromisoformat(stamp.replace("Z", "+00:00")).astimezone().strftime("%H:%M")


def deadline_text(deadline: str | None) -> str:
    """A deadline as "2026-12-04 20:00" (with its offset when one was given)."""
    if not deadline:
        return ""
    return deadline.replace("T", " ")


def deadline_said(deadline: str | None, w: Words, now: datetime | None = None
                  ) -> dict[str, str]:
    """A deadline for the player's page: "Sunday 21:30 (UTC+01:00)" in the page's language,
    the time left ("in 2 h 10 min", which the live script keeps counting down), and the
    instant itself with its offset (``at``, for the script). A deadline without an offset is
    this computer's local time, as the game master typed it."""
    if not deadline:
        return {}
    from babel.dates import format_datetime

    when = datetime.fromisoformat(deadline)
    if when.tzinfo is None:
        when = when.astimezone()
    shown = format_datetime(when, "EEEE HH:mm", tzinfo=when.tzinfo, locale=w.locale)
    return {"text": f"{shown} ({format_datetime(when, 'ZZZZ', locale=w.locale)})",
            "left": time_left(when, w, now), "at": when.isoformat(timespec="minutes"),
            "words": "|".join(w.gettext(m) for m in LEFT_WORDS)}


# the time left, in the page's language; the live script fills the same words in the browser
LEFT_WORDS = (N_("in %(hours)s h %(minutes)s min"), N_("in %(minutes)s min"),
              N_("the deadline has passed"))


def time_left(when: datetime, w: Words, now: datetime | None = None) -> str:
    """"in 2 h 10 min", "in 5 min" or "the deadline has passed"."""
    minutes = int(((when - (now or datetime.now(when.tzinfo))).total_seconds() + 59) // 60)
    if minutes <= 0:
        return w.gettext(LEFT_WORDS[2])
    if minutes < 60:
        return w.gettext(LEFT_WORDS[1], minutes=minutes)
    return w.gettext(LEFT_WORDS[0], hours=minutes // 60, minutes=minutes % 60)


def _rulings(data: Mapping[str, Any], w: Words) -> list[str]:
    lo, hi = (list(data.get("range") or (1, 1)) + [1, 1])[:2]
    out = []
    for r in data.get("rulings", ()):
        ruling = rules.Ruling(0, str(data["player"]), r["kind"], tuple(r.get("numbers", ())),
                              tuple(r.get("positions", ())), int(r.get("allowed", 0)),
                              tuple(r.get("missing", ())))
        out += [m.text(w) for m in ruling_said(ruling, int(lo), int(hi))]
    return out


def orders_text(order: Any, w: Words) -> str:
    """Orders as received: "17, 33" or "list: Ann 12, Bob 30"."""
    if isinstance(order, Mapping):
        listed = ", ".join(f"{name} {n}" for name, n in order.get("list", {}).items())
        return w.gettext("list: %(numbers)s", numbers=listed)
    return w.numbers(["—" if n == rules.BLANK else str(n) for n in order or ()])  # a blank line


def _boxes(data: Mapping[str, Any], values: Mapping[str, str] | None) -> dict[str, Any]:
    """The form's boxes with their values: the post as typed, else the orders received."""
    order = data.get("orders")
    players = [p for p in data.get("players", ()) if p != data["player"]]
    allowance = int(data.get("allowance") or 0)
    guesses = list(order) if isinstance(order, list) else []
    listed = dict(order.get("list", {})) if isinstance(order, Mapping) else {}
    count = max(allowance + EXTRA_BOXES, len(guesses))
    if values is not None:
        return {"guesses": [values.get(f"g{i}", "") for i in range(1, count + 1)],
                "list": [(p, values.get(f"l{i}", "")) for i, p in enumerate(players)]}
    return {"guesses": [str(guesses[i]) if i < len(guesses) else "" for i in range(count)],
            "list": [(p, str(listed.get(p, ""))) for p in players]}


def turn_files(game_id: str, turn: int, w: Words, own: str = "") -> list[dict[str, str]]:
    """The shared report of handed-out turn ``turn`` as PDF: the public's file, the one the
    public page links (it holds no secret, guess or list); then, under ``own`` (the
    player's own files' address, if given), the player's own slip of that turn as PDF."""
    label = w.gettext("Report of turn %(turn)s", turn=turn)
    files = [{"href": f"/console/{game_id}/files/turn-{turn}.pdf",
              "text": w.gettext("%(document)s (PDF, to print)", document=label)}]
    if own:
        slip = w.gettext("Your slip of turn %(turn)s", turn=turn)
        files.append({"href": f"{own}slips-turn-{turn}.pdf",
                      "text": w.gettext("%(document)s (PDF, to print)", document=slip)})
    return files


def player_page(data: Mapping[str, Any], w: Words, query: Mapping[str, str],
                posted: FormRead | None = None, refusal: str = "", own: str = "",
                recent: int | None = RECENT_TURNS) -> GmPage:
    """The player's page: the open turn and its form, then the reports and slips (``own``:
    the address of the player's own files, their link's ``files/``). The ``recent`` latest
    slips are written out, the older ones by their heading and files (None: every slip)."""
    form = posted.form if posted is not None and isinstance(posted.form, PlayerForm) else None
    entered = data.get("entered") or {}
    received = _received(data, w)
    allowance = data.get("allowance")
    heading = w.ngettext("Turn %(turn)s: you may make %(num)s guess",
                         "Turn %(turn)s: you may make %(num)s guesses", int(allowance or 0),
                         turn=data.get("turn")) if allowance is not None else ""
    lo, hi = (list(data.get("range") or (1, 1)) + [1, 1])[:2]
    turn = data.get("turn")
    slips = [{"turn": s["turn"],
              "lines": s["text"].splitlines()[:None if recent is None or n < recent else 1],
              "files": turn_files(str(data.get("id", "")), int(s["turn"]), w, own)}
             for n, s in enumerate(reversed(data.get("slips", ())))]
    return GmPage("player.html", {
        "heading": heading, "received": received,
        "rulings": _all_rulings(data, w),
        "deadline": deadline_text(data.get("deadline")), "refusal": refusal,
        "due": deadline_said(data.get("deadline"), w),
        "numbers_range": w.gettext("Numbers from %(low)s to %(high)s", low=lo, high=hi),
        "kept_note": w.gettext("Turn %(published)s was published; your unsent numbers are "
                               "kept below for turn %(turn)s.",
                               published=int(turn or 1) - 1, turn=turn),
        "unsent_note": w.gettext("Not sent, shown so nothing you typed is lost:"),
        "published_note": w.gettext("Turn %(turn)s published", turn=slips[0]["turn"])
        if slips else "",
        "notice": _received_notice(entered, w)
        if query.get("sent") == str(turn) and data.get("orders") is not None else
        w.gettext("Your secret number was saved.") if "secret" in query else "",
        "secret_value": (posted.values.get("secret", "") if posted is not None
                         and form is not None and form.kind == "secret" else
                         "" if data.get("secret") is None else str(data["secret"])),
        "won": data.get("player") in (data.get("winners") or ()),
        "boxes": _boxes(data, posted.values if posted is not None else None),
        "problems": list(form.problems) if form is not None else [],
        "chosen": form.kind if form is not None else "",
        "kept": _kept(posted, w) if refusal else "", "slips": slips, "w": w})


def _received(data: Mapping[str, Any], w: Words) -> str:
    """The open turn's orders as received, and who sent them ('' when there are none)."""
    if data.get("orders") is None:
        return ""
    entered = data.get("entered") or {}
    if entered.get("by") == "player":
        return w.gettext("Received at %(time)s, sent by you: %(orders)s",
                         time=local_time(entered.get("at")),
                         orders=orders_text(data["orders"], w))
    return w.gettext("Entered by the game master: %(orders)s",
                     orders=orders_text(data["orders"], w))


def _all_rulings(data: Mapping[str, Any], w: Words) -> list[str]:
    """The rulings the open turn's orders will get, and a hint per number guessed twice."""
    return _rulings(data, w) + [m.text(w) for m in repeated(data.get("orders"))]


def player_echo(kind: str, data: Mapping[str, Any], w: Words) -> tuple[str, list[str]] | None:
    """What the player's page echoes of orders just posted (``kind`` ``sent``): the line
    saying them as received and their rulings; None for any other post (a secret number)."""
    if kind != "sent" or data.get("orders") is None:
        return None
    return _received(data, w), _all_rulings(data, w)


def _received_notice(entered: Mapping[str, Any], w: Words) -> str:
    """"Your orders were received.", and what they replaced when the player's orders this turn
    were other ones (sent from another phone, or entered by the game master)."""
    replaced = entered.get("replaced")
    if not replaced:
        return w.gettext("Your orders were received.")
    earlier = orders_text(replaced.get("orders"), w)
    when = local_time(replaced.get("at"))
    if replaced.get("by") == "player":
        return w.gettext("Your orders were received. They replaced the ones you sent at "
                         "%(time)s: %(orders)s.", time=when, orders=earlier)
    return w.gettext("Your orders were received. They replaced the ones the game master "
                     "entered: %(orders)s.", orders=earlier)


def _kept(posted: FormRead | None, w: Words) -> str:
    """A refused post's orders, said back so nothing typed is lost."""
    if posted is None:
        return ""
    body = posted.body
    return orders_text({"list": body["list"]} if "list" in body else body.get("guesses"), w)


class PlayerForm:
    """A player's post read: the orders it makes, or every problem (with its box's id)."""

    def __init__(self) -> None:
        self.problems: list[dict[str, str]] = []
        self.kind = "guesses"  # the form posted: "guesses" or "list"

    def add(self, text: str, anchor: str = "") -> None:
        self.problems.append({"text": text, "anchor": anchor})

    def absorb(self, error: KitError, w: Words) -> None:
        self.add(error.text(w))


def _number(form: PlayerForm, text: str, anchor: str, label: str, w: Words) -> int | None:
    text = text.strip()
    if not NUMBER.fullmatch(text):
        form.add(w.gettext("%(box)s: %(got)s is not a whole number", box=label, got=text),
                 anchor)
        return None
    return int(text)


def _guesses(values: Mapping[str, str], form: PlayerForm, w: Words) -> list[int | str]:
    """The guesses in their boxes' places, read as the GM's grid reads a row (an empty box
    keeps its place)."""
    count = boxes_posted(values, r"g([0-9]{1,2})")
    guesses, bad = guesses_in_place([values.get(f"g{k}", "") for k in range(1, count + 1)], w)
    for k, message in bad.items():
        form.add(message, f"g{k}")
    if not guesses and not bad:
        form.add(w.gettext("Write at least one guess."), "g1")
    return guesses


def secret_form(values: Mapping[str, str], w: Words) -> FormRead:
    """The player's own secret number posted (the entry ``secret``)."""
    form = PlayerForm()
    form.kind = "secret"
    number = _number(form, values.get("secret", ""), "secret-number",
                     w.gettext("Your secret number"), w)
    return FormRead("secret", {"secret": number} if number is not None else {}, form=form,
                    values=dict(values), ok=lambda: not form.problems,
                    done="secret=1#secret", absorb=form.absorb)


def player_form(values: Mapping[str, str], data: Mapping[str, Any], w: Words) -> FormRead:
    """The player's post -> their orders for the open turn (the entry ``sent``), or their
    secret number (``secret``)."""
    kind = values.get("send", "guesses")
    if kind == "secret":
        return secret_form(values, w)
    form = PlayerForm()
    players = [p for p in data.get("players", ()) if p != data["player"]]
    body: dict[str, Any] = {}
    if kind == "list":
        listed = {}
        for index, name in enumerate(players):
            text = values.get(f"l{index}", "")
            if text.strip():
                number = _number(form, text, f"l{index}", name, w)
                if number is not None:
                    listed[name] = number
        if not listed and not form.problems:
            form.add(w.gettext("Write at least one number in the list."), "l0")
        body["list"] = listed
    else:
        body["guesses"] = _guesses(values, form, w)
    turn = values.get("turn", "").strip()
    if turn:  # anything but a number is refused by the entry, never taken as no turn
        body["turn"] = int(turn) if turn.isdigit() else turn
    form.kind = kind
    sound = body if form.problems and (body.get("guesses") or body.get("list")) else None
    return FormRead("sent", body, form=form, values=dict(values), sound=sound,
                    ok=lambda: not form.problems,
                    done=f"sent={body.get('turn', data.get('turn'))}#received", absorb=form.absorb)


def player_text(data: Mapping[str, Any], w: Words) -> str:
    """The player's page as text: the open turn's orders received, then their slips."""
    lines = [str(data.get("title") or w.gettext("What’s My Number?")), str(data["player"]), ""]
    page = player_page(data, w, {}, recent=None)
    for key in ("heading", "received", "deadline"):
        if page.context[key]:
            lines.append(str(page.context[key]))
    lines += page.context["rulings"]
    for slip in page.context["slips"]:
        lines += ["", *slip["lines"]]
    return "\n".join(lines) + "\n"
