"""Wording that takes a count in two places: a partial list's line says each count in its own
plural ("0 bonne réponse sur 1 nombre inscrit")."""

from __future__ import annotations

import pytest

from kit.games.whats_my_number import rules
from kit.games.whats_my_number.report.turn_notes import list_text
from kit.i18n import words


@pytest.mark.parametrize(("lang", "one", "four"), [
    ("en", "0 correct of 1 listed; cannot win.", "2 correct of 4 listed; cannot win."),
    ("fr", "0 bonne réponse sur 1 nombre inscrit ; ne peut pas gagner.",
     "2 bonnes réponses sur 4 nombres inscrits ; ne peut pas gagner."),
    ("es", "0 aciertos de 1 anotado; no puede ganar.", "2 aciertos de 4 anotados; no puede ganar."),
    ("ru", "0 верно из 1 названного; выиграть не может.",
     "2 верно из 4 названных; выиграть не может."),
])
def test_a_partial_lists_counts_each_take_their_plural(lang: str, one: str, four: str) -> None:
    w = words(lang)
    assert list_text(rules.ListRow("Ann", 0, True, 1), w) == one
    assert list_text(rules.ListRow("Ann", 2, True, 4), w) == four
