"""The console's pages on a phone (390 x 844, Chromium) in every language: no label, heading,
button or table cell is cut or spills over its neighbour, no tick box is squashed, and no page
scrolls sideways. The words of fr, de, es and ru are longer than English ("Essais autorisés",
"Intentos permitidos", "Разрешено попыток", "Geheimzahl").
"""

from __future__ import annotations

from typing import Any

import pytest
from support.helpers import require_browser, served

pytestmark = pytest.mark.slow

require_browser()

from kit.console.service import open_console  # noqa: E402
from kit.serve.app import create_app  # noqa: E402

LANGS = ["en", "fr", "de", "es", "ru"]
NAMES = ["Alexandra", "Émile", "Hugo", "Odile", "Bartholomew", "Chloé", "Denis"]

# every visible element that carries words: its text must stay inside its own box
CUT_LABELS = """() => {
  const hidden = (el) => {  // visually hidden for screen readers only, or not shown at all
    for (let e = el; e; e = e.parentElement) {
      const s = getComputedStyle(e);
      if (s.display === 'none' || s.visibility === 'hidden' || s.clipPath !== 'none'
          || e.classList.contains('visually-hidden')) return true;
    }
    return false;
  };
  const textBox = (el) => {  // the union of its shown text's boxes
    let left = Infinity, right = -Infinity;
    const walk = document.createTreeWalker(el, NodeFilter.SHOW_TEXT);
    for (let node = walk.nextNode(); node; node = walk.nextNode()) {
      if (!node.textContent.trim() || hidden(node.parentElement)) continue;
      const range = document.createRange();
      range.selectNodeContents(node);
      for (const r of range.getClientRects()) {
        if (r.width) { left = Math.min(left, r.left); right = Math.max(right, r.right); }
      }
    }
    return {left, right, width: right > left ? right - left : 0};
  };
  const found = [];
  const words = 'th, td, label, button, summary, dt, dd, legend, h1, h2, h3, p, li, a, .tag';
  for (const el of document.querySelectorAll(words)) {
    if (hidden(el) || !el.textContent.trim()) continue;
    const style = getComputedStyle(el);
    const box = el.getBoundingClientRect();
    if (!box.width || !box.height) continue;
    const text = textBox(el);
    const spills = text.width > 0 && (text.left < box.left - 1 || text.right > box.right + 1);
    const clipped = style.display !== 'inline' && !['auto', 'scroll'].includes(style.overflowX)
      && el.scrollWidth > el.clientWidth + 1;
    if (spills || clipped) {
      found.push(`${el.tagName.toLowerCase()}.${el.className}: "${el.textContent.trim()
        .slice(0, 40)}" (${Math.round(text.width)} px of text in ${Math.round(box.width)} px)`);
    }
  }
  for (const box of document.querySelectorAll('input[type=checkbox]')) {
    const r = box.getBoundingClientRect();
    if (r.width && r.width < 20) found.push(`a tick box ${Math.round(r.width)} px wide: ${box.id}`);
  }
  const wide = document.documentElement.scrollWidth;
  const seen = document.documentElement.clientWidth;
  if (wide > seen) found.push(`the page is ${wide} px wide, the screen ${seen} px`);
  return found;
}"""


@pytest.fixture(scope="module")
def base_url(tmp_path_factory):
    folder = tmp_path_factory.mktemp("console")
    console = open_console(str(folder / "console.db"), folder / "files")
    app = create_app(executor="thread", workers=1, queue=2, prewarm=False,
                     games=["lowest-unique"], players=[4], papers=["a4"], console=console)
    with served(app) as url:
        yield url
    console.close()


@pytest.fixture(scope="module")
def browser(chromium_printer):
    return chromium_printer.browser


def api(base: str, path: str, body: object, token: str = "") -> Any:
    import json
    import urllib.request

    request = urllib.request.Request(base + path, data=json.dumps(body).encode(),
                                     method="POST")
    request.add_header("content-type", "application/json")
    if token:
        request.add_header("authorization", f"Bearer {token}")
    with urllib.request.urlopen(request) as response:
        return json.loads(response.read())


def games(base: str, lang: str) -> dict[str, Any]:
    """A What's My Number? game with a published turn (void, ignored, partial list, no orders)
    and entries in the open one; a two-table party with a round (a pass) at one table."""
    secrets = dict(zip(NAMES, (17, 42, 8, 55, 29, 36, 3), strict=True))
    wmn = api(base, "/api/games", {"game": "whats-my-number", "players": NAMES,
                                   "secrets": secrets, "range": "1-60", "lang": lang})
    orders = {"Alexandra": [20, 30, 40], "Hugo": [10, 70], "Bartholomew": {"list": {
        "Alexandra": 17, "Hugo": 8}}, "Chloé": [25], "Denis": [1, 2]}
    api(base, f"/api/games/{wmn['id']}/turns", {"orders": orders}, wmn["gm_token"])
    api(base, f"/api/games/{wmn['id']}/turns/1/publish", {}, wmn["gm_token"])
    api(base, f"/api/games/{wmn['id']}/turns", {"orders": {"Émile": [5, 6]}}, wmn["gm_token"])
    lun = api(base, "/api/games", {"game": "lowest-unique", "lang": lang, "rounds": 3,
                                   "tables": [NAMES[:4], NAMES[4:]]})
    api(base, f"/api/games/{lun['id']}/tables/1/rounds", {"choices": {
        "Alexandra": 4, "Émile": 1, "Hugo": 4, "Odile": "pass"}}, lun["gm_token"])
    return {"wmn": wmn, "lun": lun}


@pytest.mark.parametrize("lang", LANGS)
def test_no_label_is_cut_on_a_phone(browser, base_url: str, lang: str) -> None:
    made = games(base_url, lang)
    wmn, lun = made["wmn"]["id"], made["lun"]["id"]
    context = browser.new_context(viewport={"width": 390, "height": 844}, is_mobile=True,
                                  has_touch=True)
    page = context.new_page()
    page.set_default_timeout(20_000)
    cut: dict[str, list[str]] = {}
    try:
        pages = ["/console", f"/console/{wmn}", f"/console/{wmn}/standings",
                 f"/console/{lun}", f"/console/{lun}/standings"]
        for path in pages:
            page.goto(f"{base_url}{path}?lang={lang}")
            cut[path] = page.evaluate(CUT_LABELS)
        for game in (made["wmn"], made["lun"]):  # the GM's pages, behind the GM cookie
            page.goto(f"{base_url}/console/{game['id']}/gm/{game['gm_token']}?lang={lang}")
            for path in (f"/console/{game['id']}/gm", f"/console/{game['id']}/gm?amend=1"):
                if path.endswith("amend=1") and game is made["lun"]:
                    continue
                page.goto(f"{base_url}{path}{'&' if '?' in path else '?'}lang={lang}")
                page.evaluate("document.querySelectorAll('details').forEach(d => d.open = true)")
                cut[path] = page.evaluate(CUT_LABELS)
    finally:
        context.close()
    assert {path: found for path, found in cut.items() if found} == {}
