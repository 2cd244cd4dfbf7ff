"""The Jinja2 environment of every page the server and the static site show, one per language
(autoescaped, ``StrictUndefined``, ``jinja2.ext.i18n`` with the language's catalog), reading
``templates/`` and, under "<package>/<file>", the template folders its caller names (the
registered games' own, for the console's game pages)."""

from __future__ import annotations

import threading
from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from functools import cache, lru_cache
from hashlib import blake2b
from pathlib import Path
from typing import Any

from .. import __version__
from ..i18n import DEFAULT as DEFAULT_LANGUAGE
from ..i18n import Words, words
from ..resources import templates_dir

Folders = Callable[[], Mapping[str, Path]]  # template folders by package name


def no_folders() -> Mapping[str, Path]:
    """No template folders but ``templates/``: the server's own pages (errors)."""
    return {}


class PrefixFolders(Mapping[str, Any]):
    """A loader for each of ``folders()`` by its package name, looked up when asked for (so a
    game registered later is found too)."""

    def __init__(self, folders: Folders) -> None:
        self.folders = folders

    def __getitem__(self, package: str) -> Any:
        from jinja2 import FileSystemLoader

        return FileSystemLoader(str(self.folders()[package]))

    def __iter__(self) -> Iterator[str]:
        return iter(self.folders())

    def __len__(self) -> int:
        return len(self.folders())


@cache
def site_environment(lang: str = DEFAULT_LANGUAGE, folders: Folders = no_folders) -> Any:
    """The site's templates in ``lang``: ``_``, ``ngettext``, ``pgettext``, ``{% trans %}``;
    those of ``folders`` as "<package>/<file>" (the console's game pages)."""
    from jinja2 import (
        ChoiceLoader,
        Environment,
        FileSystemLoader,
        PrefixLoader,
        StrictUndefined,
        select_autoescape,
    )

    w = words(lang)
    env = Environment(
        loader=ChoiceLoader([FileSystemLoader(str(templates_dir())),
                             PrefixLoader(PrefixFolders(folders))]),
        autoescape=select_autoescape(["html"], default_for_string=True),
        undefined=StrictUndefined, trim_blocks=True, lstrip_blocks=True,
        extensions=["jinja2.ext.i18n"],
        auto_reload=False,  # our templates do not change while we run: no stat per page
    )
    _compile_once(env)
    env.policies["ext.i18n.trimmed"] = True  # as babel.cfg extracts them
    # jinja2.ext.i18n adds this method at run time; Jinja2's types do not know it
    env.install_gettext_translations(w.translations, newstyle=True)  # type: ignore[attr-defined]
    env.filters["size"] = lambda n: human_size(n, w)
    env.filters["digest"] = digest
    env.filters["cells"] = cells
    env.globals.update(version=__version__, w=w)
    return env


def _compile_once(env: Any) -> None:
    """``env`` loads (and compiles) a template in one thread at a time: the 40 threads of a
    server that 300 phones reach at once after a publish compile each template once, not 40
    times (Jinja2 keeps what it compiled, but does not make the others wait for it)."""
    loading = threading.Lock()
    load = env._load_template

    def locked(name: Any, globals: Any) -> Any:  # noqa: A002 (Jinja2's own name)
        with loading:
            return load(name, globals)

    env._load_template = locked


def cells(values: Iterable[object]) -> Any:
    """A table row's cells, ``<td>`` each, escaped: what ``{% for %}<td>{{ c }}</td>`` makes,
    in one join (a 100-player turn report has 10,000 cells, of a few distinct values)."""
    from markupsafe import Markup

    return Markup("".join(map(_cell, values)))


@lru_cache(maxsize=1024)
def _cell(value: object) -> str:
    from markupsafe import escape

    return f"<td>{escape(value)}</td>"


def digest(text: object) -> str:
    """A short fingerprint of a part of a page (its HTML): a live page's script swaps in only
    the parts whose fingerprint changed."""
    return blake2b(str(text).encode(), digest_size=8).hexdigest()


def decimal_text(value: float, pattern: str, w: Words) -> str:
    """``value`` in the language's digits, as Babel's ``pattern`` says."""
    from babel.numbers import format_decimal

    return format_decimal(value, pattern, locale=w.locale)


def human_size(n: int, w: Words | None = None) -> str:
    """'12 KB', '1.5 MB' in the language's words and digits."""
    w = w or words()
    if n < 1024 * 1024:
        return w.gettext("%(size)s KB", size=decimal_text(round(n / 1024), "0", w))
    return w.gettext("%(size)s MB", size=decimal_text(n / 1024 / 1024, "0.0", w))


def render_page(template: str, *, folders: Folders = no_folders, root: str = "/",
                home: str = "/", lang: str = DEFAULT_LANGUAGE,
                languages: Sequence[Mapping[str, object]] = (), keep: str = "",
                **context: object) -> str:
    """A page of the site in ``lang``; ``root`` prefixes every link ('' for the static site).

    ``languages`` is the language switcher (``language_links``; none on the static site),
    ``keep`` the query that carries a chosen language on to the site's other pages.
    """
    return site_environment(lang, folders).get_template(template).render(
        root=root, home=home, lang=lang, languages=list(languages), keep=keep, **context)
