"""The kit's languages: gettext catalogs (managed with Babel) and the language's formats.

Every word a page prints goes through a ``Words``: its ``gettext``, ``ngettext`` and
``pgettext`` translate, with ``%(name)s`` placeholders filled from keyword arguments (the style
Jinja2's i18n extension uses, so Python and templates share one catalog); its formats follow
the language (numbers, percentages, "A, B and C"). English is the source language: its text is
the msgid itself.

Catalogs live in ``kit/locale/<lang>/LC_MESSAGES/messages.po``. Building the wheel compiles
each beside it, named by the digest of the .po it came from (``compile_catalogs``); a language
whose compiled file is missing or older is compiled with Babel when first used, so none goes
stale. To work on them (CONTRIBUTING.md)::

    pybabel extract -F babel.cfg -k N_ --no-location -o kit/locale/messages.pot .
    pybabel update -i kit/locale/messages.pot -d kit/locale --ignore-obsolete
    pybabel compile -d kit/locale --statistics   # checks them (the kit compiles its own)
    msgfmt --check -o /dev/null kit/locale/fr/LC_MESSAGES/messages.po   # GNU tools read them too
"""

from __future__ import annotations

import hashlib
import io
from collections.abc import Sequence
from dataclasses import dataclass
from functools import cache
from gettext import GNUTranslations, NullTranslations
from pathlib import Path

LANGUAGES: dict[str, str] = {
    "en": "English",
    "fr": "Français",
    "de": "Deutsch",
    "es": "Español",
    "ru": "Русский",
}
DEFAULT = "en"
LOCALES = {"en": "en_GB"}  # Babel's locale for a language: British lists ("A, B and C")
# quotation marks (Babel has no CLDR delimiters): a title set inside a sentence is quoted
QUOTES = {"en": ("“", "”"), "fr": ("«\u00a0", "\u00a0»"), "de": ("„", "“"), "es": ("«", "»"),
          "ru": ("«", "»")}
# languages that write the word after a colon in lower case (French, Spanish, Russian); after
# a semicolon German does too (English keeps the reference's capitals: "1 page; No orders")
LOWER_AFTER_COLON = frozenset(("fr", "es", "ru"))
LOWER_AFTER_SEMICOLON = LOWER_AFTER_COLON | {"de"}
CATALOGS = Path(__file__).parent / "locale"


def catalog_path(lang: str) -> Path:
    return CATALOGS / lang / "LC_MESSAGES" / "messages.po"


def compiled_path(lang: str, po: bytes) -> Path:
    """Where the catalog compiled from the .po bytes ``po`` is kept, named by their digest: a
    compiled file never answers for a catalog edited since."""
    return catalog_path(lang).with_name(f"messages-{hashlib.sha256(po).hexdigest()[:16]}.mo")


def _compile(lang: str, po: bytes) -> bytes:
    """The .mo bytes of a catalog: its translated, not fuzzy messages."""
    from babel.messages.mofile import write_mo
    from babel.messages.pofile import read_po

    compiled = io.BytesIO()
    write_mo(compiled, read_po(io.BytesIO(po), locale=lang), use_fuzzy=False)
    return compiled.getvalue()


def compile_catalogs() -> list[Path]:
    """Compile every catalog beside its .po file (the wheel's build does), removing the ones
    compiled from an older .po; returns the compiled files."""
    written = []
    for lang in LANGUAGES:
        if lang == DEFAULT or not catalog_path(lang).exists():
            continue
        po = catalog_path(lang).read_bytes()
        target = compiled_path(lang, po)
        for old in target.parent.glob("messages-*.mo"):
            if old != target:
                old.unlink()
        if not target.exists():
            partial = target.with_suffix(".part")
            partial.write_bytes(_compile(lang, po))
            partial.replace(target)
        written.append(target)
    return written


