"""What a room code lets a phone do, over ``Console`` and ``joins``: ask for a free seat, learn
whether the host admitted it (and then its link), and what the host does: admit, refuse,
admit everyone who asks, close joining, hand a seat to a new phone.

The API and the pages share these; each says the refusals in its own way: a wrong or expired
code is ``NotFound`` (404, like any unknown address), a taken seat ``Closed`` (409), a name that
is not one of the game's players a ``KitError`` (422).
"""

from __future__ import annotations

from typing import Any

from ..errors import KitError, Msg
from ..game.refusals import Closed, NotFound
from ..i18n import N_
from .joins import ADMITTED, WAITING, Asked, Desk, Joins, Request, typed_code
from .service import GM, PUBLIC
from .specs import console_of
from .tokens import new_token, token_hash

NO_CODE = Msg(N_("there is no open game with that room code"))
NO_REQUEST = Msg(N_("there is no such request to join"))
TAKEN = N_("%(name)s’s seat is taken: ask the host to hand it to this phone")


def desks(service: Any) -> Joins:
    """The join desks and requests in the console's database."""
    return Joins(service.store.engine)


def players(service: Any, game_id: str) -> list[str]:
    """The game's players who have links of their own, in the game's order."""
    row = service.store.game(game_id)
    named = console_of(row.kind).token_seats
    return [name for kind, name in (named(row.public) if named else ()) if kind == "player"]


def _over(service: Any, game_id: str, who: str = PUBLIC) -> bool:
    """Whether the game has ended (its winners are known): its code expires with it. The host's
    page asks its own view (``GM``), which it has made anyway: a big game's public view is
    megabytes to make."""
    return bool(service.view(game_id, who).data.get("winners"))


def game_of(service: Any, text: str) -> tuple[str, bool]:
    """The game a typed room code opens, and whether it admits everyone; ``NotFound`` for a
    wrong, closed or expired code."""
    code = typed_code(text)
    found = desks(service).game_of(code) if code else None
    if found is None:
        raise NotFound("code", NO_CODE)
    if _over(service, found[0]):
        desks(service).expire(found[0])
        raise NotFound("code", NO_CODE)
    return found


def free_seats(service: Any, game_id: str) -> list[str]:
    """The players no admitted phone holds yet."""
    taken = desks(service).taken(game_id)
    return [name for name in players(service, game_id) if name not in taken]


def ask(service: Any, text: str, name: object) -> tuple[str, str]:
    """A phone's request for the seat ``name`` of the game whose code is ``text``: (game id,
    the request's secret)."""
    game_id, _ = game_of(service, text)
    if not isinstance(name, str) or name not in players(service, game_id):
        raise KitError("name", Msg(N_("choose your name from the game’s players")))
    if name not in free_seats(service, game_id):
        raise Closed("name", Msg(TAKEN, name=name))
    secret = desks(service).ask(game_id, name)
    service.store.events.moved(game_id, 0)  # the host's open pages hear of it (this server's)
    return game_id, secret


def request(service: Any, secret: str) -> Request:
    """A phone's request by its secret; ``NotFound`` for any other id."""
    found = desks(service).request(secret)
    if found is None:
        raise NotFound("request", NO_REQUEST)
    return found


def _seat_token(service: Any, game_id: str, gm_token: str, seat: str) -> str:
    """The seat's current token, opened from its sealed link; a new one (sealed again) when
    the GM token opens none."""
    opened = service.sealed.opened(game_id, gm_token, "player")
    if seat in opened:
        return opened[seat]
    token = new_token()
    service.store.set_seat_hash(game_id, ("player", seat), token_hash(token))
    service.sealed.sealed_again(game_id, gm_token, {("player", seat): token})
    return token


def settle(service: Any, game_id: str, handle: str, gm_token: str, admit: bool) -> Asked:
    """The host's answer to a waiting request: admit it (its phone gets the seat's link) or
    refuse it. A seat another phone holds is not given twice (``Closed``)."""
    waiting = {a.handle: a for a in desks(service).asked(game_id) if a.status == WAITING}
    asked = waiting.get(handle)
    if asked is None:
        raise NotFound("request", NO_REQUEST)
    if admit and asked.seat in desks(service).taken(game_id):
        raise Closed("request", Msg(TAKEN, name=asked.seat))
    token = _seat_token(service, game_id, gm_token, asked.seat) if admit else None
    settled = desks(service).settle(game_id, handle, token)
    if settled is None:
        raise NotFound("request", NO_REQUEST)
    service.store.events.moved(game_id, 0)
    return settled


def admit_waiting(service: Any, game_id: str, gm_token: str) -> int:
    """With "admit everyone" on, admit every waiting request whose seat is free (the first
    asking phone a seat); returns how many were admitted."""
    desk = desks(service).desk(game_id, gm_token)
    if desk is None or not desk.admit_all:
        return 0
    done = 0
    for asked in desks(service).asked(game_id):
        if asked.status == WAITING and asked.seat not in desks(service).taken(game_id):
            settle(service, game_id, asked.handle, gm_token, True)
            done += 1
    return done


def host_view(service: Any, game_id: str, gm_token: str) -> dict[str, Any]:
    """What the host sees of joining: the code, open or not, admit everyone or not, and the
    requests (waiting first). Empty for a game whose players have no links."""
    if not players(service, game_id):
        return {}
    admit_waiting(service, game_id, gm_token)
    desk: Desk = desks(service).ensure_desk(game_id, gm_token) if not _over(
        service, game_id, GM) else Desk(None, False, False)
    asked = desks(service).asked(game_id)
    return {"code": desk.code, "open": desk.open, "admit_all": desk.admit_all,
            "requests": [{"request": a.handle, "name": a.seat, "status": a.status}
                         for a in sorted(asked, key=lambda a: a.status != WAITING)],
            "taken": sorted(n for n in {a.seat for a in asked if a.status == ADMITTED})}


def hand_over(service: Any, game_id: str, seat: str) -> None:
    """The host gave ``seat`` a new link: the phones that held it hold it no more."""
    desks(service).release(game_id, seat)
