"""HTTP plumbing of ``kit serve``: security headers, pages and problems, forms and files.

Pages are in the request's language (``app.page_language``); a problem's heading and text are
English msgids (marked with ``N_``), translated when the page is made.

Every response carries a Content-Security-Policy (no scripts at all on our pages; a kit's own
HTML files get their inline CSS and nothing else), nosniff, frame, referrer and
cross-origin headers. Bad requests get a short page with a 4xx status, never a 500: a wrong
content type 415, an oversized body 413 (checked before and while reading), undecodable or
over-long forms 400.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any
from urllib.parse import parse_qsl

from starlette.requests import Request
from starlette.responses import HTMLResponse, JSONResponse, Response
from starlette.types import ASGIApp, Message, Receive, Scope, Send

from ..i18n import DEFAULT as DEFAULT_LANGUAGE
from ..i18n import N_, words
from ..tomlhelp import MAX_NESTING, nesting
from .templates import render_page

MAX_BODY = 512 * 1024  # 10,000 names of 24 characters fit, so they get a field error, not 413
MAX_FIELDS = 100

PAGE_CSP = ("default-src 'none'; style-src 'self'; img-src 'self'; font-src 'self'; "
            "form-action 'self'; base-uri 'none'; frame-ancestors 'none'")
# Kit HTML files carry their CSS inline and load fonts from beside them; nothing else.
KIT_CSP = ("default-src 'none'; style-src 'unsafe-inline'; font-src 'self'; img-src 'self' data:; "
           "form-action 'none'; base-uri 'none'; frame-ancestors 'none'")
SECURITY_HEADERS = {
    "content-security-policy": PAGE_CSP,
    "x-content-type-options": "nosniff",
    "x-frame-options": "DENY",
    "referrer-policy": "no-referrer",
    "cross-origin-opener-policy": "same-origin",
    "cross-origin-resource-policy": "same-origin",
    "permissions-policy": "camera=(), microphone=(), geolocation=()",
}
MEDIA_TYPES = {".pdf": "application/pdf", ".html": "text/html; charset=utf-8",
               ".png": "image/png", ".ttf": "font/ttf", ".txt": "text/plain; charset=utf-8",
               ".zip": "application/zip", ".svg": "image/svg+xml",
               ".css": "text/css; charset=utf-8"}


class HTTPProblem(Exception):
    """A request we answer with a short page (JSON on the API's paths) and a 4xx/5xx status.

    ``heading`` and ``text`` are English msgids (mark them with ``N_``), translated when the page
    is made; ``values`` fill the text's ``%(name)s`` placeholders; ``field`` is what the API's
    answer names as wrong.
    """

    def __init__(self, status: int, heading: str, text: str,
                 headers: Mapping[str, str] | None = None,
                 values: Mapping[str, object] | None = None, field: str = "request") -> None:
        super().__init__(text % dict(values) if values else text)
        self.status, self.heading, self.text = status, heading, text
        self.headers = dict(headers or {})
        self.values = dict(values or {})
        self.field = field


class SecurityHeaders:
    """Adds the security headers to every response that does not set its own."""

    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return

        async def send_with_headers(message: Message) -> None:
            if message["type"] == "http.response.start":
                headers = list(message.get("headers", []))
                present = {k.decode("latin-1").lower() for k, _ in headers}
                for name, value in SECURITY_HEADERS.items():
                    if name not in present:
                        headers.append((name.encode("latin-1"), value.encode("latin-1")))
                message = {**message, "headers": headers}
            await send(message)

        await self.app(scope, receive, send_with_headers)


def client_of(request: Request) -> str:
    """Who is asking: the address ``guard.Guard`` settled (a trusted proxy's client, or the
    peer); the per-client limits of the render line count by it."""
    return request.client.host if request.client else ""


def page_response(template: str, status: int = 200, headers: Mapping[str, str] | None = None,
                  **context: Any) -> HTMLResponse:
    """A page of the site; its language is ``context['lang']`` (default English)."""
    lang = str(context.get("lang", DEFAULT_LANGUAGE))
    return HTMLResponse(render_page(template, **context), status_code=status,
                        headers={"cache-control": "no-store", "content-language": lang,
                                 "vary": "accept-language", **(headers or {})})


def problem_response(problem: HTTPProblem, lang: str = DEFAULT_LANGUAGE,
                     **page: object) -> HTMLResponse:
    """The problem's page in ``lang``; ``page``: the rest of ``app.page_language``."""
    w = words(lang)
    values = {k: w.number(v) if isinstance(v, int) else v for k, v in problem.values.items()}
    return page_response("site/message.html", problem.status, problem.headers, lang=lang,
                         heading=w.gettext(problem.heading), text=w.gettext(problem.text, **values),
                         **page)


class BodyError(ValueError):
    """A body that cannot be read as data: ``status`` 400 (not JSON) or 422 (JSON past our
    limits), ``message`` the API's words for it."""

    def __init__(self, status: int, message: str) -> None:
        super().__init__(message)
        self.status, self.message = status, message


NOT_JSON = "the body is not valid JSON"
TOO_DEEP_JSON = f"arrays or objects are nested more than {MAX_NESTING} levels deep"
TOO_LONG_JSON = "a number has more than 4300 digits"  # Python's own limit for int()


def parse_json(raw: bytes) -> Any:
    """A JSON body as data. Refused, as a ``BodyError`` naming why: not UTF-8 JSON (400);
    arrays or objects nested past ``MAX_NESTING`` (422: deeper, ``json`` would raise
    ``RecursionError``, and every later step walks the data); a number past Python's digit
    limit, or ``NaN``/``Infinity`` (422)."""
    import json

    def constant(name: str) -> object:
        raise BodyError(422, f"{name} is not a number JSON allows")

    try:
        data = json.loads(raw, parse_constant=constant)
    except BodyError:
        raise
    except RecursionError:
        raise BodyError(422, TOO_DEEP_JSON) from None
    except ValueError as exc:  # not JSON (or not UTF-8), or int() past the digit limit
        if isinstance(exc, json.JSONDecodeError) or "digits" not in str(exc):
            raise BodyError(400, NOT_JSON) from None
        raise BodyError(422, TOO_LONG_JSON) from None
    if nesting(data) > MAX_NESTING:
        raise BodyError(422, TOO_DEEP_JSON)
    return data


API_PATHS = "/api/"  # the JSON API: its answers are JSON, errors included


def problem_json(problem: HTTPProblem) -> JSONResponse:
    """The problem as the JSON API says every problem: ``{"errors": [{field, message, text}]}``
    (in English, as the API's other answers)."""
    message = str(problem)
    return JSONResponse({"errors": [{"field": problem.field, "message": message,
                                     "text": f"{problem.field}: {message}"}]},
                        problem.status, headers={"cache-control": "no-store", **problem.headers})


def problem_answer(scope: Scope, problem: HTTPProblem, lang: str = DEFAULT_LANGUAGE,
                   **page: object) -> Response:
    """The answer to ``problem``: JSON on the API's paths, else its page in ``lang``."""
    if str(scope.get("path", "")).startswith(API_PATHS):
        return problem_json(problem)
    return problem_response(problem, lang, **page)


async def read_form(request: Request) -> dict[str, str]:
    """The urlencoded body, size-capped before and while reading; 4xx on anything odd."""
    ctype = request.headers.get("content-type", "").split(";")[0].strip().lower()
    if ctype != "application/x-www-form-urlencoded":
        raise HTTPProblem(415, N_("Unsupported form encoding"),
                          N_("Send the form as application/x-www-form-urlencoded."))
    length = request.headers.get("content-length")
    too_big = HTTPProblem(413, N_("Form too large"), N_("The form may carry at most %(size)s KB."),
                          values={"size": MAX_BODY // 1024})
    if length is not None and (not length.isdigit() or int(length) > MAX_BODY):
        raise too_big
    body = bytearray()
    async for chunk in request.stream():
        body += chunk
        if len(body) > MAX_BODY:
            raise too_big
    try:
        pairs = parse_qsl(body.decode("ascii"), keep_blank_values=True,
                          max_num_fields=MAX_FIELDS, encoding="utf-8", errors="strict")
    except (UnicodeDecodeError, ValueError):
        raise HTTPProblem(400, N_("Unreadable form"),
                          N_("The form data was not valid UTF-8 form encoding, or had too many "
                             "fields.")) from None
    values: dict[str, str] = {}
    for key, value in pairs:
        values.setdefault(key, value)  # the first of repeated fields counts
    return values


def file_response(body: bytes, path: str, folder: str, cache_seconds: int = 3600) -> Response:
    """A file of a built kit. ``path`` was already checked to be one of the kit's own names."""
    suffix = "." + path.rsplit(".", 1)[-1] if "." in path else ""
    headers = {"cache-control": f"private, max-age={cache_seconds}"}
    if suffix == ".html":
        headers["content-security-policy"] = KIT_CSP
    if suffix in (".pdf", ".zip"):
        name = folder + (".zip" if suffix == ".zip" else "-" + path.replace("/", "-"))
        # a PDF opens in the browser's viewer, to print at once; its link beside saves it
        how = "inline" if suffix == ".pdf" else "attachment"
        headers["content-disposition"] = f'{how}; filename="{name}"'
    return Response(body, media_type=MEDIA_TYPES.get(suffix, "application/octet-stream"),
                    headers=headers)


def static_response(body: bytes, suffix: str, max_age: int = 86400) -> Response:
    return Response(body, media_type=MEDIA_TYPES[suffix],
                    headers={"cache-control": f"public, max-age={max_age}"})
