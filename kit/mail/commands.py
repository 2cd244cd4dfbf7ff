"""``kit mail test``: check the e-mail set-up before game night, and the flags ``kit serve``
shares with it (``--smtp``, ``--mail-from``).

With a mail server (``--smtp URL`` or ``KIT_SMTP_URL``) the test message goes the way players'
messages will: queued in the outbox of the console's database, then sent at once through that
server (one try: a test that fails is reported, never sent later by a server). Without one,
``--eml FILE`` writes it as a draft for the mail program, and the ``mailto:`` link is printed.
"""

from __future__ import annotations

import argparse
import os
import sys
import tempfile
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

from ..errors import ConfigError
from ..helptext import COMMAND_HELP
from ..i18n import DEFAULT as DEFAULT_LANGUAGE
from ..i18n import LANGUAGES, N_, words
from .letter import NAME, Letter, address, draft, mailbox, mailto
from .smtp import MailError, SmtpServer

SMTP_ENV = "KIT_SMTP_URL"


@dataclass(frozen=True)
class MailSetup:
    """The server mail goes through, the address it comes from and the name shown with it
    when the game has none ('': ``letter.NAME``)."""

    server: SmtpServer
    mail_from: str
    name: str = ""

    def describe(self) -> str:
        """For a log line: the server without its login, and the sender."""
        return f"{self.server.label} as {self.mail_from}"


def add_mail_flags(parser: argparse.ArgumentParser) -> None:
    """``--smtp`` and ``--mail-from``, as ``kit serve`` and ``kit mail test`` take them."""
    parser.add_argument("--smtp", default=None, metavar="URL",
                        help="the mail server: smtp://HOST[:PORT] (plain), "
                        "submission://USER:PASSWORD@HOST[:587] (STARTTLS) or "
                        "smtps://USER:PASSWORD@HOST[:465] (TLS) (default: KIT_SMTP_URL; "
                        "prefer it for a password, which a command line shows to every user "
                        "of the machine)")
    parser.add_argument("--mail-from", default=None, metavar="ADDRESS",
                        help="the address messages come from (needed with a mail server), "
                        "optionally with the name shown when a game has none: 'Quiz Night "
                        f"<gm@example.org>' (default name: {NAME})")


def mail_setup(args: argparse.Namespace) -> MailSetup | None:
    """The mail set-up of ``--smtp`` (or ``KIT_SMTP_URL``) and ``--mail-from``; None without a
    server. Checked, not yet connected."""
    text = args.smtp if args.smtp is not None else os.environ.get(SMTP_ENV)
    if not text:
        if args.mail_from is not None:
            raise ConfigError("mail_from", f"needs a mail server: give --smtp URL or set "
                              f"{SMTP_ENV}")
        return None
    server = SmtpServer.parse(text, "smtp")
    if args.mail_from is None:
        raise ConfigError("mail_from", "give the address messages come from, e.g. "
                          "--mail-from game-master@example.org")
    name, sender = mailbox("mail_from", args.mail_from)
    return MailSetup(server, sender, name)


def check_in_background(setup: MailSetup, say: Callable[[str], None]) -> threading.Thread:
    """Connect, log in and quit in a thread of its own, then ``say`` in one line whether mail
    can go out: ``kit serve`` starts at once however long the mail server takes to answer."""

    def run() -> None:
        try:
            setup.server.check()
        except MailError as exc:
            then = ("letters wait in the outbox until it answers" if exc.transient else
                    "letters will fail until --smtp (or KIT_SMTP_URL) is corrected")
            say(f"kit: mail: {exc.reason}; {then}")
        else:
            say(f"kit: mail: {setup.server.label} answers and takes the log-in")

    thread = threading.Thread(target=run, name="kit-mail-check", daemon=True)
    thread.start()
    return thread


