"""Prose pages that run long (a wordier language) shrink to fit, the same in PDF and HTML."""

from __future__ import annotations

import io

import pytest
from pypdf import PdfReader

from kit.errors import LayoutError
from kit.paper import paper
from kit.plan import KitPlan, Prose
from kit.prose import LEAST_SCALE, ProseJob, Rendered, _render_one, fit_style
from kit.render import Sheet, _section, faces_used, stylesheet


def job(paragraphs: int) -> ProseJob:
    sheet = paper("a4")
    plan = KitPlan("x", "Game", (), "banner")
    text = "<p>" + "Words that run on and on, as a longer language would. " * 12 + "</p>"
    prose = Prose("_lorem.html", {"text": text * paragraphs})
    page = Sheet("Long page", "player", False, sheet, (), prose=prose)
    faces = faces_used(plan, [page])
    return ProseJob(stylesheet(plan, sheet, faces), _section(plan, page, True), page.label,
                    sheet.body)


@pytest.fixture(autouse=True)
def lorem_template(monkeypatch: pytest.MonkeyPatch) -> None:
    """A template that prints whatever text the test gives it."""
    from jinja2 import ChoiceLoader, DictLoader

    from kit import render

    env = render.environment("en")
    monkeypatch.setattr(env, "loader", ChoiceLoader([DictLoader({
        "_lorem.html": "{{ p.text|safe }}"}), env.loader]))


def test_text_that_fits_keeps_its_size() -> None:
    assert _render_one(job(2)).scale == 1.0


def test_text_a_little_too_long_shrinks_to_fit() -> None:
    rendered = _render_one(job(9))  # about 25 mm too long
    assert LEAST_SCALE <= rendered.scale < 1.0
    (page,) = PdfReader(io.BytesIO(rendered.pdf)).pages
    assert "Words that run on" in page.extract_text()
    assert Rendered.unpack(rendered.pack()) == rendered  # what the cache keeps


def test_text_far_too_long_is_an_error() -> None:
    with pytest.raises(LayoutError) as caught:
        _render_one(job(30))
    assert "even with its text at the smallest legible size" in str(caught.value)


def test_the_html_gets_the_same_scale() -> None:
    body = paper("a4").body
    style = fit_style(0.93, body)
    assert "transform: scale(0.93)" in style
    assert f"width: {body.w / 0.93:.3f}mm" in style
    assert fit_style(1.0, body) == ""


RENDERER = """
import sys
sys.path.insert(0, "tests/kit")
from jinja2 import ChoiceLoader, DictLoader
from kit import render
from kit.errors import LayoutError
from kit.prose import Renderer, start
env = render.environment("en")
env.loader = ChoiceLoader([DictLoader({"_lorem.html": "{{ p.text|safe }}"}), env.loader])
from test_prose_fit import job

with Renderer(2) as renderer:  # stopped at once, while it may still be importing
    assert renderer.child is not None
    child = renderer.child
print("idle stop", child.process.exitcode is not None and renderer.child is None)
jobs = [job(2), job(9), job(3)]
with Renderer(2) as renderer:
    forked = start(jobs, None, renderer).result()
here = start(jobs, None).result()
print("same", forked == here, len(here))
try:
    with Renderer(2) as renderer:
        start([job(2), job(30)], None, renderer).result()
except LayoutError as exc:
    print("error", exc)
"""


def test_the_renderer_process_gives_the_same_pages_and_errors(tmp_path) -> None:
    """Pages rendered in the forked renderer (over two processes) are the bytes this process
    renders; a page that cannot fit is the same one-line error; a renderer stopped before it
    was sent pages stops (it once waited for ever); nothing is left in the temp folder."""
    import os
    import subprocess
    import sys

    from support.helpers import ROOT

    temp = tmp_path / "tmp"
    temp.mkdir()
    env = {**os.environ, "TMPDIR": str(temp)}
    run = subprocess.run([sys.executable, "-c", RENDERER], cwd=ROOT, env=env, timeout=120,
                         capture_output=True, text=True)
    assert run.returncode == 0, run.stderr
    lines = run.stdout.splitlines()
    # a renderer that hung here would run into the subprocess's timeout and fail the test
    assert lines[0] == "idle stop True"
    assert lines[1] == "same True 3"
    assert lines[2].startswith("error layout: the page “Long page” runs ")
    assert lines[2].endswith("even with its text at the smallest legible size")
    assert list(temp.iterdir()) == []
