"""What's My Number?: replay a game log under the rules and the house rulings.

House rulings (printed on the GM card and the rules sheet; ``strict=True`` makes each an error):

* Guesses beyond a player's allowance are ignored, the last ones written first; they are kept
  in the report as "ignored" rows, with no answers.
* A guess outside the range is void: it uses its slot and gets no answers, and later guesses
  keep their positions (the tie rule counts positions). A line left blank before a later guess
  (``""`` in the log) uses its slot too, and makes no row.
* A list that does not name every other player is answered with how many listed numbers are
  right; it cannot win.
* A player with no entry in a turn made no orders (the report says so).

Everything else that breaks the rules (a guess that is not a number, a list naming an unknown
player, orders after the winning turn) is an error; every error of a log is collected and
raised at once (one ``GameLogError``, or ``Problems`` for several).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from types import MappingProxyType

from ....errors import GameLogError, Msg, Problems, ngettext
from ....i18n import N_
from .model import (
    BASE_GUESSES,
    HIGHER,
    HIT,
    LOWER,
    NO_ANSWER,
    NO_INFO,
    Finisher,
    GameLog,
    GameResult,
    Guesses,
    GuessList,
    GuessRow,
    GuessStatus,
    Identification,
    ListRow,
    Orders,
    Row,
    Ruling,
    TurnReport,
    WinReason,
    allowed_guesses,
    is_int,
    join,
    order_field,
    show,
    turn_field,
)


def raise_problems(problems: Sequence[GameLogError]) -> None:
    """Raise what was found: nothing, the one error, or every error at once."""
    if len(problems) == 1:
        raise problems[0]
    if problems:
        raise Problems(list(problems))


_last: tuple[GameLog, GameResult] | None = None  # the last log played, and its result


def play(log: GameLog, *, strict: bool = False) -> GameResult:
    """Replay every turn of ``log`` under the rules and report each one.

    Rule breaks the house rulings settle are applied and recorded (``TurnReport.rulings``);
    with ``strict`` each is an error instead. Every error of the log is raised at once.
    A log is frozen, so the last one played keeps its result: checking a log and laying out
    its reports replay it once.
    """
    global _last
    last = _last  # read once: another thread (the console's server) may replace it
    if last is not None and last[0] is log and (not strict or not last[1].rulings):
        return last[1]
    result = _replay(log, strict)
    _last = (log, result)
    return result


class Progress:
    """The replay's running state after some turns: whom each player has identified (and
    when), each player's hits in the last turn played, the winning turn (None: nobody yet)
    and the last turn's report. Playing a turn changes it in place; ``copy`` keeps one to
    resume from, so checking a log one turn longer costs that turn only."""

    def __init__(self, players: Sequence[str]) -> None:
        self.identified: dict[str, dict[str, Identification]] = {p: {} for p in players}
        self.hits_last = dict.fromkeys(players, 0)
        self.won: TurnReport | None = None
        self.last: TurnReport | None = None
        self.turns = 0  # turns played, the empty ones after the win included

    def copy(self) -> Progress:
        """A copy that playing on this one leaves alone."""
        other = Progress(())
        other.identified = {label: dict(found) for label, found in self.identified.items()}
        other.hits_last = dict(self.hits_last)
        other.won, other.last, other.turns = self.won, self.last, self.turns
        return other

    def play(self, log: GameLog, orders: Mapping[str, Orders], strict: bool,
             problems: list[GameLogError]) -> TurnReport | None:
        """Play the next turn of ``log`` (its report; None for a turn after the win)."""
        self.turns += 1
        number = self.turns
        if self.won is not None:
            if orders:
                problems.append(GameLogError(turn_field(number), Msg(N_(
                    "the game was won in turn %(turn)s by %(winners)s; no orders are allowed "
                    "after that"), turn=self.won.number, winners=join(self.won.winners))))
            return None
        report = _play_turn(log, number, orders, self.identified, self.hits_last, strict,
                            problems)
        self.hits_last = dict(report.hits)
        self.last = report
        if report.winners:
            self.won = report
        return report

    def result(self, players: tuple[str, ...], reports: Sequence[TurnReport]) -> GameResult:
        """The game's result, once every turn was played on this one."""
        won, identified = self.won, self.identified
        return GameResult(
            players=players,
            turns=tuple(reports),
            winners=won.winners if won else (),
            winning_turn=won.number if won else None,
            reason=won.reason if won else None,
            identified=MappingProxyType({
                label: MappingProxyType({target: found[target] for target in players
                                         if target in found})
                for label, found in identified.items()}),
            next_allowance=MappingProxyType(
                {label: allowed_guesses(self.hits_last[label]) for label in players}),
        )