@cache
def _translations(lang: str) -> NullTranslations:
    """The catalog of ``lang`` (English: no catalog, the msgids are the text): compiled when
    the package was built, else compiled now (a tenth of a second a language)."""
    if lang == DEFAULT or not catalog_path(lang).exists():
        return NullTranslations()
    po = catalog_path(lang).read_bytes()
    compiled = compiled_path(lang, po)
    mo = compiled.read_bytes() if compiled.exists() else _compile(lang, po)
    return GNUTranslations(io.BytesIO(mo))


def _fill(text: str, values: dict[str, object]) -> str:
    return text % values if values else text


@dataclass(frozen=True)
class Words:
    """A language's words and formats."""

    lang: str = DEFAULT

    @property
    def locale(self) -> str:
        return LOCALES.get(self.lang, self.lang)

    @property
    def translations(self) -> NullTranslations:
        return _translations(self.lang)

    def gettext(self, message: str, **values: object) -> str:
        return _fill(self.translations.gettext(message), values)

    def ngettext(self, singular: str, plural: str, n: int, **values: object) -> str:
        return _fill(self.translations.ngettext(singular, plural, n), {"num": n, **values})

    def pgettext(self, context: str, message: str, **values: object) -> str:
        return _fill(self.translations.pgettext(context, message), values)

    def number(self, value: float) -> str:
        from babel.numbers import format_decimal

        return format_decimal(value, locale=self.locale)

    def percent(self, value: float, digits: int = 2) -> str:
        from babel import Locale
        from babel.numbers import format_percent

        # the language's own pattern (a space before % in French, German, ...), with our digits
        pattern = Locale.parse(self.locale).percent_formats[None].pattern
        return format_percent(value, pattern.replace("0%", "0." + "0" * digits + "%").replace(
            "0\xa0%", "0." + "0" * digits + "\xa0%"), locale=self.locale)

    def quote(self, title: str) -> str:
        """A title (a game's name) quoted as the language quotes inside a sentence."""
        start, end = QUOTES.get(self.lang, QUOTES[DEFAULT])
        return f"{start}{title}{end}"

    @property
    def semicolon(self) -> str:
        """The separator between list items that contain commas: "; " (French: " ; ")."""
        return "\u00a0; " if self.lang == "fr" else "; "

    def numbers(self, values: Sequence[object], compact: bool = False) -> str:
        """Whole numbers in a row, e.g. picks "1, 1, 2, 3": where the comma is the decimal mark
        (French, German, Spanish, Russian) "1, 1" would read as 1.1, so they go by semicolons
        (``compact``: by spaces, "1 1 2 3")."""
        from babel.numbers import get_decimal_symbol

        items = [str(v) for v in values]
        if get_decimal_symbol(self.locale) != ",":
            return ("," if compact else ", ").join(items)
        return (" " if compact else self.semicolon).join(items)

    def after_colon(self, text: str) -> str:
        """Translated ``text`` as it follows a colon: its capital first word in lower case where
        the language writes it so (French, Spanish, Russian). Never give it a bare name first
        (a name inside a sentence goes through ``|bdi``, which starts with a mark)."""
        if (self.lang in LOWER_AFTER_COLON and len(text) > 1 and text[0].isupper()
                and text[1].islower()):
            return text[0].lower() + text[1:]
        return text

    def after_semicolon(self, text: str) -> str:
        """Translated ``text`` as it follows a semicolon: as ``after_colon``, and in German
        too ("1 Seite; nichts abgegeben: Clara"). Never give it a noun first: German keeps
        its capitals."""
        if self.lang in LOWER_AFTER_SEMICOLON:
            return Words("fr").after_colon(text)
        return text

    def join(self, items: Sequence[str]) -> str:
        """"A, B and C" in the language's own way."""
        from babel.lists import format_list

        return format_list(list(items), locale=self.locale) if items else ""


@cache
def words(lang: str = DEFAULT) -> Words:
    return Words(lang)


def N_(message: str) -> str:  # noqa: N802 - the gettext convention for "translate later"
    """Marks a message for the catalog where it is defined; it is translated where shown."""
    return message
