"""The page language: ``?lang=xx`` when it names one of ``kit.i18n.LANGUAGES``, else the best
match of the request's ``Accept-Language``, else English; and the language switcher's links.
Shared by the site's and the console's pages and by the error pages."""

from __future__ import annotations

import re

from ..i18n import DEFAULT as DEFAULT_LANGUAGE
from ..i18n import LANGUAGES

_LANGUAGE_RANGE = re.compile(r"\s*([A-Za-z]{1,8}(?:-[A-Za-z0-9]{1,8})*|\*)\s*(?:;\s*q\s*=\s*"
                             r"([0-9](?:\.[0-9]{0,3})?))?\s*")


def accept_language(header: str | None, default: str = DEFAULT_LANGUAGE) -> str | None:
    """The best of ``LANGUAGES`` an ``Accept-Language`` header asks for; None if none fits.

    Ranges are tried by their ``q`` (highest first, in the order given among equals); a range
    matches by its primary subtag (``fr-CH`` is French), ``*`` takes ``default``; ``q=0`` and
    malformed entries are skipped.
    """
    if not header:
        return None
    ranked: list[tuple[float, int, str]] = []
    for position, part in enumerate(header[:1000].split(",")[:50]):
        found = _LANGUAGE_RANGE.fullmatch(part)
        if found is None:
            continue
        quality = float(found[2]) if found[2] is not None else 1.0
        if quality <= 0 or quality > 1:
            continue
        ranked.append((-quality, position, found[1].split("-")[0].lower()))
    for _, _, primary in sorted(ranked):
        if primary == "*":
            return default
        if primary in LANGUAGES:
            return primary
    return None


def negotiate(query: str | None, header: str | None, default: str = DEFAULT_LANGUAGE
              ) -> tuple[str, bool]:
    """The page language and whether it was asked for by ``?lang=`` (links then carry it on).

    ``query`` is the ``lang`` query parameter (used when it is one of ``LANGUAGES``),
    ``header`` the ``Accept-Language`` header; ``default`` (English, or a game's own
    language on its pages) when neither names one of ours.
    """
    chosen = (query or "").strip().lower()
    if chosen in LANGUAGES:
        return chosen, True
    return accept_language(header, default) or default, False


def language_links(current: str, query: str = "") -> list[dict[str, object]]:
    """The language switcher: each language, named in itself, as a link to the same page;
    ``query`` (a form's settings, or a result address's) is carried along; the new language
    replaces its ``lang`` (and ``ui``)."""
    keep = re.sub(r"(^|&)(lang|ui)=[^&]*", "", query).strip("&")
    return [{"code": code, "name": name, "current": code == current,
             "href": f"?{keep}&lang={code}" if keep else f"?lang={code}"}
            for code, name in LANGUAGES.items()]