def play_on(log: GameLog, progress: Progress, strict: bool, problems: list[GameLogError],
            reports: list[TurnReport | None] | None = None) -> Progress | None:
    """Play the turns of ``log`` after those ``progress`` has played, on it (problems added
    to ``problems``; to ``reports``, each turn played: its report, None for one after the
    win); returns a copy of the progress before the last turn (None when no turn was left to
    play)."""
    before: Progress | None = None
    last = len(log.turns)
    for number in range(progress.turns + 1, last + 1):
        if number == last:
            before = progress.copy()
        report = progress.play(log, log.turns[number - 1], strict, problems)
        if reports is not None:
            reports.append(report)
    return before


def _replay(log: GameLog, strict: bool) -> GameResult:
    progress = Progress(log.players)
    reports: list[TurnReport] = []
    problems: list[GameLogError] = []
    for orders in log.turns:  # no checkpoint: a whole replay keeps nothing but its result
        report = progress.play(log, orders, strict, problems)
        if report is not None:
            reports.append(report)
    raise_problems(problems)
    return progress.result(log.players, reports)


def _guess_rows(log: GameLog, number: int, label: str, order: Guesses, allowed: int,
                found: dict[str, Identification],
                pairs: Sequence[tuple[str, int]], secret_numbers: frozenset[int]
                ) -> tuple[list[GuessRow], int, int | None]:
    """Answer a player's guesses: the rows, the hits made, and the position of the guess
    that found their last number (None if they have not found everyone). ``pairs``: each
    player and their secret, in the players' order; ``secret_numbers``: the secrets."""
    players = log.players
    lo, hi = log.range
    rows: list[GuessRow] = []
    hits = 0
    completed = None
    # No information on one's own number or on numbers already identified.
    blocked = {label, *found}
    for index, written in order.written():
        guess = int(written)  # only whole numbers get here: _check_guesses refused the rest
        status: GuessStatus = ("ignored" if index > allowed else
                               "void" if not lo <= guess <= hi else "ok")
        if status != "ok":
            rows.append(GuessRow(player=label, index=index, number=guess,
                                 cells=(NO_ANSWER,) * len(players), bonus=False, status=status))
            continue
        # each cell is how the target's secret compares with the guess, in one
        # comprehension: this is the engine's hot path (a 100-player game answers 20,000
        # cells a turn)
        cells = [NO_INFO if target in blocked else HIGHER if secret > guess else
                 LOWER if secret < guess else HIT for target, secret in pairs]
        newly_hit = [target for target, secret in pairs
                     if secret == guess and target not in blocked] \
            if guess in secret_numbers else []
        # Record hits only after the whole row, so a guess matching two players answers ✓ in
        # both columns and counts two hits.
        for target in newly_hit:
            found[target] = Identification(turn=number, guess=index)
            blocked.add(target)
        hits += len(newly_hit)
        if newly_hit and len(found) == len(players) - 1:
            completed = index
        rows.append(GuessRow(player=label, index=index, number=guess, cells=tuple(cells),
                             bonus=index > BASE_GUESSES))
    return rows, hits, completed


