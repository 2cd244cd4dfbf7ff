"""The console's report folders on disk: made once per content however many ask (single
flight), in the server's render pool when it has one, and pruned.

- ``ReportFolders.ensure`` starts (or joins) the render of a folder not made yet and returns
  its future, so a page need not wait for it; with a render pool (``use``: the server's, with
  its line per client and its share) the render runs in a worker, else in the calling thread.
- Page budget: the game says about how many pages a folder has before it is rendered
  (``ConsoleGame.report_pages``); one over ``WEB_MAX_PAGES`` (the cap of a kit made on the
  web) is ``TooLarge``, never rendered; the pool charges the rest to the client's budget.
- A render that failed with the kit's own error is remembered (a report that cannot be made
  is not made again for each request); another failure (a full disk) is tried again.
- Pruning: once the newest wanted folder of a game and viewer is made, that viewer's older
  folders of the game go, except one being read (``read`` holds it while it reads); the
  first ask for a game and viewer in a process prunes too, so folders an earlier run left
  go (one game's folder listed once per viewer, not every game's).
"""

from __future__ import annotations

import contextlib
import logging
import os
import shutil
import threading
from collections import Counter, OrderedDict
from collections.abc import Callable, Iterator, Mapping, Sequence
from concurrent.futures import Future
from functools import partial
from pathlib import Path
from typing import Any, Protocol

from ..cache import staging_folder
from ..errors import KitError
from ..server.limits import WEB_MAX_PAGES
from ..server.pool import ClientBusy, Overloaded
from .answer_cache import Flights
from .report_files import make_folder, own_player, served_path, viewer_tag
from .specs import console_of
from .store import GameRow, Row

log = logging.getLogger("kit.console")

REMEMBERED = 1000  # failed renders remembered, and (game, viewer) folders wanted


class Renders(Protocol):
    """The server's render line (``kit.server.pool.RenderPool.submit_work``)."""

    def submit_work(self, key: str, work: Callable[[], object],
                    client: str = "", pages: int = 0) -> tuple[Future, bool]: ...


class BeingMade(Exception):
    """The report files are being made; ``future`` ends when they are."""

    def __init__(self, future: Future) -> None:
        super().__init__("the report files are being made")
        self.future = future


class Queued(Exception):
    """The render line took no new render now (this client's share, or the line, is full):
    ask again shortly."""


class NotMade(Exception):
    """The report files could not be made (the render failed; it is not tried again)."""


class TooLarge(NotMade):
    """The report files would have more pages than a render here may make (never tried)."""

    def __init__(self, pages: int, most: int) -> None:
        super().__init__(f"the report files would have {pages} pages, at most {most}")
        self.pages, self.most = pages, most


def folder_pages(game_row: GameRow, data: Mapping[str, Any], turn: int | None,
                 player: str | None = None) -> int:
    """About how many pages the folder of ``data`` has (``player``: their own files alone),
    as its game estimates them."""
    estimate = console_of(game_row.kind).report_pages
    return 0 if estimate is None else estimate(data, turn, player)


