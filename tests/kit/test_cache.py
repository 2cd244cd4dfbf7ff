"""The persistent render cache: same bytes cold, warm and without it; bounded; shareable."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest
from support.helpers import ROOT

from kit.cache import RenderCache, default_folder, digest
from kit.cli import main

FILES = ("player-kit.pdf", "player-kit.html", "host-answers.pdf", "host-answers.html")


def build(out: Path, cache: Path | None, monkeypatch: pytest.MonkeyPatch) -> Path:
    args = ["build", "whats-my-number", "--players", "4", "--turns", "1", "--out", str(out)]
    if cache is None:
        args.append("--no-cache")
    else:
        monkeypatch.setenv("KIT_CACHE_DIR", str(cache))
    assert main(args) == 0
    return out / "whats-my-number-4p-a4"


def test_cold_warm_and_no_cache_give_identical_files(tmp_path: Path,
                                                     monkeypatch: pytest.MonkeyPatch) -> None:
    cache = tmp_path / "cache"
    cold = build(tmp_path / "cold", cache, monkeypatch)
    entries = sorted(p.name for p in cache.rglob("*.bin"))
    assert len(entries) == 5  # the kit's four prose pages and the list of them
    warm = build(tmp_path / "warm", cache, monkeypatch)
    assert sorted(p.name for p in cache.rglob("*.bin")) == entries  # read, nothing new
    none = build(tmp_path / "none", None, monkeypatch)
    for name in FILES:
        assert (cold / name).read_bytes() == (warm / name).read_bytes() == (
            none / name).read_bytes(), name


def test_a_changed_page_is_a_new_key() -> None:
    assert digest(["a", "b"]) != digest(["ab"])  # parts cannot run together
    assert digest(["a", "b"]) == digest(["a", "b"])


def test_least_recently_used_entries_go_first(tmp_path: Path) -> None:
    cache = RenderCache(tmp_path, max_bytes=250)
    for n, key in enumerate(("aa1", "bb2", "cc3")):
        cache.put(key, bytes([n]) * 100)
        os.utime(cache._path(key), (1000 + n, 1000 + n))
    assert cache.get("aa1") is not None  # read: now the most recently used
    cache.evict()
    assert cache.get("bb2") is None and cache.get("aa1") and cache.get("cc3")
    assert sum(size for _, size, _ in cache.entries()) <= 250


def test_an_unwritable_cache_is_skipped_not_an_error(tmp_path: Path) -> None:
    blocker = tmp_path / "file"
    blocker.write_text("x")
    cache = RenderCache(blocker / "cache")
    cache.put("k1", b"data")  # cannot write: quietly nothing
    assert cache.get("k1") is None


def test_kit_cache_dir_overrides_the_user_cache(monkeypatch: pytest.MonkeyPatch,
                                                tmp_path: Path) -> None:
    monkeypatch.setenv("KIT_CACHE_DIR", str(tmp_path / "mine"))
    assert default_folder() == tmp_path / "mine"
    monkeypatch.delenv("KIT_CACHE_DIR")
    assert "number-party-kit" in str(default_folder())


WRITER = """
import sys
from kit.cache import RenderCache
cache = RenderCache(sys.argv[1])
for n in range(200):
    cache.put("shared-key", (sys.argv[2] * 5000).encode())
    data = cache.get("shared-key")
    assert data in (b"a" * 5000, b"b" * 5000), len(data or b"")
"""


def test_processes_share_a_folder_safely(tmp_path: Path) -> None:
    """Two processes writing and reading one key never see a half-written entry."""
    procs = [subprocess.Popen([sys.executable, "-c", WRITER, str(tmp_path), letter], cwd=ROOT)
             for letter in "ab"]
    assert [p.wait(60) for p in procs] == [0, 0]
    assert not list(tmp_path.rglob(".tmp-*"))
