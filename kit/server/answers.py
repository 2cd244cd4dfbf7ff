"""How ``kit serve`` answers what goes wrong, in the page's language: a problem page (or JSON
on the API), 503 with ``Retry-After`` when the database or the render line cannot take more
just now, 408 for a form too slow, 404/405, and 500 for anything else (logged)."""

from __future__ import annotations

import errno
import logging
from typing import TypedDict

from sqlalchemy.exc import OperationalError
from sqlalchemy.exc import TimeoutError as PoolTimeout
from starlette.requests import Request
from starlette.responses import Response

from ..i18n import N_
from .guard import busy_problem, redact_path
from .http import HTTPProblem, problem_answer, problem_response
from .language import language_links, negotiate
from .pool import Busy

log = logging.getLogger("kit.web")


class PageLanguage(TypedDict):
    """A page's language, as every page template gets it (``**page_language(request)``)."""

    lang: str
    languages: list[dict[str, object]]  # the switcher's links
    keep: str  # "?lang=xx" when the language was chosen, so the site's links keep it
    home: str


def page_language(request: Request, settings: str = "") -> PageLanguage:
    """What every page gets about its language: ``lang``, the switcher, the query to keep.

    ``?ui=xx`` (a settings URL whose kit language is not the page's) or ``?lang=xx`` when it
    names a language, else ``Accept-Language``, else English. A chosen language is carried on
    to the site's other pages (home link, form, result page); the switcher keeps ``settings``
    (a form's settings query).
    """
    query = request.query_params
    lang, chosen = negotiate(query.get("ui") or query.get("lang"),
                             request.headers.get("accept-language"))
    keep = f"?lang={lang}" if chosen else ""
    return {"lang": lang, "languages": language_links(lang, settings), "keep": keep,
            "home": "/" + keep}


async def on_problem(request: Request, exc: Exception) -> Response:
    assert isinstance(exc, HTTPProblem)
    return problem_answer(request.scope, exc, **page_language(request))


def database_unavailable(exc: BaseException) -> bool:
    """Whether ``exc`` says the database cannot be used just now: SQLAlchemy's
    ``OperationalError`` (SQLite "database is locked" past the busy timeout, "database or disk is
    full", a PostgreSQL lock timeout or a lost connection), a connection pool with none free,
    or a full disk under the report files."""
    if isinstance(exc, OperationalError | PoolTimeout):
        return True
    return isinstance(exc, OSError) and exc.errno in (errno.ENOSPC, errno.EDQUOT)


async def on_unavailable(request: Request, exc: Exception) -> Response:
    """503 with ``Retry-After`` for a database that cannot be used just now (JSON on the API, a
    page elsewhere); one log line, without the statement or its values (they may hold
    secrets). Anything else is the 500 it was."""
    if not database_unavailable(exc):
        raise exc
    cause = getattr(exc, "orig", None) or exc
    log.warning("database unavailable on %s: %s: %s", redact_path(request.url.path),
                type(cause).__name__, (str(cause).splitlines() or [""])[0][:200])
    return problem_answer(request.scope, busy_problem(), **page_language(request))


async def on_busy(request: Request, exc: Exception) -> Response:
    assert isinstance(exc, Busy)
    return problem_response(HTTPProblem(exc.status, exc.heading, exc.text,
                                        {"Retry-After": str(exc.retry_after)}),
                            **page_language(request))


async def on_body_timeout(request: Request, exc: Exception) -> Response:
    return problem_response(HTTPProblem(408, N_("Form too slow"),
                                        N_("The form did not arrive in time. Please send it "
                                           "again."), {"Connection": "close"}),
                            **page_language(request))


async def on_http_error(request: Request, exc: Exception) -> Response:
    status = getattr(exc, "status_code", 404)
    text = {404: N_("There is no page here."), 405: N_("That method is not allowed here.")}
    return problem_response(HTTPProblem(status, N_("Not found") if status == 404
                                        else N_("Not allowed"),
                                        text.get(status, N_("The request could not be handled.")),
                                        getattr(exc, "headers", None)),  # 405: Allow
                            **page_language(request))


async def on_error(request: Request, exc: Exception) -> Response:
    log.exception("internal error on %s", request.url.path)
    return problem_response(HTTPProblem(500, N_("Something went wrong"),
                                        N_("The server could not make this page. Please try "
                                           "again.")), **page_language(request))