class ReportFolders:
    """The made report folders under ``files`` (``files/<game>/<viewer>-<content>/<folder>``)."""

    def __init__(self, files: Path) -> None:
        self.files = files
        self.pool: Renders | None = None
        self.started = 0  # renders started here (single flight: one per folder)
        self.max_pages = WEB_MAX_PAGES  # a folder over it is refused (TooLarge)
        self._lock = threading.Lock()
        self._reading: Counter[Path] = Counter()
        self._wanted: OrderedDict[tuple[str, str], tuple[int, Path]] = OrderedDict()
        self._failed: OrderedDict[str, BaseException] = OrderedDict()
        self._flights = Flights()
        self._running: dict[str, Future] = {}  # the renders started here, by key

    def use(self, pool: Renders) -> None:
        """Render in ``pool`` from now on (the server's line, shared with kits)."""
        self.pool = pool

    def ensure(self, target: Path, data: Mapping[str, Any], game_row: GameRow,
               rows: Sequence[Row] | None, who: str, version: int, client: str = "",
               turn: int | None = None) -> Future | None:
        """None when ``target`` is made; else the future of its render (started, or joined).
        Raises ``NotMade`` for a render that failed, ``TooLarge`` for one over the page cap,
        ``Queued`` when the pool takes no render now (its client share, page budget or line
        full)."""
        first = self._want(game_row.id, who, version, target)
        if target.is_dir():
            if first:  # older folders left by an earlier run (or a killed one): once here
                self.prune(game_row.id, who)
            return None
        key = "console:" + str(target.relative_to(self.files))
        if key in self._failed:
            raise NotMade(key)
        player = own_player(who)  # a player's folders hold their own files alone
        pages = folder_pages(game_row, data, turn, player)
        if pages > self.max_pages:
            raise TooLarge(pages, self.max_pages)
        work = partial(make_folder, target, self.files / game_row.id, dict(data), game_row,
                       None if rows is None else list(rows), turn, player)
        done = partial(self._done, key, game_row.id, who, target)
        if self.pool is None:  # no server: here and now, once however many ask
            self._flights.run(key, lambda: self._inline(key, work, done))
            return None
        try:
            future, started = self.pool.submit_work(key, work, client, pages)
        except (ClientBusy, Overloaded):
            raise Queued(key) from None
        if started:
            self.started += 1
            with self._lock:
                self._running[key] = future
            future.add_done_callback(done)
        return future

    def running(self, target: Path) -> Future | None:
        """The render of ``target`` started here and not yet done, if any: asked before the
        journal is read to start it (a page asked for while it is made reads no more)."""
        with self._lock:
            future = self._running.get("console:" + str(target.relative_to(self.files)))
        return future if future is not None and not future.done() else None

    def state(self, target: Path) -> str:
        """``made``, ``failed`` or ``pending`` (being made, or not asked for yet)."""
        if target.is_dir():
            return "made"
        return "failed" if "console:" + str(target.relative_to(self.files)) in self._failed \
            else "pending"

    def _inline(self, key: str, work: Callable[[], None],
                done: Callable[[Future], None]) -> None:
        self.started += 1
        future: Future = Future()
        try:
            work()
            future.set_result(None)
        except Exception as exc:
            future.set_exception(exc)
        done(future)
        if key in self._failed:
            raise NotMade(key)
        future.result()

    def _want(self, game_id: str, who: str, version: int, target: Path) -> bool:
        """Note ``target`` as the newest wanted folder of the game and viewer, if it is;
        whether this is the first ask for them since this process started (or forgot)."""
        key = (game_id, viewer_tag(who))
        target = self.files / game_id / target.relative_to(self.files / game_id).parts[0]
        with self._lock:
            now = self._wanted.get(key)
            if now is None or version >= now[0]:
                self._wanted[key] = (version, target)
            self._wanted.move_to_end(key)
            while len(self._wanted) > REMEMBERED:
                self._wanted.popitem(last=False)
        return now is None

    def _done(self, key: str, game_id: str, who: str, target: Path, future: Future) -> None:
        with self._lock:
            self._running.pop(key, None)
        error = None if future.cancelled() else future.exception()
        if error is not None:
            log.error("the report files %s could not be made: %r", key, error)
            if not isinstance(error, KitError):  # a full disk, say: the next ask tries again
                return
            with self._lock:
                self._failed[key] = error
                while len(self._failed) > REMEMBERED:
                    self._failed.popitem(last=False)
            return
        if not future.cancelled():
            self.prune(game_id, who)

    def prune(self, game_id: str, who: str) -> int:
        """Remove ``who``'s folders of the game but the newest wanted one, once that is made,
        and but one being read; how many went."""
        tag = viewer_tag(who)
        gone = []
        with self._lock:
            wanted = self._wanted.get((game_id, tag))
            if wanted is None or not wanted[1].is_dir():
                return 0  # the newest is not made yet: its own render prunes
            keep = wanted[1]
            game = self.files / game_id
            for folder in sorted(game.iterdir()):
                old = folder.name.startswith(tag + "-") or (  # or the earlier v<digest> ones
                    folder.name.startswith("v") and len(folder.name) == 17)
                if folder == keep or not old or folder.name.startswith("."):
                    continue
                if any(folder == p or folder in p.parents for p in self._reading):
                    continue
                away = staging_folder(game) / folder.name  # swept at start if we die here
                os.rename(folder, away)
                gone.append(away.parent)
        for folder in gone:
            shutil.rmtree(folder, ignore_errors=True)
        return len(gone)

    @contextlib.contextmanager
    def holding(self, target: Path) -> Iterator[bool]:
        """Keep the made folder ``target`` from pruning while in the block; whether it is
        there (False: gone, another server pruned it)."""
        with self._lock:
            there = target.is_dir()
            if there:
                self._reading[target] += 1
        try:
            yield there
        finally:
            if there:
                with self._lock:
                    self._reading[target] -= 1
                    if not self._reading[target]:
                        del self._reading[target]

    def read(self, target: Path, name: str) -> bytes | None:
        """The bytes of ``name`` in the made folder ``target`` (kept from pruning while read);
        None when the folder is gone (another server pruned it: make it again)."""
        with self.holding(target) as there:
            if not there:
                return None
            try:
                return served_path(target, name).read_bytes()
            except FileNotFoundError:
                return None
