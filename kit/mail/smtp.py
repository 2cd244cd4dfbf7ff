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
"""

from __future__ import annotations

import ipaddress
import smtplib
import ssl
from dataclasses import dataclass, field
from email.message import EmailMessage
from urllib.parse import unquote, urlsplit

from ..errors import ConfigError

PORTS = {"smtp": 25, "submission": 587, "smtps": 465}
TIMEOUT_S = 30.0  # one SMTP command's wait; far below the outbox lease


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
            session = smtplib.SMTP_SSL(self.host, self.port, timeout=TIMEOUT_S, context=context)
        else:
            session = smtplib.SMTP(self.host, self.port, timeout=TIMEOUT_S)
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
