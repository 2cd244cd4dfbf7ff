"""The server's mail key, and the links of a queued letter sealed under it.

A queued letter's body holds its player's private link, a key to their seat. The outbox keeps
no link in clear: each link of a body is cut out when the letter is queued, a numbered mark left
in its place, and the links are kept beside the body sealed (AES-GCM, from ``cryptography``)
under a key the database does not hold, bound to the letter's game, player, kind and turn
(associated data). The sender opens them as it sends and puts them back where they were, so
the reader gets the very text the letter was made with.

The key (32 random bytes) is ``KIT_MAIL_KEY`` (base64) when it is set, which is how several
servers on one PostgreSQL share one key; else the file ``mail.key`` in the server's data
folder (beside the SQLite file, or the user data folder with PostgreSQL), made readable by
this user only the first time it is needed.
"""

from __future__ import annotations

import base64
import binascii
import contextlib
import os
import re
import secrets
import tempfile
from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path

from cryptography.exceptions import InvalidTag
from cryptography.hazmat.primitives.ciphers.aead import AESGCM
from sqlalchemy.engine import URL

from ..errors import ConfigError, shown_path

KEY_ENV = "KIT_MAIL_KEY"
KEY_FILE = "mail.key"
KEY_BYTES = 32
MARK = "\x1f"  # around a cut-out link's number in a queued body; refused in a letter's text
LINKS = re.compile(r"https?://\S+")  # every web address: a link may carry a seat's token
MAKE_ONE = "python3 -c 'import base64, os; print(base64.b64encode(os.urandom(32)).decode())'"


@dataclass(frozen=True)
class MailKey:
    """The server's key: seals and opens the links of queued letters."""

    raw: bytes = field(repr=False)

    def __post_init__(self) -> None:
        if len(self.raw) != KEY_BYTES:
            raise ValueError(f"a mail key is {KEY_BYTES} bytes")

    def seal(self, bound: str, text: str) -> str:
        """``text`` sealed, bound to ``bound`` (the letter's key), as URL-safe base64."""
        nonce = secrets.token_bytes(12)
        box = AESGCM(self.raw).encrypt(nonce, text.encode("utf-8"), _bytes(bound))
        return base64.urlsafe_b64encode(nonce + box).decode("ascii")

    def open(self, bound: str, sealed: str) -> str | None:
        """What ``seal`` sealed under ``bound``, or None (another key or letter, or damaged)."""
        try:
            raw = base64.urlsafe_b64decode(sealed.encode("ascii"))
            return AESGCM(self.raw).decrypt(raw[:12], raw[12:], _bytes(bound)).decode("utf-8")
        except (InvalidTag, ValueError, UnicodeError):
            return None


def _bytes(text: str) -> bytes:
    return text.encode("utf-8", "surrogatepass")


def parse_key(setting: str, text: str) -> MailKey:
    """A key from its base64 text; ``ConfigError`` on ``setting`` when it is not 32 bytes."""
    try:
        # the URL-safe alphabet too: what a shell or a secrets store may hand over
        raw = base64.b64decode(text.strip().translate(str.maketrans("-_", "+/")),
                               validate=True)
    except (binascii.Error, ValueError):
        raw = b""
    if len(raw) != KEY_BYTES:
        raise ConfigError(setting, f"must be {KEY_BYTES} random bytes in base64 (44 "
                          f"characters); make one with: {MAKE_ONE}")
    return MailKey(raw)


def env_key(environ: Mapping[str, str] = os.environ) -> MailKey | None:
    """The key of ``KIT_MAIL_KEY``, None when it is not set; ``ConfigError`` if malformed."""
    text = environ.get(KEY_ENV)
    return None if text is None else parse_key(KEY_ENV, text)


def key_folder(url: URL) -> Path:
    """Where the key file of the database at ``url`` lives: beside a SQLite file, else (a
    PostgreSQL server, a database in memory) in the user data folder."""
    database = url.database
    if url.get_backend_name() == "sqlite" and database and database != ":memory:" \
            and not database.startswith("file:"):
        return Path(database).parent
    from platformdirs import user_data_dir

    return Path(user_data_dir("number-party-kit"))


def file_key(folder: Path) -> MailKey:
    """The key kept in ``folder``/``mail.key``, made (mode 0600) when there is none yet."""
    path = folder / KEY_FILE
    try:
        if not path.exists():
            _make(path)
        text = path.read_text("ascii")
    except (OSError, UnicodeError) as exc:
        reason = exc.strerror if isinstance(exc, OSError) else "not base64 text"
        raise ConfigError(KEY_ENV, f"cannot read or make the mail key file "
                          f"{shown_path(path)}: {reason}") from None
    return parse_key(f"mail key file {shown_path(path)}", text)


def _make(path: Path) -> None:
    """A new key at ``path``, whole and never over one another server made meanwhile."""
    path.parent.mkdir(parents=True, exist_ok=True, mode=0o700)
    text = base64.b64encode(secrets.token_bytes(KEY_BYTES)).decode("ascii") + "\n"
    fd, temporary = tempfile.mkstemp(prefix=".mail-key-", dir=path.parent)  # mode 0600
    try:
        with os.fdopen(fd, "w", encoding="ascii") as out:
            out.write(text)
            out.flush()
            os.fsync(out.fileno())
        with contextlib.suppress(FileExistsError):  # another server's: that one is the key
            os.link(temporary, path)
    finally:
        os.unlink(temporary)


def server_key(url: URL, environ: Mapping[str, str] = os.environ) -> MailKey:
    """The key of the server on the database at ``url``: ``KIT_MAIL_KEY`` when set, else the
    key file of its data folder (``key_folder``)."""
    given = env_key(environ)
    return given if given is not None else file_key(key_folder(url))


def seal_links(key: MailKey, bound: str, body: str) -> tuple[str, str | None]:
    """``body`` with each link cut out (a numbered mark in its place) and the links sealed
    (None: the body has none). ``ConfigError`` on a body that holds a mark itself."""
    if MARK in body:
        raise ConfigError("body", "must not hold the control character U+001F")
    links: list[str] = []

    def cut(found: re.Match[str]) -> str:
        links.append(found[0])
        return f"{MARK}{len(links) - 1}{MARK}"

    cut_body = LINKS.sub(cut, body)
    return (cut_body, key.seal(bound, "\n".join(links))) if links else (body, None)


def open_links(key: MailKey, bound: str, body: str, sealed: str) -> str | None:
    """The body ``seal_links`` cut, its links put back; None when the seal does not open
    under ``key`` for ``bound`` (then no link is known)."""
    opened = key.open(bound, sealed)
    if opened is None:
        return None
    links = opened.split("\n")
    marks = re.compile(f"{MARK}([0-9]+){MARK}")
    if any(int(found[1]) >= len(links) for found in marks.finditer(body)):
        return None
    return marks.sub(lambda found: links[int(found[1])], body)
