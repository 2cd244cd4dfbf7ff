"""A real SMTP server on loopback for the mail tests (aiosmtpd in a thread of its own).

``Inbox`` is the handler: it keeps every message it accepted (parsed, with its envelope) and
can be told to answer the next DATA commands with a failure (``fail_next``). ``smtp_server``
is the fixture: a started server and its inbox, stopped after the test.
"""

from __future__ import annotations

import asyncio
import email
import email.policy
import socket
import threading
import time
from collections.abc import Iterator
from dataclasses import dataclass, field

import pytest
import sqlalchemy as sa
from aiosmtpd.controller import Controller
from aiosmtpd.smtp import AuthResult, LoginPassword

from kit.mail.outbox import Sender, outbox

USER, PASSWORD = "relay-login@example.net", "s3cr3t-p@ss:word"


@dataclass
class Inbox:
    """What the server received; ``fail_next`` DATA commands are answered ``failure``."""

    messages: list = field(default_factory=list)
    envelopes: list = field(default_factory=list)
    fail_next: int = 0
    failure: str = "451 4.3.0 Try again later"
    refused: int = 0
    stall: float = 0.0  # seconds the server takes before its reply to the end of DATA
    lock: threading.Lock = field(default_factory=threading.Lock)

    async def handle_DATA(self, server, session, envelope) -> str:  # noqa: ANN001, N802
        if self.stall:
            await asyncio.sleep(self.stall)  # a slow content filter, say
        with self.lock:
            if self.fail_next > 0:
                self.fail_next -= 1
                self.refused += 1
                return self.failure
            self.envelopes.append((envelope.mail_from, list(envelope.rcpt_tos)))
            self.messages.append(email.message_from_bytes(envelope.content,
                                                          policy=email.policy.default))
        return "250 OK"

    def ids(self) -> list[str]:
        with self.lock:
            return [m["Message-ID"] for m in self.messages]


def check_login(server, session, envelope, mechanism, auth_data) -> AuthResult:  # noqa: ANN001
    ok = (isinstance(auth_data, LoginPassword) and auth_data.login == USER.encode()
          and auth_data.password == PASSWORD.encode())
    return AuthResult(success=ok, handled=False)


class Server:
    """A started aiosmtpd server on 127.0.0.1 and its inbox."""

    def __init__(self, *, login: bool = False, tls_context=None, port: int = 0) -> None:  # noqa: ANN001
        from support.console_db import free_port

        self.inbox = Inbox()
        self.port = port or free_port()
        options: dict = {}
        if login:
            # plain login allowed on loopback without TLS, as kit's smtp:// allows it there
            options.update(authenticator=check_login, auth_required=True,
                           auth_require_tls=tls_context is not None)
        if tls_context is not None:
            options.update(tls_context=tls_context, require_starttls=True)
        self.controller = Controller(self.inbox, hostname="127.0.0.1", port=self.port,
                                     **options)
        self.controller.start()

    def url(self, scheme: str = "smtp", login: bool = False) -> str:
        from urllib.parse import quote

        auth = f"{quote(USER, safe='')}:{quote(PASSWORD, safe='')}@" if login else ""
        return f"{scheme}://{auth}127.0.0.1:{self.port}"

    def stop(self) -> None:
        self.controller.stop()


@pytest.fixture
def smtp_server() -> Iterator[Server]:
    server = Server()
    try:
        yield server
    finally:
        server.stop()


def drain(sender: Sender, until: float = 10.0) -> None:
    """Run the sender until no row is queued (retries included) or ``until`` seconds pass."""
    deadline = time.monotonic() + until
    while time.monotonic() < deadline:
        sender.run_once()
        with sender.engine.connect() as conn:
            left = conn.execute(sa.select(sa.func.count()).select_from(outbox)
                                .where(outbox.c.state == "queued")).scalar()
        if not left:
            return
        time.sleep(0.02)
    raise AssertionError("messages still queued")


def trickle_greeting(port: int, stop: threading.Event, every: float,
                     done: threading.Event | None = None) -> None:
    """A raw server on ``port`` that sends its greeting (86 bytes) one byte every ``every``
    seconds, so no single read waits long; ``done`` is set once a greeting went out whole."""
    with socket.create_server(("127.0.0.1", port)) as listener:
        listener.settimeout(0.1)
        while not stop.is_set():
            try:
                conn, _ = listener.accept()
            except TimeoutError:
                continue
            with conn:
                for byte in b"220 " + b"slow" * 20 + b"\r\n":
                    if stop.is_set():
                        break
                    try:
                        conn.sendall(bytes([byte]))
                    except OSError:
                        break
                    time.sleep(every)
                else:
                    if done is not None:
                        done.set()