def finishers(players: Sequence[str], correct_lists: Sequence[str],
              completed_at: Mapping[str, int]) -> tuple[tuple[Finisher, ...],
                                                         tuple[str, ...], WinReason | None]:
    """Everyone who finished this turn, the winners and why: correct lists beat guesses;
    among guessers the earliest guess position of the last needed hit wins, equal positions
    share."""
    reason: WinReason
    if correct_lists:
        winners, reason = tuple(correct_lists), "list"
    elif completed_at:
        earliest = min(completed_at.values())
        winners = tuple(label for label in players if completed_at.get(label) == earliest)
        reason = "guesses"
    else:
        return (), (), None
    found = [Finisher(label, "list", None, label in winners) for label in correct_lists]
    found += [Finisher(label, "guesses", completed_at[label], label in winners)
              for label in players if label in completed_at]
    return tuple(found), winners, reason


def _play_turn(log: GameLog, number: int, orders: Mapping[str, Orders],
               identified: dict[str, dict[str, Identification]], hits_last: Mapping[str, int],
               strict: bool, problems: list[GameLogError]) -> TurnReport:
    """Play one turn, updating ``identified`` in place, and return its report."""
    players = log.players
    for label in orders:
        if label not in players:
            problems.append(GameLogError(order_field(number, label), Msg(N_(
                "%(name)s is not a player; players are %(players)s"), name=label,
                players=join(players))))
    allowance = {label: allowed_guesses(hits_last[label]) for label in players}
    hits = dict.fromkeys(players, 0)
    rows: list[Row] = []
    rulings: list[Ruling] = []
    correct_lists: list[str] = []
    completed_at: dict[str, int] = {}  # guessers who found their last number: guess position
    pairs = [(target, log.secrets[target]) for target in players]
    secret_numbers = frozenset(log.secrets.values())
    for label in players:
        order = orders.get(label)
        found: list[GameLogError] = []
        if order is None:
            rulings.append(Ruling(number, label, "no-orders"))
            if strict:
                found.append(GameLogError(order_field(number, label), Msg(N_(
                    "no orders; with --strict every player gives orders every turn"))))
        elif isinstance(order, Guesses):
            found, ruled = _check_guesses(log, number, label, order, allowance[label],
                                          hits_last[label], strict)
            rulings += ruled
            # Errors with no ruling are hard ones (no guesses, a guess that is no number).
            if not found or ruled:
                made, hits[label], completed = _guess_rows(
                    log, number, label, order, allowance[label], identified[label], pairs,
                    secret_numbers)
                rows += made
                if completed is not None:
                    completed_at[label] = completed
        elif isinstance(order, GuessList):
            found, ruling = _check_list(log, number, label, order, strict)
            if ruling:
                rulings.append(ruling)
            if not found or (strict and ruling and len(found) == 1):
                row = _list_row(log, label, order)
                rows.append(row)
                if not row.partial and row.correct == len(players) - 1:
                    correct_lists.append(label)
        else:
            found.append(GameLogError(order_field(number, label), Msg(N_(
                "%(got)s is not orders; give guesses or a list"), got=show(order))))
        problems += found
    done, winners, reason = finishers(players, correct_lists, completed_at)
    return TurnReport(
        number=number, rows=tuple(rows), hits=MappingProxyType(hits),
        allowance=MappingProxyType(allowance), winners=winners, reason=reason,
        no_orders=tuple(r.player for r in rulings if r.kind == "no-orders"),
        next_allowance=MappingProxyType({label: allowed_guesses(hits[label])
                                         for label in players}),
        rulings=tuple(rulings), finishers=done)


def _list_row(log: GameLog, label: str, order: GuessList) -> ListRow:
    # A list only ever reveals a count, so it identifies nobody.
    named = [target for target in order.entries if target in log.secrets and target != label]
    correct = sum(1 for target in named if log.secrets[target] == order.entries[target])
    partial = len(named) < len(log.players) - 1
    return ListRow(player=label, correct=correct, partial=partial,
                   listed=len(named) if partial else 0)


def _allowed_because(allowed: int, hits_last: int) -> Msg:
    """Why a player has ``allowed`` guesses: made for a message only (a replay checks every
    order, and nearly all are fine)."""
    return ngettext("%(num)s is allowed this turn (%(base)s + %(hits)s last turn)",
                    "%(num)s are allowed this turn (%(base)s + %(hits)s last turn)", allowed,
                    base=BASE_GUESSES, hits=ngettext("%(num)s hit", "%(num)s hits", hits_last))


