"""The mail server: an SMTP URL read once, and messages sent through the standard library.

Three schemes, one meaning each:

- ``smtp://host[:port]`` (port 25): plain SMTP, for a relay on this machine or the local
  network. Credentials are refused unless the host is a loopback address: they would cross the
  network unencrypted.
- ``submission://user:password@host[:port]`` (port 587): STARTTLS, required (a server that does
  not offer it is refused, never used in the clear).
- ``smtps://user:password@host[:port]`` (port 465): TLS from the first byte.

User name and password are percent-decoded (``%40`` for ``@``). TLS checks the server's
certificate against the system's authorities (``SSL_CERT_FILE`` adds one). The URL comes from
``--smtp`` or ``KIT_SMTP_URL``; the password is never part of a message, a log line or a
``repr``: errors name the server as ``scheme://host:port`` and the SMTP reply code only (a
server's reply text may quote the user name).

Each reply is waited for as long as RFC 5321 (section 4.5.3.2) asks a client to wait, counted
from the command to the reply's last line (``Timeouts``): a server trickling its reply byte by
byte gets no more time than a silent one.
"""

from __future__ import annotations

import contextlib
import ipaddress
import smtplib
import socket
import ssl
import threading
from dataclasses import dataclass, field
from email.message import EmailMessage
from typing import Any
from urllib.parse import unquote, urlsplit

from ..errors import ConfigError

PORTS = {"smtp": 25, "submission": 587, "smtps": 465}


@dataclass(frozen=True)
class Timeouts:
    """How long, in seconds, each reply may take to arrive whole (RFC 5321 4.5.3.2): the
    greeting, any other command (EHLO, STARTTLS, AUTH, MAIL, RCPT, QUIT), the reply to DATA,
    one block of the message sent, and the final reply after the message."""

    greeting: float = 300.0
    command: float = 300.0
    data_start: float = 120.0
    data_block: float = 180.0
    data_end: float = 600.0


RFC_5321 = Timeouts()


class _Deadlines(smtplib.SMTP):
    """An SMTP session whose every reply has a deadline of its own (``Timeouts``), past which
    the socket is shut and the command fails with ``TimeoutError``."""

    def __init__(self, host: str, port: int, *, timeouts: Timeouts, **tls: Any) -> None:
        self.timeouts = timeouts
        self._waiting = "greeting"  # what the next reply answers (a Timeouts field)
        self._expired = False
        super().__init__(host, port, timeout=timeouts.command, **tls)

    def putcmd(self, cmd: str, args: str = "") -> None:
        self._waiting = "data_start" if cmd.lower() == "data" else "command"
        super().putcmd(cmd, args)

    def _expire(self) -> None:
        self._expired = True
        sock = self.sock
        if sock is not None:
            with contextlib.suppress(OSError):  # wakes the read waiting on the reply
                sock.shutdown(socket.SHUT_RDWR)

    def getreply(self) -> tuple[int, bytes]:
        limit: float = getattr(self.timeouts, self._waiting)
        if self.sock is not None:
            self.sock.settimeout(limit)
        timer = threading.Timer(limit, self._expire)
        timer.daemon = True
        timer.start()
        try:
            code, text = super().getreply()
        except (smtplib.SMTPServerDisconnected, OSError) as exc:
            # the timer shut the socket, or the socket's own timeout (the same limit) came first
            if self._expired or isinstance(exc.__context__, TimeoutError):
                raise TimeoutError(f"no whole reply within {limit:g} s") from None
            raise
        finally:
            timer.cancel()
        if self._expired:  # a reply cut short at its deadline reads as a whole one
            self.close()
            raise TimeoutError(f"no whole reply within {limit:g} s")
        if self._waiting == "data_start" and code == 354:
            self._waiting = "data_end"  # the message is sent next, then its final reply
            if self.sock is not None:
                self.sock.settimeout(self.timeouts.data_block)
        return code, text


class _Plain(_Deadlines):
    """Plain SMTP, STARTTLS on request."""


class _Tls(_Deadlines, smtplib.SMTP_SSL):
    """SMTP over TLS from the first byte."""


class MailError(Exception):
    """A message the server did not take. ``transient``: worth trying again later (4xx replies,
    an unreachable server); otherwise refused for good (5xx). ``reason`` is safe to log."""

    def __init__(self, reason: str, *, transient: bool, code: int | None = None) -> None:
        super().__init__(reason)
        self.reason = reason
        self.transient = transient
        self.code = code


def _loopback(host: str) -> bool:
    if host == "localhost":
        return True
    try:
        return ipaddress.ip_address(host).is_loopback
    except ValueError:
        return False


