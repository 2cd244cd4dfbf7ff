"""A letter (recipient, subject, plain-text body) and the forms it takes: the RFC 5322 message
the outbox sends, a ``.eml`` draft a mail program opens ready to send, and a ``mailto:`` link.

The message is built by ``email.message.EmailMessage`` and written by ``email.generator`` (CRLF
line ends, long lines folded, non-ASCII text encoded): the same letter with the same sender,
id and date gives the same bytes, so a resend is the same message. Its ``From`` carries a
display name (the game's name, say), encoded by ``email.headerregistry.Address`` when it is not
ASCII.
"""

from __future__ import annotations

import email.errors
import email.policy
import hashlib
import re
import unicodedata
from collections.abc import Sequence
from dataclasses import dataclass
from datetime import UTC, datetime
from email.generator import BytesGenerator
from email.headerregistry import Address
from email.message import EmailMessage
from email.utils import format_datetime
from html import escape
from io import BytesIO
from urllib.parse import quote

from ..errors import ConfigError, shown

ADDRESS_MAX = 254  # characters of an address (RFC 5321's path limit less the brackets)
SUBJECT_MAX = 200
BODY_MAX = 200_000  # characters; a turn's report is a few thousand
DASHES = re.compile(r"-{3,}")  # a line of dashes: a rule between a letter's parts
RULE_ROW = re.compile(r"\|?[\s:|-]*-[\s:|-]*\|?")  # a table's "|---|---|" line
LINK = re.compile(r"https?://[^\s<>&\"]+")
NAME = "number-party-kit"  # the sender's name when neither the game nor --mail-from has one
NAME_MAX = 100  # characters of a sender's display name


def address(key: str, text: str) -> str:
    """``text`` as one e-mail address (``name@domain``, an international domain in its ASCII
    form); ``ConfigError`` on ``key`` otherwise."""
    if not text.strip() or len(text) > ADDRESS_MAX:
        raise ConfigError(key, f"must be one e-mail address (name@domain, up to {ADDRESS_MAX} "
                          "characters)")
    try:
        parsed = Address(addr_spec=text.strip())
        domain = parsed.domain.encode("idna").decode("ascii") if parsed.domain else ""
    except (ValueError, UnicodeError, IndexError, email.errors.HeaderParseError):
        # IndexError: the standard parser on an address that ends at its "@" ("bob@")
        parsed, domain = None, ""
    if parsed is None or not parsed.username or not domain:
        raise ConfigError(key, f"must be one e-mail address (name@domain); got {shown(text)}")
    return Address(username=parsed.username, domain=domain).addr_spec


def mailbox(key: str, text: str) -> tuple[str, str]:
    """``text`` as one sender, ``Name <name@domain>`` or a bare address: its display name
    ('' if none) and its address (as ``address`` checks it); ``ConfigError`` on ``key``."""
    if "<" not in text:
        return "", address(key, text)
    try:
        parsed = email.policy.default.header_factory("from", text)
        found = parsed.addresses
    except (ValueError, IndexError, email.errors.HeaderParseError):
        found = ()
    if len(found) != 1 or parsed.defects or not found[0].addr_spec:
        raise ConfigError(key, "must be one e-mail address (name@domain), or a name and one "
                          f"address (Quiz Night <name@domain>); got {shown(text)}")
    name = " ".join(unicodedata.normalize("NFC", found[0].display_name).split())
    if len(name) > NAME_MAX or any(unicodedata.category(ch).startswith("C") for ch in name):
        raise ConfigError(key, f"the name before the address must be printable text of at most "
                          f"{NAME_MAX} characters; got {shown(name)}")
    return name, address(key, found[0].addr_spec)


@dataclass(frozen=True)
class Letter:
    """What a message says and to whom: checked on creation (one address, a one-line
    subject, a body within ``BODY_MAX``). ``attach``: the names of the report files it
    carries, fetched when it is sent (``Sender``'s ``files``)."""

    to: str
    subject: str
    body: str
    attach: tuple[str, ...] = ()

    def __post_init__(self) -> None:
        object.__setattr__(self, "to", address("to", self.to))
        if not self.subject or len(self.subject) > SUBJECT_MAX or any(
                ch in self.subject for ch in "\r\n"):
            raise ConfigError("subject", f"must be one line of 1 to {SUBJECT_MAX} characters")
        if len(self.body) > BODY_MAX:
            raise ConfigError("body", f"must be at most {BODY_MAX} characters")


