"""Built kits kept in the persistent render cache: a restarted server has its ready-made kits
(files and thumbnails) at once, keys change with anything that changes the bytes, and a kit
that cannot be made reaches the server as its own ``KitError`` through the process pool."""

from __future__ import annotations

import asyncio
import re
import time
import warnings

import pytest

pytest.importorskip("starlette", reason="the web extra is not installed: pip install '.[web]'")
with warnings.catch_warnings():  # Starlette 1.x prefers httpx2 but still drives httpx
    warnings.simplefilter("ignore")
    from starlette.testclient import TestClient

from kit.cache import RenderCache  # noqa: E402
from kit.config import resolve  # noqa: E402
from kit.errors import KitError, LayoutError  # noqa: E402
from kit.i18n import LANGUAGES  # noqa: E402
from kit.output import KitFiles  # noqa: E402
from kit.registry import GAMES  # noqa: E402
from kit.serve.app import create_app  # noqa: E402
from kit.site import kits  # noqa: E402
from kit.site.kits import DocumentInfo, Rendered, ready_configs  # noqa: E402
from kit.site.service import KitService  # noqa: E402

pytestmark = pytest.mark.filterwarnings("ignore:Using `httpx`")

FIRST = next(iter(GAMES.values()))
SMALL = max(FIRST.min_players, 3)
PNG = b"\x89PNG\r\n\x1a\n-stub"


def fake_render(config, preview_pages=1):
    """A kit without WeasyPrint: one document, a thumbnail per preview page."""
    files = {"player-kit.pdf": b"%PDF-1.7 stub " + config.folder_name.encode(),
             "player-kit.html": b"<!DOCTYPE html><title>stub</title>",
             "fonts/LICENCE.txt": b"licence"}
    thumbs = {f"player-kit-{n}.png": PNG + bytes([n]) for n in range(1, preview_pages + 1)}
    return Rendered(config, KitFiles(config.folder_name, files),
                    (DocumentInfo("player-kit", 3, len(files["player-kit.pdf"]), True),), thumbs)


def refuse_render(config, preview_pages=1):
    raise AssertionError(f"rendered {config.folder_name} again")


def layout_failure(config, preview_pages=1):
    """Module level, so a spawned worker process can import it."""
    raise LayoutError("layout", f"the page of {config.folder_name} runs 3.0 mm past its area")


def test_pack_and_unpack_round_trip():
    (config,) = ready_configs([FIRST.name], [SMALL], ["a4"])
    rendered = fake_render(config, 3)
    back = kits.unpack(config, kits.pack(rendered))
    assert back == rendered
    assert kits.unpack(config, b"not a zip") is None
    assert kits.unpack(config, kits.pack(rendered)[:-40]) is None  # cut short
    (other,) = ready_configs([FIRST.name], [SMALL], ["letter"])
    assert kits.unpack(other, kits.pack(rendered)) is None  # another kit's bytes


def test_kept_key_covers_config_version_code_and_previews(monkeypatch):
    a4, letter = ready_configs([FIRST.name], [SMALL])
    key = kits.kept_key(a4)
    assert key == kits.kept_key(resolve({"game": FIRST.name, "players": SMALL}))
    assert key != kits.kept_key(letter)
    assert key != kits.kept_key(a4, kits.PREVIEW_PAGES)
    monkeypatch.setattr(kits, "__version__", "999.0")
    assert key != kits.kept_key(a4)
    monkeypatch.undo()
    monkeypatch.setattr(kits, "code_digest", lambda: "another template or source")
    assert key != kits.kept_key(a4)


def test_code_digest_covers_templates_fonts_and_sources():
    from kit.resources import fonts_dir, templates_dir

    assert templates_dir().is_dir() and fonts_dir().is_dir()
    assert kits.code_digest() == kits.code_digest() and len(kits.code_digest()) == 64


