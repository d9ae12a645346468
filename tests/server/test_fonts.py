"""Chinese is drawn as Chinese, not as empty boxes, in Debian's Chromium.

Chromium draws a character that no installed font has as the fallback font's "missing
glyph" box (tofu), the same box for every such character. The check draws each Chinese
character the page shows, in the font of the element showing it, on a canvas, and compares
its pixels with those of code points that no font has: tofu draws them alike. A second
test hides every Chinese font from Chromium (a fontconfig file that rejects them) and sees
the check catch the boxes, so the check cannot pass vacuously. ``scripts/test.sh``
installs Debian's ``fonts-noto-cjk``.
"""

from __future__ import annotations

import os
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import sync_playwright

from tests.server.helpers import live_server
from tests.server.test_browser import ARGS, CHROMIUM

NO_GLYPH = ["\ue000", "\u0378", "\U0010fffd"]
"""Code points that no font draws: private use, unassigned, and the last private use."""

PAGE_CHINESE = r"""() => {
  // Each Chinese character shown, with the font family of the element that shows it.
  const seen = new Map();
  const walk = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
  for (let node = walk.nextNode(); node; node = walk.nextNode()) {
    const family = getComputedStyle(node.parentElement).fontFamily;
    for (const ch of node.data.match(/[\u4e00-\u9fff]/g) || []) {
      if (!seen.has(ch)) seen.set(ch, family);
    }
  }
  return [...seen].slice(0, 16);
}"""

DRAW = """([chars, family]) => {
  // Each character drawn alone at 32px: [width, inked pixels, a hash of its pixels].
  const canvas = document.createElement('canvas');
  canvas.width = canvas.height = 64;
  const g = canvas.getContext('2d', { willReadFrequently: true });
  g.font = `32px ${family}`;
  g.textBaseline = 'top';
  return chars.map((ch) => {
    g.clearRect(0, 0, 64, 64);
    g.fillText(ch, 4, 4);
    const alpha = g.getImageData(0, 0, 64, 64).data;
    let ink = 0, hash = 0;
    for (let i = 3; i < alpha.length; i += 4) {
      if (alpha[i]) ink++;
      hash = (Math.imul(hash, 31) + alpha[i]) >>> 0;
    }
    return [g.measureText(ch).width, ink, hash];
  });
}"""

REJECT_CHINESE_FONTS = """<?xml version="1.0"?>
<!DOCTYPE fontconfig SYSTEM "urn:fontconfig:fonts.dtd">
<fontconfig>
  <include ignore_missing="no">/etc/fonts/fonts.conf</include>
  <selectfont><rejectfont>
    <pattern><patelt name="lang"><string>zh-tw</string></patelt></pattern>
  </rejectfont></selectfont>
</fontconfig>
"""
"""The system's fontconfig setup less every font that covers Traditional Chinese."""


def tofu(page: Any) -> list[str]:
    """The Chinese characters shown on ``page`` that Chromium draws as missing-glyph boxes.

    Fails if the page shows no Chinese, or if the code points no font has are not drawn
    alike (then tofu cannot be told from them).
    """
    shown: list[tuple[str, str]] = page.evaluate(PAGE_CHINESE)
    assert len(shown) >= 4, f"the page shows too little Chinese to check: {shown}"
    boxes = []
    for family in sorted({family for _, family in shown}):
        chars = [ch for ch, f in shown if f == family]
        looks = page.evaluate(DRAW, [[*NO_GLYPH, *chars], family])
        references, drawn = looks[: len(NO_GLYPH)], looks[len(NO_GLYPH) :]
        assert all(r == references[0] for r in references), (family, references)
        assert references[0][1] > 0, f"the missing-glyph box draws nothing in {family}"
        boxes += [ch for ch, look in zip(chars, drawn, strict=True) if look == references[0]]
    return boxes


@pytest.fixture(scope="module")
def lobby(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    """A server's lobby address (on SQLite: storage plays no part in fonts)."""
    url = f"sqlite:///{tmp_path_factory.mktemp('fonts') / 'web.db'}"
    with live_server(url) as (port, _):
        yield f"http://127.0.0.1:{port}/"


def lobby_in_chinese(lobby: str, env: dict[str, str] | None = None) -> list[str]:
    """The characters drawn as boxes on the lobby, in a browser set to Traditional Chinese."""
    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path=CHROMIUM, args=ARGS, env=env)
        try:
            page = browser.new_context(locale="zh-TW").new_page()
            page.goto(lobby)
            # A selector, not wait_for_function: the page's CSP forbids the eval it uses.
            page.wait_for_selector("html[lang='zh-Hant'] #create-table")
            return tofu(page)
        finally:
            browser.close()


def test_chinese_glyphs_are_drawn_not_boxes(lobby: str) -> None:
    assert lobby_in_chinese(lobby) == []


def test_the_check_sees_boxes_when_chromium_has_no_chinese_font(lobby: str, tmp_path: Path) -> None:
    config = tmp_path / "fonts.conf"
    config.write_text(REJECT_CHINESE_FONTS)
    boxes = lobby_in_chinese(lobby, {**os.environ, "FONTCONFIG_FILE": str(config)})
    assert len(boxes) >= 4, boxes