def compose(letter: Letter, sender: str, *, name: str = "", message_id: str | None = None,
            date: float | None = None, files: Sequence[tuple[str, bytes]] = ()
            ) -> EmailMessage:
    """The message of ``letter`` from ``sender`` (an address), shown as ``name`` if given;
    ``message_id`` (``<...@...>``) and ``date`` (seconds since the epoch) fixed by the caller,
    so the same row gives the same message. ``files``: the PDFs it carries, by name (the
    boundary is drawn from the content, so the same files give the same bytes)."""
    message = EmailMessage(policy=email.policy.SMTP)
    # an Address object: its name is quoted, or encoded (RFC 2047) when it is not ASCII
    message["From"] = Address(display_name=name, addr_spec=sender) if name and sender \
        else sender
    message["To"] = letter.to
    message["Subject"] = letter.subject
    if date is not None:
        message["Date"] = format_datetime(datetime.fromtimestamp(date, UTC))
    if message_id is not None:
        message["Message-ID"] = message_id
    message["Auto-Submitted"] = "auto-generated"  # RFC 3834: no vacation replies to a robot
    # quoted-printable, not 8bit: a server without 8BITMIME takes it as it is
    message.set_content(letter.body, cte=None if letter.body.isascii() else "quoted-printable")
    # the same words as HTML, for mail programs that show proportional type: a report's table
    # lines up only as a table there
    message.add_alternative(html_of(letter.body), subtype="html", cte="quoted-printable")
    digest = hashlib.sha256(letter.body.encode("utf-8", "surrogatepass"))
    message.set_boundary("kit-alt-" + digest.hexdigest()[:36])
    if files:
        for name, data in files:
            message.add_attachment(data, maintype="application", subtype="pdf",
                                   filename=name)
            digest.update(name.encode() + b"\x00" + data)
        message.set_boundary("kit-" + digest.hexdigest()[:40])
    return message


def _table(rows: list[str]) -> str:
    """Lines of a Markdown-style table ("| A | B |", a "|---|" line after the head) as an
    HTML table: the first row its head, each first cell its row's heading."""
    cells = [[escape(c.strip()) for c in row.strip().strip("|").split("|")] for row in rows
             if not RULE_ROW.fullmatch(row.strip())]
    head, *body = cells
    out = ['<table border="1" cellpadding="4" style="border-collapse:collapse">',
           "<thead><tr>" + "".join(f'<th scope="col">{c}</th>' for c in head) + "</tr></thead>",
           "<tbody>"]
    out += ["<tr>" + "".join(f'<th scope="row">{c}</th>' if i == 0 else f"<td>{c}</td>"
                             for i, c in enumerate(row)) + "</tr>" for row in body]
    return "\n".join([*out, "</tbody></table>"])


def html_of(body: str) -> str:
    """The plain-text body as a small HTML document: its tables as tables, a line of dashes
    as a rule, every other block a paragraph (line ends kept), its links clickable."""
    blocks: list[str] = []
    lines = body.replace("\r\n", "\n").split("\n")
    index = 0
    while index < len(lines):
        line = lines[index]
        if line.lstrip().startswith("|"):
            end = index
            while end < len(lines) and lines[end].lstrip().startswith("|"):
                end += 1
            blocks.append(_table(lines[index:end]))
            index = end
            continue
        if DASHES.fullmatch(line.strip()):
            blocks.append("<hr>")
        elif line.strip():
            text = LINK.sub(lambda m: f'<a href="{m[0]}">{m[0]}</a>', escape(line))
            if blocks and blocks[-1].startswith("<p>") and index and lines[index - 1].strip() \
                    and not DASHES.fullmatch(lines[index - 1].strip()):
                blocks[-1] = blocks[-1].removesuffix("</p>") + f"<br>\n{text}</p>"
            else:
                blocks.append(f"<p>{text}</p>")
        index += 1
    return ('<!DOCTYPE html>\n<html><head><meta charset="utf-8"></head><body>\n'
            + "\n".join(blocks) + "\n</body></html>\n")


def as_bytes(message: EmailMessage) -> bytes:
    """The RFC 5322 bytes of ``message`` (CRLF line ends)."""
    out = BytesIO()
    BytesGenerator(out, policy=email.policy.SMTP).flatten(message)
    return out.getvalue()


def draft(letter: Letter, sender: str | None = None) -> bytes:
    """A ``.eml`` draft of ``letter``: mail programs open it as a new message to send
    (``X-Unsent: 1``), which adds the date and id itself."""
    message = compose(letter, sender or "")
    if not sender:
        del message["From"]  # the mail program's own account
    del message["Auto-Submitted"]  # the game master sends it by hand
    message["X-Unsent"] = "1"
    return as_bytes(message)


def mailto(letter: Letter) -> str:
    """A ``mailto:`` link (RFC 6068) that opens ``letter`` in the user's mail program; line
    ends as ``%0D%0A``. Mail programs may cut a very long body: the ``.eml`` draft keeps it."""
    body = letter.body.replace("\r\n", "\n").replace("\n", "\r\n")
    return (f"mailto:{quote(letter.to, safe='@')}?subject={quote(letter.subject, safe='')}"
            f"&body={quote(body, safe='')}")
