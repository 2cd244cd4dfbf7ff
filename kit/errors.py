"""The KitError family: every problem a user can cause, with the field it concerns.

Library code raises these; only ``kit.cli`` turns them into ``Error: ...`` lines and exit codes.
User text quoted in a message goes through ``shown``: control characters escaped, long text
shortened, so an error is always one short line that cannot drive the terminal.
"""

from __future__ import annotations

import unicodedata
from collections.abc import Sequence
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from .i18n import Words

SHOWN_MAX = 60


def _escape(ch: str) -> str:
    code = ord(ch)
    if code < 0x100:
        return f"\\x{code:02x}"
    return f"\\u{code:04x}" if code < 0x10000 else f"\\U{code:08x}"


def escaped(text: str) -> str:
    """``text`` with every control, format or separator character written as an escape."""
    return "".join(_escape(ch) if ch != " " and unicodedata.category(ch)[0] in "CZ" else ch
                   for ch in text)


def shown(text: str, limit: int = SHOWN_MAX) -> str:
    """User text for a message: quoted, escaped, and cut with "…" past ``limit`` characters."""
    cut = text if len(text) <= limit else text[:limit] + "…"
    return repr(escaped(cut)).replace("\\\\", "\\")


def quoted(text: object, limit: int = SHOWN_MAX) -> str:
    """User text for a ``Msg`` value: escaped and shortened like ``shown``, without quotes (the
    message itself puts its language's quotes around it)."""
    text = str(text)
    return escaped(text if len(text) <= limit else text[:limit] + "…")


class Quote:
    """User text a message shows in quotation marks: “text” as the command line says it (its
    lines are pinned), the page language's own marks in ``Msg.text`` («text» in Spanish)."""

    def __init__(self, text: object, limit: int = SHOWN_MAX) -> None:
        self.inner = quoted(text, limit)

    def __str__(self) -> str:
        return f"“{self.inner}”"

    def __repr__(self) -> str:
        return f"Quote({self.inner!r})"

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Quote) and other.inner == self.inner

    def __hash__(self) -> int:
        return hash(self.inner)

    def text(self, words: Words) -> str:
        quote = getattr(words, "quote", None)
        return quote(self.inner) if quote is not None else str(self)


class Msg:
    """A message defined once with parameters: an English msgid (marked with ``N_`` where it is
    written) and its values, so the command line says it in English and a page in its own
    language. A value may be an ``int`` (shown in the language's digits), a ``Msg`` (translated
    in turn) or text (user text through ``quoted``, shown as it is).
    """

    def __init__(self, template: str, **values: object) -> None:
        self.template, self.values = template, values

    def __str__(self) -> str:
        return self.template % {k: str(v) for k, v in self.values.items()} if self.values \
            else self.template

    def __repr__(self) -> str:
        return f"Msg({self.template!r}, **{self.values!r})"

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Msg) and (self.template, self.values) == (other.template,
                                                                          other.values)

    def __hash__(self) -> int:
        return hash(self.template)

    def text(self, words: Words) -> str:
        """The message in ``words``' language (a ``kit.i18n.Words``)."""
        values = {k: v.text(words) if isinstance(v, Msg | Quote) else words.number(v)
                  if isinstance(v, int) and not isinstance(v, bool) else str(v)
                  for k, v in self.values.items()}
        return words.gettext(self.template, **values)


class Plural(Msg):
    """A ``Msg`` whose words depend on a count (``ngettext`` below makes one)."""

    def __init__(self, singular: str, plural: str, count: int, **values: object) -> None:
        super().__init__(singular if count == 1 else plural, num=count, **values)
        self.forms = (singular, plural)
        self.count = count

    def __repr__(self) -> str:
        return f"Plural({self.forms!r}, **{self.values!r})"

    def text(self, words: Words) -> str:
        """The message in ``words``' language, in the plural form its count takes there."""
        values = {k: v.text(words) if isinstance(v, Msg | Quote) else words.number(v)
                  if isinstance(v, int) and not isinstance(v, bool) else str(v)
                  for k, v in self.values.items()}
        return words.ngettext(*self.forms, self.count, **values)


def ngettext(singular: str, plural: str, count: int, **values: object) -> Plural:
    """A message with singular and plural forms (``%(num)s`` is the count), named like gettext's
    so ``pybabel extract`` lists both forms as one entry."""
    return Plural(singular, plural, count, **values)


def shown_path(path: object, limit: int = 200) -> str:
    """A file or folder path for a message: escaped, shortened only when very long."""
    text = escaped(str(path))
    return text if len(text) <= limit else text[:limit] + "…"


class KitError(Exception):
    """A problem with the user's input or request, reported as ``<field>: <message>``.

    ``message`` is English text, or a ``Msg`` (``said``) that pages show in their own language
    (``text``); ``message`` is then its English form.
    """

    def __init__(self, field: str | Msg, message: str | Msg) -> None:
        self.said = message if isinstance(message, Msg) else None
        self.place = field if isinstance(field, Msg) else None
        field, message = str(field), str(message)
        super().__init__(field, message)
        self.field = field
        self.message = message

    def __str__(self) -> str:
        return f"{self.field}: {self.message}"

    def text(self, words: Words | None = None) -> str:
        """The message in ``words``' language; English (``message``) without ``words`` or for a
        message that is not a ``Msg``."""
        return self.said.text(words) if self.said is not None and words is not None \
            else self.message

    def where(self, words: Words | None = None) -> str:
        """The field in ``words``' language ("tour 3, joueur Eve"); as given when not a ``Msg``."""
        return self.place.text(words) if self.place is not None and words is not None \
            else self.field

    # pickles across process pools with its class and both parts
    def __reduce__(self) -> tuple[type[KitError], tuple[object, ...]]:
        return (type(self), (self.place or self.field, self.said or self.message))


class ConfigError(KitError):
    """A config value (from a file or a flag) is missing, malformed or out of range."""


class GameLogError(KitError):
    """A game log breaks the rules (field names the turn or round and player)."""


class LayoutError(KitError):
    """A page plan cannot be laid out legibly on the chosen paper."""


class OutputError(KitError):
    """The output folder cannot be written."""


class RenderError(KitError):
    """The machine could not render a page (a full disk, say): not the user's input."""


class Problems(KitError):
    """Several problems found in one pass (a game log, a form): each is its own ``KitError``.

    The command line prints one ``Error: ...`` line per problem; the web and the JSON API show
    every one beside its field. ``field``/``message`` are the first problem's, so code that
    shows a single error still says something true.
    """

    def __init__(self, problems: Sequence[KitError]) -> None:
        found = tuple(problems)
        if not found:
            raise ValueError("Problems needs at least one problem")
        first = found[0]
        super().__init__(first.place or first.field, first.said or first.message)
        self.problems = found

    def __str__(self) -> str:
        return "\n".join(str(problem) for problem in self.problems)

    def __reduce__(self) -> tuple[type[KitError], tuple[object, ...]]:
        return (type(self), (self.problems,))