def test_a_restarted_server_serves_ready_kits_and_thumbnails_at_once(tmp_path):
    store = RenderCache(tmp_path)
    configs = ready_configs([FIRST.name], [SMALL])
    every = ready_configs([FIRST.name], [SMALL], langs=list(LANGUAGES))
    first = create_app(executor="thread", workers=1, prewarm=True, render=fake_render,
                       games=[FIRST.name], players=[SMALL], store=store)
    with TestClient(first) as client:
        for config in configs:  # prewarm builds them; a request waits for it
            assert client.get(f"/kits/{config.folder_name}/player-kit.pdf").status_code == 200
        deadline = time.monotonic() + 60  # then every other language's: a bound, not a check
        while (any(first.state.service.cache.get(kits.config_key(c)) is None for c in every)
               and time.monotonic() < deadline):
            time.sleep(0.05)
        assert first.state.service.pool.started == len(every)

    again = create_app(executor="thread", workers=1, prewarm=True, render=refuse_render,
                       games=[FIRST.name], players=[SMALL], store=store)
    with TestClient(again) as client:
        index = client.get("/").text
        assert "Preview being prepared" not in index
        for config in configs:
            assert f'src="/thumbs/{config.folder_name}.png"' in index
            thumb = client.get(f"/thumbs/{config.folder_name}.png")
            assert thumb.status_code == 200 and thumb.content == PNG + b"\x01"
            pdf = client.get(f"/kits/{config.folder_name}/player-kit.pdf")
            assert pdf.content == fake_render(config).kit.files["player-kit.pdf"]
        assert again.state.service.pool.started == 0  # nothing rendered again


def test_custom_kits_are_kept_for_this_user_only(tmp_path):
    """A custom kit is kept in the render cache folder, so another server sharing it can serve
    the kit; its player names are then on disk: readable by this user alone, in a file named
    by a digest, never by a name or title."""
    store = RenderCache(tmp_path)
    app = create_app(executor="thread", workers=1, prewarm=False, render=fake_render,
                     games=[FIRST.name], players=[SMALL], papers=["a4"], store=store)
    with TestClient(app) as client:
        names = "\n".join(f"Guest {i}" for i in range(SMALL))
        response = client.post("/custom", data={"game": FIRST.name, "names": names,
                                                "title": "Secret party"},
                               follow_redirects=False)
        assert response.status_code == 303
        assert client.get(response.headers["location"]).status_code == 200  # made and shown
    kept = store.entries()
    assert kept, "the custom kit is kept for other servers"
    for _, _, path in kept:
        assert path.stat().st_mode & 0o777 == 0o600
        assert re.fullmatch(r"[0-9a-f]{64}\.bin", path.name)
        assert "Guest" not in str(path) and "Secret" not in str(path)


def test_the_server_uses_the_default_render_cache(tmp_path, monkeypatch):
    monkeypatch.setenv("KIT_CACHE_DIR", str(tmp_path / "cache"))
    app = create_app(executor="thread", workers=1, prewarm=False, games=[FIRST.name],
                     players=[SMALL], papers=["a4"])
    assert app.state.service.store.folder == tmp_path / "cache"


def run_async(coroutine):
    """Run a coroutine on a loop of its own thread (a browser test may have left a loop
    running in this one)."""
    from concurrent.futures import ThreadPoolExecutor

    with ThreadPoolExecutor(1) as pool:
        return pool.submit(asyncio.run, coroutine).result()


def test_a_kit_error_crosses_the_process_pool_as_itself(tmp_path):
    config = resolve({"game": FIRST.name, "players": SMALL})
    service = KitService(workers=1, queue=1, cache_mb=16, executor="process",
                         render=layout_failure, ready=[], prewarm=False,
                         store=RenderCache(tmp_path))
    try:
        with pytest.raises(KitError) as exc:
            run_async(service.kit(config))
        assert type(exc.value) is LayoutError and exc.value.field == "layout"
        assert config.folder_name in exc.value.message
        with pytest.raises(LayoutError):  # remembered: refused again without a render
            run_async(service.kit(config))
        assert service.pool.started == 1
    finally:
        service.pool.shutdown()
