"""Every seat's link sealed under the game master's token when it is made: a player's and a
table's scorer's alike, each bound to its game, seat and kind, opened by the GM token only,
and sealed again under a new GM token."""

from __future__ import annotations

import sqlalchemy as sa

from kit.console import sealed_links as sealed
from kit.console.service import Console
from kit.console.tokens import new_token, token_hash

TABLES = [["Ann", "Bob", "Cy"], ["Dee", "Eve", "Fay"]]


def test_a_tables_link_is_sealed_when_made_and_opens_with_the_gm_token_only(
        console: Console) -> None:
    made = console.create_game({"game": "lowest-unique", "tables": TABLES})
    tables = made.tokens("table")
    assert console.sealed.opened(made.id, made.gm_token, "table") == tables
    assert console.sealed.opened(made.id, made.gm_token, "player") == {}
    assert console.sealed.opened(made.id, tables["1"], "table") == {}
    with console.store.engine.connect() as conn:
        dump = str(conn.execute(sa.select(sealed.sealed_links)).all())
    assert not any(t in dump for t in tables.values())  # no token in the clear


def test_links_sealed_again_replace_their_copy_and_follow_a_new_gm_token(
        console: Console) -> None:
    made = console.create_game({"game": "lowest-unique", "tables": TABLES})
    fresh = new_token()
    console.sealed.sealed_again(made.id, made.gm_token, {("table", "2"): fresh})
    assert console.sealed.opened(made.id, made.gm_token, "table") == {
        "1": made.tokens("table")["1"]}  # table 2's copy no longer matches its seat
    assert console.store.set_seat_hash(made.id, ("table", "2"), token_hash(fresh))
    new_gm = new_token()
    console.sealed.gm_rotated(made.id, made.gm_token, new_gm)
    assert console.sealed.opened(made.id, new_gm, "table") == {
        "1": made.tokens("table")["1"], "2": fresh}
    assert console.sealed.opened(made.id, made.gm_token, "table") == {}