def _check_guesses(log: GameLog, number: int, label: str, order: Guesses, allowed: int,
                   hits_last: int, strict: bool) -> tuple[list[GameLogError], list[Ruling]]:
    """Errors (always, or for rulings with ``strict``) and rulings for a player's guesses."""
    where = order_field(number, label)
    written = order.written()  # (a blank line keeps the later guesses' places)
    count = written[-1][0] if written else 0
    lo, hi = log.range
    if count == 0:
        return [GameLogError(where, Msg(N_("no guesses; make 1 to %(allowed)s guesses "
                                           "(%(because)s), or submit a list"),
                                        allowed=allowed,
                                        because=_allowed_because(allowed, hits_last)))], []
    errors = [GameLogError(where, Msg(N_("guess %(index)s is %(got)s, not a whole number; "
                                         "guesses are whole numbers from %(lo)s to %(hi)s"),
                                      index=index, got=show(guess), lo=lo, hi=hi))
              for index, guess in written if not is_int(guess)]
    if errors:
        return errors, []
    rulings: list[Ruling] = []
    void = [(index, guess) for index, guess in written
            if index <= allowed and not lo <= int(guess) <= hi]
    if count > allowed:
        if strict:
            errors.append(GameLogError(where, ngettext("%(num)s guess, but %(because)s",
                                                       "%(num)s guesses, but %(because)s",
                                                       count, because=_allowed_because(
                                                           allowed, hits_last))))
        extra = [(index, int(guess)) for index, guess in written if index > allowed]
        rulings.append(Ruling(number, label, "extra-guesses",
                              numbers=tuple(guess for _i, guess in extra),
                              positions=tuple(index for index, _g in extra), allowed=allowed))
    if void:
        if strict:
            errors += [GameLogError(where, Msg(N_("guess %(guess)s is outside the range %(lo)s "
                                                  "to %(hi)s"), guess=guess, lo=lo, hi=hi))
                       for _index, guess in void]
        rulings.append(Ruling(number, label, "out-of-range",
                              numbers=tuple(int(guess) for _i, guess in void),
                              positions=tuple(index for index, _g in void)))
    return errors, rulings


def _check_list(log: GameLog, number: int, label: str, order: GuessList, strict: bool
                ) -> tuple[list[GameLogError], Ruling | None]:
    """Errors (always, or for a partial list with ``strict``) and the ruling for a list."""
    where = order_field(number, label)
    others = tuple(target for target in log.players if target != label)
    rule = Msg(N_("a list names every other player exactly once (%(others)s)"),
               others=join(others))
    errors = []
    for target in order.entries:
        if target == label:
            errors.append(GameLogError(where, Msg(N_("the list names %(name)s, the player's own "
                                                     "label; %(rule)s"), name=label, rule=rule)))
        elif target not in log.players:
            errors.append(GameLogError(where, Msg(N_("the list names %(name)s, who is not a "
                                                     "player; %(rule)s"), name=target, rule=rule)))
    lo, hi = log.range
    for target in others:
        if target not in order.entries:
            continue
        value = order.entries[target]
        if not is_int(value):
            errors.append(GameLogError(where, Msg(N_(
                "the list gives %(name)s %(got)s, not a whole number; numbers are from %(lo)s to "
                "%(hi)s"), name=target, got=show(value), lo=lo, hi=hi)))
        elif not lo <= value <= hi:
            errors.append(GameLogError(where, Msg(N_(
                "the list gives %(name)s %(got)s, outside the range %(lo)s to %(hi)s"),
                name=target, got=value, lo=lo, hi=hi)))
    missing = tuple(target for target in others if target not in order.entries)
    if not missing:
        return errors, None
    if strict:
        errors.append(GameLogError(where, Msg(N_("the list is missing %(names)s; %(rule)s"),
                                          names=join(missing), rule=rule)))
    return errors, Ruling(number, label, "partial-list", missing=missing)