@dataclass(frozen=True)
class SmtpServer:
    """Where mail goes: scheme, host, port and the login (if any) of an SMTP URL."""

    scheme: str
    host: str
    port: int
    username: str | None = None
    password: str | None = field(default=None, repr=False)
    timeouts: Timeouts = field(default=RFC_5321, repr=False, compare=False)

    @classmethod
    def parse(cls, text: str, key: str = "smtp") -> SmtpServer:
        """The server of ``text``; ``ConfigError`` on ``key`` otherwise (never quoting ``text``,
        which may hold a password)."""
        allowed = ", ".join(f"{s}://" for s in PORTS)
        try:
            parts = urlsplit(text.strip())
            port = parts.port
        except ValueError:
            raise ConfigError(key, f"not an SMTP URL; give {allowed}") from None
        scheme = parts.scheme.lower()
        if scheme not in PORTS:
            raise ConfigError(key, f"the scheme must be one of {allowed} (smtp: plain, "
                              "submission: STARTTLS, smtps: TLS)")
        if not parts.hostname:
            raise ConfigError(key, f"names no host; give {scheme}://HOST[:PORT]")
        if parts.path not in ("", "/") or parts.query or parts.fragment:
            raise ConfigError(key, "must be scheme://[user:password@]host[:port] with no path, "
                              "query or fragment")
        username = unquote(parts.username) if parts.username else None
        password = unquote(parts.password) if parts.password is not None else None
        if (username is None) != (password is None):
            raise ConfigError(key, "give both a user name and a password (user:password@), "
                              "or neither")
        if username is not None and scheme == "smtp" and not _loopback(parts.hostname):
            raise ConfigError(key, "a password over smtp:// to another machine would travel "
                              "unencrypted; use submission:// (STARTTLS) or smtps:// (TLS)")
        return cls(scheme, parts.hostname, port or PORTS[scheme], username, password)

    @property
    def label(self) -> str:
        """The server as messages and logs name it: no user name, no password."""
        host = f"[{self.host}]" if ":" in self.host else self.host
        return f"{self.scheme}://{host}:{self.port}"

    def connect(self) -> smtplib.SMTP:
        """An open, logged-in session (the caller quits it); ``MailError`` if that fails."""
        try:
            return self._connect()
        except (smtplib.SMTPException, OSError) as exc:
            raise failure(exc, self.label) from None

    def _connect(self) -> smtplib.SMTP:
        context = ssl.create_default_context()
        session: smtplib.SMTP
        if self.scheme == "smtps":
            session = _Tls(self.host, self.port, timeouts=self.timeouts, context=context)
        else:
            session = _Plain(self.host, self.port, timeouts=self.timeouts)
        try:
            session.ehlo()
            if self.scheme == "submission":
                if not session.has_extn("starttls"):
                    raise MailError(f"{self.label} does not offer STARTTLS", transient=False)
                session.starttls(context=context)
                session.ehlo()
            if self.username is not None and self.password is not None:
                session.login(self.username, self.password)
        except BaseException:
            session.close()
            raise
        return session

    def check(self) -> None:
        """Connect, log in and quit: whether mail can go out; ``MailError`` otherwise."""
        session = self.connect()
        try:
            session.quit()
        except (smtplib.SMTPException, OSError):
            session.close()


def send(session: smtplib.SMTP, message: EmailMessage, label: str) -> None:
    """Send ``message`` on an open session; ``MailError`` when the server does not take it."""
    try:
        refused = session.send_message(message)
    except (smtplib.SMTPException, OSError) as exc:
        raise failure(exc, label) from None
    if refused:  # some recipients refused (we send to one, so this is rare)
        code = min(code for code, _text in refused.values())
        raise MailError(f"{label} refused the recipient ({code})", transient=code < 500,
                        code=code)


def failure(exc: BaseException, label: str) -> MailError:
    """A ``MailError`` for what smtplib raised: the reply code and what failed, no reply text."""
    if isinstance(exc, MailError):
        return exc
    if isinstance(exc, smtplib.SMTPRecipientsRefused):
        code = min(code for code, _text in exc.recipients.values())
        return MailError(f"{label} refused the recipient ({code})", transient=code < 500,
                         code=code)
    if isinstance(exc, smtplib.SMTPAuthenticationError):
        return MailError(f"{label} refused the user name or password ({exc.smtp_code})",
                         transient=exc.smtp_code < 500, code=exc.smtp_code)
    if isinstance(exc, smtplib.SMTPResponseException):
        what = ("the sender" if isinstance(exc, smtplib.SMTPSenderRefused)
                else "the message")
        return MailError(f"{label} refused {what} ({exc.smtp_code})",
                         transient=exc.smtp_code < 500, code=exc.smtp_code)
    if isinstance(exc, ssl.SSLCertVerificationError):
        return MailError(f"{label}: its TLS certificate is not trusted ({exc.verify_message})",
                         transient=False)
    if isinstance(exc, smtplib.SMTPNotSupportedError):
        return MailError(f"{label} does not offer the log-in this URL needs (AUTH)",
                         transient=False)
    return MailError(f"cannot reach {label} ({type(exc).__name__})", transient=True)
