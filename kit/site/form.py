"""The custom-kit form: its fields, its settings URL, and checking what a host sent.

The form is built from the option declarations (``kit.registry.all_options``:
``kit.options.COMMON`` plus each game's own), so a new option is a form field by itself; its
parameter type picks the widget (``IntRange``: a number input with its bounds, ``Choice``: a
select, ``Flag``: a checkbox, ``Names``: a textarea, anything else: a text input). Its label
and help come from ``LABELS`` and ``HELP`` (translated), else from the option's key and its CLI
help (English). ``out`` (a ``Folder``) is never a field: the server decides where files go.

Every state of the form is a URL: ``/custom?game=<game>&names=Ann,Bob,Cy&paper=letter``
(``settings_query``), whose parameters are the config keys; ``values_from_query`` fills the
form in from it. ``check`` finds every problem of a submitted form at once (``Problems``), in
messages defined once (``kit.errors.Msg``) that the page shows in its own language.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from functools import cache
from urllib.parse import urlencode

from ..config import KitConfig, resolve
from ..errors import ConfigError, KitError, Msg, Problems, Quote, quoted
from ..i18n import DEFAULT as DEFAULT_LANGUAGE
from ..i18n import LANGUAGES, N_, Words, words
from ..options import (
    NAME_MAX,
    Choice,
    Flag,
    Folder,
    IntRange,
    Names,
    NumberRange,
    Option,
    Text,
    split_names,
)
from ..paper import PAPERS, paper_label
from .kits import document_label

WEB_MAX_PLAYERS = 120  # one request may not ask for an unbounded render; bigger: several kits

LABELS = {
    "game": N_("Game"),
    "players": N_("Number of players"),
    "names": N_("Player names"),
    "paper": N_("Paper"),
    "range": N_("Custom number range"),
    "title": N_("Event title"),
    "date": N_("Event date"),
    "tables": N_("Tables"),
    "shuffle": N_("Shuffle the seating"),
    "lang": N_("Kit language"),
    "large_print": N_("Large print"),
    "rounds": N_("Rounds"),
    "spare_slips": N_("Spare slips"),
    "cooperative": N_("Cooperative"),
    "sudden_death_announced": N_("Sudden death announced"),
    "host_plays": N_("Host plays"),
    "turns": N_("Turns"),
}
HELP = {
    "game": N_("Which game the kit is for."),
    "players": N_("A whole number: %(limits)s. Leave empty for the game’s own default."),
    "names": N_("Names separated by new lines or commas, 1 to %(max)s characters each. Names "
                "set the number of players and are printed on the slips."),
    "paper": N_("Paper size."),
    "range": N_("Two whole numbers LO-HI, e.g. 1-20. Leave empty for the game’s own range: a "
                "custom range changes the odds the rules were tuned for."),
    "title": N_("Event title printed small on every page (up to %(max)s characters)."),
    "date": N_("Event date printed small on every page, as you write it (up to %(max)s "
               "characters)."),
    "tables": N_("Split the party over exactly this many tables (default: the fewest that fit, "
                 "for games with a per-table limit)."),
    "shuffle": N_("Seat the named players at tables in a shuffled order instead of the order "
                  "given (the same names give the same seating)."),
    "lang": N_("The language every page of the kit is written in."),
    "large_print": N_("Rules and instructions at 12 pt or more, bigger boxes and fewer slips "
                      "a page: for readers who find small print hard."),
    "rounds": N_("Rounds in the game (%(lo)s to %(hi)s)."),
    "spare_slips": N_("Spare slips for replayed rounds, 0 to three rounds' worth (default: one "
                      "round's worth, one per player)."),
    "cooperative": N_("Print the cooperative variant (no scores; aim for exactly one single "
                      "each round)."),
    "sudden_death_announced": N_("A sudden-death round was announced before round one: print "
                                 "its rule."),
    "host_plays": N_("The host plays too: print how the host locks their own slip first."),
    "turns": N_("Turns to print order forms and report grids for (%(lo)s to %(hi)s)."),
}
RANGE_WARNING = N_("a custom range changes the odds the rules were tuned for. It is printed on "
                   "every player page; announce it before the first round.")
SPLIT_NOTE = N_("%(game)s seats %(lo)s to %(hi)s players at a table: with more players or "
                "names, the party is split over tables of nearly equal size (13 players: 7 and "
                "6), and the result page lists who sits where.")
# Regions that print on US Letter; everywhere else uses A4.
LETTER_REGIONS = frozenset({"US", "CA", "MX", "PH", "CL", "CO", "VE", "CR", "GT", "PA", "PR",
                            "SV", "DO", "NI", "HN", "BZ", "BO"})
SETTINGS_KEYS_SKIPPED = ("out",)


def game_title(name: str, w: Words) -> str:
    from ..registry import GAMES

    spec = GAMES.get(name)
    return w.gettext(spec.title) if spec else name


def regional_paper(header: str | None) -> str:
    """'letter' when the first language range of ``Accept-Language`` names a region that prints
    on US Letter (``en-US``, ``es-MX``, ``fr-CA``, ...), else 'a4'."""
    for part in (header or "")[:1000].split(",")[:50]:
        tag = part.split(";")[0].strip()
        subtags = tag.split("-")[1:]
        region = next((s.upper() for s in subtags if len(s) == 2 and s.isalpha()), None)
        if region is not None:
            return "letter" if region in LETTER_REGIONS else "a4"
    return "a4"


def papers_in_order(first: str) -> list[str]:
    """Every paper, ``first`` first (the one the host's region prints on)."""
    return sorted(PAPERS, key=lambda p: p != first)


# --- fields -----------------------------------------------------------------------------------

def form_options() -> list[tuple[Option, tuple[str, ...]]]:
    """Every option but the output folder, with the games it belongs to (empty: all)."""
    from ..registry import all_options

    return [(o, games) for o, games in all_options() if not isinstance(o.type, Folder)]


def players_limits(game: str) -> tuple[int, int]:
    """The counts the web form makes kits for: the game's least to its most (a game that splits
    big parties over tables: up to ``WEB_MAX_PLAYERS``)."""
    from ..registry import GAMES

    spec = GAMES[game]
    top = spec.max_players
    if top is None or spec.splits_large_parties:
        return spec.min_players, WEB_MAX_PLAYERS
    return spec.min_players, min(top, WEB_MAX_PLAYERS)


def widget(option: Option, w: Words | None = None) -> dict[str, object]:
    """The input for an option, from its parameter type (choices shown in ``w``'s words)."""
    w = w or words()
    kind = option.type
    if isinstance(kind, Flag) or option.key == "shuffle":
        return {"widget": "checkbox"}
    if isinstance(kind, Choice):
        if option.key == "paper":
            labels = {p: paper_label(p, w) for p in PAPERS}
        elif option.key == "lang":
            labels = dict(LANGUAGES)  # each language named in itself
        else:
            labels = {}
        return {"widget": "select", "choices": [(c, labels.get(c, c)) for c in kind.choices]}
    if isinstance(kind, Names):
        return {"widget": "textarea"}
    if isinstance(kind, IntRange):
        top = min(kind.hi, WEB_MAX_PLAYERS) if option.key == "players" else kind.hi
        return {"widget": "number", "min": kind.lo, "max": top}
    return {"widget": "text"}  # a Text's length is checked, never cut (no maxlength)


def default_text(option: Option) -> str:
    if isinstance(option.type, Flag) or option.default in (None, "", ()):
        return ""
    return str(option.default)


def field_label(option_key: str, w: Words) -> str:
    if option_key in LABELS:
        return w.gettext(LABELS[option_key])
    return option_key.replace("_", " ").capitalize()


def _players_help(w: Words) -> str:
    from ..registry import GAMES

    parts = [w.gettext("%(game)s: %(lo)s to %(hi)s", game=game_title(name, w),
                       lo=w.number(players_limits(name)[0]), hi=w.number(players_limits(name)[1]))
             for name in GAMES]
    return w.gettext(HELP["players"], limits=w.semicolon.join(parts))


def field_help(option: Option, w: Words) -> str:
    """The field's help: ``HELP``'s, translated, with the option's own bounds; else the CLI's
    help (English), as a sentence."""
    if option.key == "players":
        return _players_help(w)
    if option.key not in HELP:
        return option.help[:1].upper() + option.help[1:] + "."
    kind = option.type
    values: dict[str, object] = {}
    if isinstance(kind, IntRange):
        values.update(lo=w.number(kind.lo), hi=w.number(kind.hi))
    if isinstance(kind, Text):
        values["max"] = w.number(kind.limit)
    if option.key == "names":
        values["max"] = w.number(NAME_MAX)
    return w.gettext(HELP[option.key], **values)


def split_notes(w: Words) -> list[str]:
    """The note beside the player fields: how a game splits a big party over tables."""
    from ..registry import GAMES

    return [w.gettext(SPLIT_NOTE, game=game_title(name, w), lo=w.number(spec.min_players),
                      hi=w.number(spec.max_players))
            for name, spec in GAMES.items()
            if spec.splits_large_parties and spec.max_players is not None]


@cache
def form_formats(w: Words | None = None) -> list[tuple[str, str]]:
    """What to download: the player kit PDF first (the default), the other documents any game
    makes, then the zip; labelled in ``w``'s words (default English)."""
    from ..registry import GAMES

    w = w or words()
    stems: dict[str, str] = {}
    for name, spec in GAMES.items():
        try:
            plan = spec.plan(resolve({"game": name}))
        except KitError:  # a game whose defaults do not plan still gets the zip choice
            continue
        for document in plan.documents:
            stems.setdefault(document.stem, document_label(document.stem, w))
    order = sorted(stems, key=lambda s: (s != "player-kit", s == "host-answers"))
    texts = {"player-kit": N_("%(document)s (PDF): the pages to print for the table"),
             "host-answers": N_("%(document)s (PDF): for the host only")}
    return [(s, w.gettext(texts.get(s, "%(document)s (PDF)"), document=stems[s]))
            for s in order] + [
        ("zip", w.gettext("The whole kit folder (.zip): PDFs, HTML and fonts"))]


DEFAULT_FORMAT = "player-kit"


def _field(option: Option, values: Mapping[str, str], error: str, w: Words,
           defaults: Mapping[str, str]) -> dict[str, object]:
    shape = widget(option, w)
    checkbox = shape["widget"] == "checkbox"
    if option.key in values:
        value: object = values[option.key]
        if checkbox:
            value = str(value).strip().lower() not in ("", "false", "off", "no")
    else:
        value = False if checkbox else defaults.get(option.key, default_text(option))
    given = str(values.get(option.key, "")).strip()
    checked_value = given if option.key == "shuffle" and given.isdigit() else (
        "1" if option.key == "shuffle" else "true")
    warning = isinstance(option.type, NumberRange) and bool(given)
    return {"choices": [], **shape, "key": option.key, "id": f"f-{option.key}",
            "label": field_label(option.key, w), "help": field_help(option, w),
            "notes": split_notes(w) if option.key == "names" else [],
            "warning": w.gettext(RANGE_WARNING) if warning else "",
            "value": value, "checked_value": checked_value, "error": error}


def _game_field(values: Mapping[str, str], error: str, w: Words) -> dict[str, object]:
    from ..registry import GAMES

    return {"key": "game", "id": "f-game", "widget": "select", "label": w.gettext(LABELS["game"]),
            "choices": [(name, game_title(name, w)) for name in GAMES], "notes": [],
            "help": w.gettext(HELP["game"]), "warning": "", "checked_value": "",
            "value": values.get("game", ""), "error": error}


def problems_of(errors: Iterable[KitError]) -> list[KitError]:
    """Each problem on its own (a ``Problems`` opened up)."""
    found: list[KitError] = []
    for error in errors:
        found += list(error.problems) if isinstance(error, Problems) else [error]
    return found


def build_form(values: Mapping[str, str] | None = None, errors: Iterable[KitError] = (),
               format_error: str = "", lang: str = DEFAULT_LANGUAGE,
               paper: str = "a4") -> dict[str, object]:
    """The form's fields, one per option (but ``out``), grouped by the games they belong to,
    in ``lang`` (the page language, also the kit language the form offers first); ``paper``
    is the paper it offers first (the host's region's).

    Every error is shown beside its field and in the summary as "<label>: <message>", both in
    ``lang``.
    """
    from ..registry import GAMES

    w = words(lang)
    values = dict(values or {})
    errors = problems_of(errors)
    by_field: dict[str, str] = {}
    for error in errors:
        if error.field not in by_field:
            by_field[error.field] = error.text(w)
        else:
            by_field[error.field] += " " + error.text(w)
    groups: dict[tuple[str, ...], list[dict[str, object]]] = {
        (): [_game_field(values, by_field.get("game", ""), w)]}
    for option, games in form_options():
        groups.setdefault(games, []).append(_field(option, values, by_field.get(option.key, ""),
                                                   w, {"lang": lang, "paper": paper}))
    legend_groups = []
    for games, fields in groups.items():
        if not games:
            legend, note = w.gettext("Your game"), ""
        else:
            titles = [game_title(g, w) for g in games if g in GAMES]
            legend = w.gettext("Only for %(games)s", games=w.join(titles) or ", ".join(games))
            note = w.gettext("Ignored for other games unless changed.")
        legend_groups.append({"legend": legend, "note": note, "fields": fields})
    keys = {"game"} | {o.key for o, _ in form_options()}
    summary = [{"text": w.gettext("%(field)s: %(problem)s", field=field_label(e.field, w),
                                  problem=e.text(w)),
                "anchor": f"f-{e.field}" if e.field in keys else ""} for e in errors]
    formats = list(form_formats(w))
    if format_error:
        summary.append({"text": w.gettext("%(field)s: %(problem)s",
                                          field=w.gettext("What to download"),
                                          problem=format_error),
                        "anchor": f"f-format-{formats[0][0]}"})
    chosen = values.get("format", DEFAULT_FORMAT)
    return {"groups": legend_groups, "errors": summary, "formats": formats,
            "format": chosen if chosen in dict(formats) else DEFAULT_FORMAT,
            "format_error": format_error}


# --- the form's values: from a POST, from a URL, as a URL -------------------------------------

def raw_from_form(values: Mapping[str, str]) -> dict[str, object]:
    """Form values -> the raw settings ``resolve`` takes, as the CLI would pass them.

    Empty fields are left out (the game's default applies); names are separated by new lines
    or commas, as the command line's ``--names`` and the URL's ``names=`` do; an option
    of another game is left out while it still shows its default, and passed on (so ``resolve``
    names the problem) once changed.
    """
    game = values.get("game", "").strip()
    raw: dict[str, object] = {"game": game} if "game" in values else {}  # "": as the CLI says
    for option, games in form_options():
        text = values.get(option.key, "")
        if isinstance(option.type, Flag):
            if text == "":
                continue
            value: object = "true" if text.lower() in ("true", "on", "yes") else text
        elif isinstance(option.type, Names):
            value = split_names(text)
            if not value:
                continue
        else:
            value = text.strip()
            if value == "":
                continue
        if games and game not in games and value == default_text(option):
            continue  # another game's option, untouched
        raw[option.key] = value
    return raw


def values_from_query(query: Mapping[str, str]) -> dict[str, str]:
    """A settings URL's parameters -> the form's values: names given comma-separated (or one
    per line) become one per line; anything that is not a field is left out."""
    keys = {"game", "format"} | {o.key for o, _ in form_options()}
    values = {k: str(v)[:20000] for k, v in query.items() if k in keys}
    if "names" in values:
        values["names"] = "\n".join(split_names(values["names"]))
    return values


def settings_query(values: Mapping[str, str], format_: str = "") -> str:
    """The form's values as a query string of config keys (``game=...&names=Ann,Bob``): the
    fields a host filled in or changed, so the URL refills the form."""
    options = dict(form_options())
    pairs: list[tuple[str, str]] = []
    if values.get("game"):
        pairs.append(("game", values["game"].strip()))
    for option in options:
        text = str(values.get(option.key, "")).strip()
        if isinstance(option.type, Names):
            names = [n.strip() for n in text.splitlines() if n.strip()]
            joiner = "\n" if any("," in n for n in names) else ","
            text = joiner.join(names)
        if isinstance(option.type, Flag):
            text = "true" if text.lower() in ("true", "on", "yes") else ""
        if text and (text != default_text(option) or option.key == "lang"):
            pairs.append((option.key, text))
    if format_ and format_ != DEFAULT_FORMAT:
        pairs.append(("format", format_))
    return urlencode(pairs)


SETTINGS_URL_MAX = 6 * 1024  # a settings URL stays well under the server's 8 KB query cap


def url_settings(values: Mapping[str, str], format_: str = "") -> str:
    """``settings_query`` for a URL: without the names when they make it too long (120 long
    names in Cyrillic, say); the result page then edits the settings by a form instead."""
    query = settings_query(values, format_)
    if len(query) <= SETTINGS_URL_MAX:
        return query
    return settings_query({k: v for k, v in values.items() if k != "names"}, format_)


def config_values(config: KitConfig) -> dict[str, str]:
    """A kit's settings as form values (what a host would type to get it again)."""
    from ..registry import game_spec

    values = {"game": config.game, "paper": config.paper, "lang": config.lang,
              "title": config.title, "date": config.date}
    if config.names:
        values["names"] = "\n".join(config.names)
    else:
        values["players"] = str(config.players)
    if config.custom_range:
        values["range"] = f"{config.range[0]}-{config.range[1]}"
    if config.tables is not None:
        values["tables"] = str(config.tables)
    if config.shuffle is not None:
        values["shuffle"] = str(config.shuffle)
    if config.large_print:
        values["large_print"] = "true"
    for option in game_spec(config.game).options:
        value = getattr(config.settings, option.key, None)
        if value is not None and value is not False:
            values[option.key] = "true" if value is True else str(value)
    return {k: v for k, v in values.items() if v != ""}


# --- checking a submitted form ----------------------------------------------------------------

def _players_problem(game: str, given: object) -> ConfigError:
    from ..registry import GAMES

    lo, hi = players_limits(game)
    got = Quote(given) if isinstance(given, str) else str(given)
    spec = GAMES[game]
    too_many = isinstance(given, int) or (isinstance(given, str) and given.strip().isdigit()
                                          and int(given) > hi)
    if spec.splits_large_parties and spec.max_players is not None and too_many:
        return ConfigError("players", Msg(N_(
            "%(game)s kits made here are for up to %(hi)s players; got %(got)s. For a bigger "
            "party, make one kit for each group of up to %(hi)s players"),
            game=Msg(spec.title), hi=hi, got=got))
    if spec.splits_large_parties and spec.max_players is not None:
        return ConfigError("players", Msg(N_(
            "%(game)s kits made here are for %(lo)s to %(hi)s players (more than %(table)s play "
            "at separate tables); got %(got)s"), game=Msg(spec.title), lo=lo, hi=hi,
            table=spec.max_players, got=got))
    return ConfigError("players", Msg(N_("%(game)s kits are made for %(lo)s to %(hi)s players; "
                                         "got %(got)s"), game=Msg(spec.title), lo=lo, hi=hi,
                                      got=got))


def _field_problems(raw: dict[str, object]) -> list[KitError]:
    """Each field checked on its own (a field with a problem is taken out of ``raw``)."""
    game = str(raw.get("game", ""))
    found: list[KitError] = []
    for option, _games in form_options():
        if option.key not in raw:
            continue
        try:
            value = option.convert(raw[option.key])
        except ConfigError as exc:
            found.append(_players_problem(game, raw[option.key]) if option.key == "players"
                         else exc)
            del raw[option.key]
            continue
        if option.key == "players":
            lo, hi = players_limits(game)
            if not lo <= int(value) <= hi:
                found.append(_players_problem(game, raw[option.key]))
                del raw[option.key]
    names = raw.get("names")
    if isinstance(names, list) and len(names) > WEB_MAX_PLAYERS:
        found.append(ConfigError("names", Msg(N_(
            "%(count)s names given; kits made here are for up to %(max)s players. For a bigger "
            "party, make one kit for each group of up to %(max)s"), count=len(names),
            max=WEB_MAX_PLAYERS)))
        del raw["names"]
    return found


def check(values: Mapping[str, str]) -> KitConfig:
    """A submitted form -> its ``KitConfig``, or ``Problems`` with every problem found: each
    field on its own, then (for the fields that passed) how they fit together."""
    from ..registry import GAMES

    raw = raw_from_form(values)
    if str(raw.get("game", "")) not in GAMES:
        try:
            return resolve(raw, "the form")  # the game's own error
        except KitError as exc:
            raise Problems([exc]) from None
    found = _field_problems(raw)
    try:
        config = resolve(raw, "the form")
    except KitError as exc:
        config = None
        if exc.field == "players" and "names" in raw:
            exc = ConfigError("names", exc.said or exc.message)  # the names set the count
        if exc.field not in {e.field for e in found}:
            found.append(exc)
    if config is not None and config.players > WEB_MAX_PLAYERS and not found:
        problem = _players_problem(config.game, config.players)
        found.append(ConfigError("names", problem.said or problem.message) if config.names
                     else problem)
    if found or config is None:
        order = ["game"] + [o.key for o, _ in form_options()]
        found.sort(key=lambda e: order.index(e.field) if e.field in order else len(order))
        raise Problems(found)
    return config


def format_problem(chosen: str, w: Words) -> str:
    return w.gettext("choose one of the downloads listed; “%(got)s” is not one of them",
                     got=quoted(chosen, 30))
