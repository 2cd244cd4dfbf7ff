"""What the What's My Number? pages share: the players as printed, the answers as printed,
and small layout maths."""

from __future__ import annotations

from dataclasses import dataclass

from ....fonts import isolate
from ....game import KitConfig
from ....i18n import Words, words
from ....layout.fit import fit
from ....layout.model import Text, text
from .. import rules
from ..rules.labels import player_labels

MIN_CELL_MM = 7.0  # smallest cell a pen can write a letter in
MIN_TEXT_PT = 8.0  # smallest text anyone reads
LARGE_PT = 12.0  # smallest text a player reads on a large-print form


@dataclass(frozen=True)
class Person:
    """A player as the pages print them: a letter (A ... Z, AA ...) and maybe a name."""

    index: int
    letter: str
    name: str = ""

    @property
    def text(self) -> str:
        """"A · Ann" with a name, else "A"."""
        return f"{self.letter} · {isolate(self.name)}" if self.name else self.letter


def people(config: KitConfig) -> list[Person]:
    letters = labels(config.players, words(config.lang))
    names = list(config.names) or [""] * config.players
    return [Person(i, letter, name)
            for i, (letter, name) in enumerate(zip(letters, names, strict=True))]


def split(count: int, parts: int) -> list[tuple[int, int]]:
    """``range(count)`` cut into ``parts`` runs as equal as possible, larger runs first."""
    size, extra = divmod(count, parts)
    out, start = [], 0
    for i in range(parts):
        stop = start + size + (1 if i < extra else 0)
        out.append((start, stop))
        start = stop
    return out


# --- words every page shares ---------------------------------------------------------------------


def answer(code: str, words: Words) -> str:
    """The symbol a turn report prints for one of the engine's answers (``rules.HIGHER``,
    ``LOWER``, ``HIT``, ``NO_INFO``), in the kit's language: H, L, ✓ and X in English; the
    letters may differ in another language, the ✓ never does. Every page that prints or
    explains an answer takes it from here, so the legends and the reports always agree."""
    if code == rules.HIGHER:
        return words.pgettext("turn report: the secret is higher than the guess", "H")
    if code == rules.LOWER:
        return words.pgettext("turn report: the secret is lower than the guess", "L")
    if code == rules.NO_INFO:
        return words.pgettext("turn report: no information (own number or one already "
                              "identified)", "X")
    if code == rules.HIT:
        return rules.HIT
    if code == rules.NO_ANSWER:  # a void or ignored guess: no answer in any column
        return ""
    raise ValueError(f"not an answer of the turn report: {code!r}")


def labels(count: int, words: Words) -> list[str]:
    """The players' labels in a kit of ``words``' language: no label equals an answer mark."""
    return player_labels(count, answers(words).values())


def answers(words: Words) -> dict[str, str]:
    """Every answer's printed symbol, by the engine's code (for the prose templates)."""
    return {code: answer(code, words)
            for code in (rules.HIGHER, rules.LOWER, rules.HIT, rules.NO_INFO)}


def range_words(number_range: tuple[int, int], words: Words) -> str:
    """"1 to 50" in the kit's language."""
    return words.gettext("%(lo)s to %(hi)s", lo=number_range[0], hi=number_range[1])


def title(words: Words) -> str:
    """The game's title in the kit's language."""
    return words.gettext(rules.TITLE)


def credit(words: Words) -> str:
    """"What's My Number? — a game by Allan Stagg (2000)": the name and the year are
    placeholders, so they stay in every language."""
    # the author's name as the language writes it (Russian: in Cyrillic); English: rules.AUTHOR
    author = words.pgettext("the author of What's My Number?", "Allan Stagg")
    return words.gettext(rules.CREDIT, game=title(words), author=author, year=rules.YEAR)


def one_line(x: float, base: float, content: str, width: float, size: float,
         least: float = MIN_TEXT_PT, style: str = "regular", align: str = "left") -> list[Text]:
    """One line of text at a fixed baseline, no wider than ``width``: at ``size`` when it fits
    (as ``text`` would draw it), else shrunk down to ``least``, cut with "…" as a last resort
    (a translation may run longer than the English)."""
    fitted = fit(content, width, 1000.0, size, least, style, max_lines=1)
    return text(x, base, fitted.lines[0] if fitted.lines else "", fitted.size, style, align)