def add_mail(sub: argparse._SubParsersAction) -> None:
    """The ``kit mail`` command and its ``test`` subcommand."""
    mail = sub.add_parser("mail", help=COMMAND_HELP["mail"],
                          description="E-mail for the game-night console.")
    actions = mail.add_subparsers(dest="mail_command", metavar="ACTION")
    test = actions.add_parser(
        "test", help="send a test message the way players' messages will go",
        description="Queue a test message in the console's outbox and send it now through the "
        "mail server (--smtp or KIT_SMTP_URL); without a server, write it as a draft (--eml).")
    test.add_argument("--to", required=True, metavar="ADDRESS", help="who gets the test")
    add_mail_flags(test)
    test.add_argument("--database", default=None, metavar="PATH_OR_URL",
                      help="the console's store whose outbox is used, as kit serve takes it "
                      "(default: KIT_DATABASE_URL, else console.sqlite3 in the user data "
                      "folder)")
    test.add_argument("--eml", default=None, metavar="FILE",
                      help="without a mail server: write the message here as a draft")
    test.add_argument("--lang", default=DEFAULT_LANGUAGE, choices=list(LANGUAGES),
                      metavar="|".join(LANGUAGES),
                      help=f"language of the message (default: {DEFAULT_LANGUAGE})")


def test_letter(to: str, lang: str, server: str | None) -> Letter:
    """The test message in ``lang``: sent through ``server``, or a draft (None)."""
    say = words(lang)
    if server is None:
        body = say.gettext(N_("This is a test message of the game-night console, written as a "
                              "draft. Drafts for players will look the same."))
    else:
        body = say.gettext(N_("This is a test message of the game-night console, sent through "
                              "%(server)s. Messages to players will come the same way."),
                           server=server)
    return Letter(to, say.gettext(N_("Game-night console: test message")), body + "\n")


def run_mail(args: argparse.Namespace) -> int:
    """Run ``kit mail test``; problems are ``KitError``s for the CLI."""
    if args.mail_command != "test":
        raise ConfigError("arguments", "give an action: test; see 'kit mail --help'")
    to = address("to", args.to)
    setup = mail_setup(args)
    if setup is None:
        if args.eml is None:
            raise ConfigError("smtp", f"give a mail server (--smtp URL or {SMTP_ENV}), or "
                              "--eml FILE to write the test message as a draft")
        letter = test_letter(to, args.lang, None)
        write_file(Path(args.eml), draft(letter))
        print(args.eml)
        print(mailto(letter))
        return 0
    if args.eml is not None:
        raise ConfigError("eml", "is for a test without a mail server; leave out --smtp (and "
                          f"{SMTP_ENV}) or --eml")
    return _send_test(args, setup, to)


def _send_test(args: argparse.Namespace, setup: MailSetup, to: str) -> int:
    from ..db.engine import database_url, make_engine, migrate
    from .outbox import Key, Policy, Sender, entry, queue

    engine = make_engine(database_url(args.database or os.environ.get("KIT_DATABASE_URL")))
    try:
        try:
            migrate(engine)
        except Exception as exc:  # never echo the URL: it may hold a password
            raise ConfigError("database", f"cannot open the console database "
                              f"({type(exc).__name__})") from None
        letter = test_letter(to, args.lang, setup.server.label)
        key = Key("", to, int(time.time()), "test")  # a test per address and second
        with engine.connect().execution_options(write=True) as conn, conn.begin():
            queue(conn, key, letter)
        sender = Sender(engine, setup.server, setup.mail_from, Policy(attempts=1),
                        name=setup.name)
        sender.run_once(only=key.ident)
        done = entry(engine, key.ident)
    finally:
        engine.dispose()
    if done is None or done.state != "sent":
        raise ConfigError("smtp", done.error if done and done.error else "the test message "
                          "could not be sent")
    print(f"sent to {to} through {setup.describe()}", file=sys.stderr)
    return 0


def write_file(path: Path, data: bytes) -> None:
    """Write ``data`` to ``path`` whole or not at all (a temporary file, then renamed)."""
    folder = path.expanduser().resolve().parent
    if not folder.is_dir():
        raise ConfigError("eml", f"the folder {folder} does not exist")
    fd, temporary = tempfile.mkstemp(prefix=".kit-", dir=folder)
    try:
        with os.fdopen(fd, "wb") as out:
            out.write(data)
        os.replace(temporary, path)
    except OSError as exc:
        Path(temporary).unlink(missing_ok=True)
        raise ConfigError("eml", f"cannot write {path}: {exc.strerror}") from None
