"""The table drawn for people, in Debian's Chromium with Playwright: every counter and mark
explains itself (on hover, on the keyboard's focus, on a long press), the event cards have art
of their own at every size, and the market's moves are animated where they happen.

Tables start from positions (docs/positions.md) with bots in the other seats, so that each
counter is there to look at. Screenshots go where tests/server/test_browser.py puts its own.
"""

from __future__ import annotations

import json
import re
from typing import Any

from tests.server.a11y import assert_accessible
from tests.server.test_browser import (
    DESKTOP,
    PAGE_ERRORS,
    PHONE,
    SCREENSHOTS,
    _api,
    _context,
    _no_script_errors,
    _seat_in,
    _shot,
    _store,
    _version,
    _wait_until,
    browser,
    quick,
)

__all__ = ["_no_script_errors", "browser", "quick"]  # the fixtures, used here too

TIP = "document.getElementById('tip')"
SHOWN = f"({TIP} !== null && !{TIP}.hidden)"
YOURS = "document.body.classList.contains('your-turn')"

TAKE_STOCK = (
    "oil: 1 3 7 split split; gem: 1 4 freeze; tech: 1 5 8 split; movie: 1 3 split split split;"
    " saved: SplitCorn Upturn / NoChange / -; tokens: 4 / 2 / 3;"
    " certs: Oil9 Oil4 / Gem5 / -"
)
"""Seat 0's turn with splits, a freeze, saved events, tokens and certificates about."""
DOWNTURN = "turn: 2; decide: 0 downturn_discard waiting 0 1; aside: - / - / Oil5"
"""A Market Downturn: seat 2 has set a card aside, seats 0 and 1 are still to choose."""
CARD_STOCK_MARKET = (
    "market: 6C QC 8H 4S JS; bankrupt: C; hands: 7D QD 2S 3S 10C AH KH 4C / ... / ...;"
    " certs: 10H 2H / JS / 5C; cash: 0 / 0 / 1840; debts: 30 / 170 / 0; bank: 0"
)
"""A bankrupt suit, debts from two levies, an empty bank."""

TAKE_STOCK_COUNTERS = {
    "option tokens": "#others .tokens",
    "a hidden hand": "#others .backs",
    "saved events": "#others .backs >> nth=1",
    "a certificate group": "#others .cert-sum",
    "worth now": "#others .worth",
    "score": "#others .score",
    "the dealer": ".chip-dealer",
    "a seat's number": "#others .seat-no",
    "you": ".chip-you",
    "your turn": ".chip-turn",
    "cards in hand": "#mine .in-hand",
    "the round": ".market-head .round",
    "a price": ".row.stock-2 .row-head",
    "splits": ".row.stock-2 .splits",
    "the freeze": ".freeze-card",
    "the draw pile": ".pile[data-zone='draw']",
    "the discard pile": ".pile[data-zone='discard']",
    "the event pile": ".pile[data-zone='events']",
    "the event discards": ".pile[data-zone='event-discard']",
    "the tokens in the box": ".pile.supply",
    "a saved event card": "#mine .saved .card",
}
DOWNTURN_COUNTERS = {"still to choose": ".chip-waiting", "set aside": "#others .aside"}
CARD_STOCK_MARKET_COUNTERS = {
    "a hidden hand": "#others .backs",
    "cash": "#others .cash",
    "debt": "#others .debt",
    "a certificate group": "#others .cert-sum",
    "score": "#mine .score",
    "the dealer and bank": ".chip-dealer",
    "the turn": ".market-head .round",
    "a price": ".suit-pile.suit-1 .price",
    "the strip": ".suit-pile.suit-1 .strip",
    "bankrupt": ".chip-bust",
    "a market pile's cards": ".suit-pile.suit-1 .pile-label",
    "the draw pile": ".pile[data-zone='draw']",
    "the discard pile": ".pile[data-zone='discard']",
    "the bank": ".bank .pile-label",
    "the levies": ".bank .pile-label >> nth=1",
    "the jokers": ".pile.jokers",
}


def _practice(base: str, game: str, position: str, players: int = 3) -> tuple[str, str]:
    """A table from ``position`` with seat 0 open and bots beside it; its id and seat 0's token."""
    seats = ["open"] + ["easy"] * (players - 1)
    table = _api(base, "/api/tables", {"game": game, "seats": seats, "position": position})
    tid = table["table"]["id"]
    return tid, _api(base, f"/api/tables/{tid}/join", {"name": "Ana", "seat": 0})["token"]


def _open(context: Any, base: str, tid: str, token: str) -> Any:
    _seat_in(context, tid, 0, token)
    page = context.new_page()
    page.goto(f"{base}/t/{tid}")
    page.wait_for_selector(".market")
    return page


def _tip(page: Any) -> dict[str, Any]:
    """The tooltip as it is now: shown or not, its text, its box."""
    return page.evaluate(  # type: ignore[no-any-return]
        f"""(() => {{ const t = {TIP}; if (!t || t.hidden) return {{ shown: false }};
        const r = t.getBoundingClientRect(); const box = [r.left, r.top, r.right, r.bottom];
        return {{ shown: true, text: t.innerText, box }}; }})()"""
    )


FIND = """(selector) => {
  // What Playwright's "css >> nth=k" finds: the k-th match of the CSS (the first without one).
  const [css, nth] = selector.split(" >> nth=");
  return document.querySelectorAll(css)[Number(nth || 0)] || null;
}"""
"""The element a counter's selector names, found in the page."""

TIED = f"""async ([selector, limit]) => {{
  // Once the tooltip shows (within ``limit`` ms): what it says and covers, and what the
  // counter says and is described by, in one look.
  const node = ({FIND})(selector);
  const end = performance.now() + limit;
  while (!{SHOWN}) {{
    if (performance.now() > end) return null;
    await new Promise((done) => setTimeout(done, 15));
  }}
  const t = {TIP}.getBoundingClientRect(), n = node.getBoundingClientRect();
  return {{ text: {TIP}.innerText, tip: [t.left, t.top, t.right, t.bottom],
    box: [n.left, n.top, n.right, n.bottom], said: node.getAttribute("data-tip"),
    describedBy: node.getAttribute("aria-describedby") || "" }};
}}"""
"""Wait for the tooltip and read it and its counter together (see ``_check_tip``)."""


def _check_tip(page: Any, selector: str, kind: str, how: str) -> str:
    """``selector``'s tooltip is shown, says its ``data-tip``, is tied to it and covers it not."""
    where = f"{kind} ({selector}) on {how}"
    seen = page.evaluate(TIED, [selector, 5000])
    assert seen is not None, f"no tooltip for {where}"
    said = seen["said"]
    assert said and seen["text"].startswith(said), where
    assert "tip" in seen["describedBy"].split(), where
    left, top, right, bottom = seen["tip"]
    x0, y0, x1, y1 = seen["box"]
    apart = right <= x0 + 1 or left >= x1 - 1 or bottom <= y0 + 1 or top >= y1 - 1
    assert apart, f"the tooltip of {where} covers it"
    return str(said)


POINT = f"""(selector) => {{
  // The counter brought into view; where a pointer rests on it, and whether it would rest
  // on that very element there (nothing drawn over it).
  const node = ({FIND})(selector);
  if (!node) return null;
  node.scrollIntoView({{ block: "center", inline: "center" }});
  const box = node.getBoundingClientRect();
  const x = box.left + box.width / 2, y = box.top + box.height / 2;
  const hit = document.elementFromPoint(x, y);
  return {{ x, y, onTop: box.width > 0 && box.height > 0 && !!hit && node.contains(hit) }};
}}"""
"""Aim the pointer at a counter (see ``_hover_and_focus``)."""

FOCUS = f"""(selector) => {{
  // Whether the keyboard reaches the counter (it is focusable, or a control already); focus it.
  const node = ({FIND})(selector);
  const reached = node.tabIndex >= 0;
  node.focus();
  return reached;
}}"""

LEFT = f"""(selector) => {{
  // After Escape: whether the tooltip still shows and the counter is still tied to it; blur.
  const node = ({FIND})(selector);
  const left = {{ shown: {SHOWN}, describedBy: node.getAttribute("aria-describedby") || "" }};
  node.blur();
  return left;
}}"""


def _hover_and_focus(page: Any, counters: dict[str, str]) -> dict[str, str]:
    """Every counter's tooltip on hover, then on the keyboard's focus; what each said.

    The pointer rests where the counter is drawn, aimed by a script in the page as
    ``_press`` aims (Playwright's own hover when something covers it).
    """
    said = {}
    for kind, selector in counters.items():
        aim = page.evaluate(POINT, selector)
        assert aim is not None, f"no {kind} ({selector}) on the table"
        if aim["onTop"]:
            page.mouse.move(aim["x"], aim["y"])
        else:
            page.locator(selector).first.hover()
        said[kind] = _check_tip(page, selector, kind, "hover")
        page.mouse.move(2, 2)
        _wait_until(page, f"!{SHOWN}", 5)
        # The keyboard reaches it (it is focusable, or a control already) and shows the same.
        assert page.evaluate(FOCUS, selector), kind
        assert _check_tip(page, selector, kind, "focus") == said[kind]
        page.keyboard.press("Escape")
        left = page.evaluate(LEFT, selector)
        assert not left["shown"], f"Escape leaves the tooltip of {kind}"
        assert "tip" not in left["describedBy"]
    return said


def test_every_counter_explains_itself_on_hover_and_focus(browser: Any, quick: str) -> None:
    """Take Stock's and Card Stock Market's counters and marks, in English and in Chinese."""
    context = _context(browser, DESKTOP)
    chinese = _context(browser, DESKTOP, "zh-Hant")
    try:
        tid, token = _practice(quick, "take_stock", TAKE_STOCK)
        page = _open(context, quick, tid, token)
        said = _hover_and_focus(page, TAKE_STOCK_COUNTERS)
        assert said["option tokens"].startswith("Option tokens: 2.")
        assert said["a hidden hand"].startswith("Cards in Easy 2's hand: ")
        assert said["a price"] == (
            "Oil's price: its top card, 7, × 3, one more than its splits."
            " A card 1 to 4 above the top card raises it; an 11 or a 12 ends the round."
        )
        assert said["a certificate group"] == "Gem: 1 share × price 4 = 4 at today's price."
        assert said["splits"].startswith("Splits on Oil: 2.")
        assert said["the freeze"].startswith("Gem is frozen: ")
        assert len(set(said.values())) == len(said), "two kinds of counter say the same"
        page.locator(TAKE_STOCK_COUNTERS["option tokens"]).first.hover()
        _wait_until(page, SHOWN, 5)
        assert_accessible(page, "Take Stock with a tooltip open")
        page.locator(
            TAKE_STOCK_COUNTERS["option tokens"]
        ).first.focus()  # stays while the page is pictured
        _shot(page, "tooltip-take-stock-en-desktop")

        tid, token = _practice(quick, "take_stock", DOWNTURN)
        page = _open(context, quick, tid, token)
        said = _hover_and_focus(page, DOWNTURN_COUNTERS)
        assert said["set aside"].startswith("Cards Easy 3 set aside face down: 1.")

        tid, token = _practice(quick, "card_stock_market", CARD_STOCK_MARKET)
        page = _open(chinese, quick, tid, token)
        said = _hover_and_focus(page, CARD_STOCK_MARKET_COUNTERS)
        for kind, text in said.items():
            english = set(re.findall(r"[A-Za-z]{3,}", text))
            assert not english, f"{kind} says {text!r} on the Chinese page"
        assert (
            said["the strip"]
            == "漲跌幅表：一張數字牌最多讓方塊的股價漲 $3 或跌 $3。人頭牌上面可以蓋任何數字牌。"
        )
        page.locator(CARD_STOCK_MARKET_COUNTERS["the strip"]).first.hover()
        _wait_until(page, SHOWN, 5)
        assert_accessible(page, "Card Stock Market with a tooltip open")
        page.locator(
            CARD_STOCK_MARKET_COUNTERS["the strip"]
        ).first.focus()  # stays while the page is pictured
        _shot(page, "tooltip-card-stock-market-zh-desktop")
    finally:
        context.close()
        chinese.close()


def test_an_absent_player_and_the_bot_that_stands_in_are_explained(
    browser: Any, quick: str
) -> None:
    context = _context(browser, DESKTOP)
    try:
        for clock in (None, 0.5):
            body = {
                "game": "take_stock",
                "seats": ["open", "open"],
                "options": {"rounds": 1, "first_dealer": 0},
            }
            if clock:
                body["clock"] = clock
            tid = _api(quick, "/api/tables", body)["table"]["id"]
            ana = _api(quick, f"/api/tables/{tid}/join", {"name": "Ana", "seat": 0})
            _api(quick, f"/api/tables/{tid}/join", {"name": "Bo", "seat": 1})
            page = _open(context, quick, tid, ana["token"])
            if clock is None:
                # Bo never comes: he is away, and the game waits for him.
                said = _hover_and_focus(page, {"away": ".chip-away"})
                assert said["away"] == "Bo is not connected just now: their seat waits for them."
            else:
                # With a turn clock, a bot plays Bo's turns once his clock has run.
                stand_in = "document.querySelector('.chip-away[data-tip*=bot]') !== null"
                _wait_until(page, stand_in, 20)
                _wait_until(page, YOURS, 20)  # the bot has played Bo's turn: the table rests
                said = _hover_and_focus(page, {"stand-in": ".chip-away"})
                assert said["stand-in"] == (
                    "Bo has left the table: a bot plays their turns until they come back."
                )
            page.close()
    finally:
        context.close()


def _touch_context(browser: Any, lang: str) -> Any:
    """A phone that is touched, in ``lang``, with movement off (as ``_context``)."""
    context = browser.new_context(
        viewport=PHONE, has_touch=True, is_mobile=True, reduced_motion="reduce"
    )
    _store(context, "closingbell.lang", lang)
    context.on("weberror", lambda e: PAGE_ERRORS.append(str(e.error)))
    return context


def _long_press(page: Any, selector: str, hold: int = 700) -> None:
    """Hold a finger on ``selector``'s middle for ``hold`` milliseconds, then lift it."""
    node = page.locator(selector).first
    node.scroll_into_view_if_needed()
    box = node.bounding_box()
    point = {"x": box["x"] + box["width"] / 2, "y": box["y"] + box["height"] / 2}
    cdp = page.context.new_cdp_session(page)
    cdp.send("Input.dispatchTouchEvent", {"type": "touchStart", "touchPoints": [point]})
    page.wait_for_timeout(hold)
    cdp.send("Input.dispatchTouchEvent", {"type": "touchEnd", "touchPoints": []})
    page.wait_for_timeout(150)
    cdp.detach()


def test_a_long_press_explains_without_choosing(browser: Any, quick: str) -> None:
    """On a phone a finger held on a counter, or on a card that is a choice, shows its tip and
    chooses nothing; the next touch elsewhere hides it; a short tap still chooses."""
    for lang in ("en", "zh-Hant"):
        context = _touch_context(browser, lang)
        try:
            tid, token = _practice(quick, "take_stock", TAKE_STOCK)
            page = _open(context, quick, tid, token)
            _wait_until(page, "document.body.classList.contains('your-turn')")
            _long_press(page, "#others .tokens")
            _check_tip(page, "#others .tokens", "option tokens", "a long press")
            card = "#mine .saved .card.playable"
            assert page.locator(card).count() == 2
            version = _version(page)
            _long_press(page, card)
            _check_tip(page, card, "a saved event card", "a long press")
            assert page.locator("#decision .menu").count() == 0, "the long press chose the card"
            assert page.locator(".card.selected").count() == 0
            assert _version(page) == version
            assert_accessible(page, f"a phone with a tooltip open ({lang})")
            _shot(page, f"tooltip-take-stock-{lang}-phone")
            page.touchscreen.tap(5, 300)
            _wait_until(page, f"!{SHOWN}", 5)
            # A short tap is a choice as before.
            page.locator(card).first.scroll_into_view_if_needed()
            box = page.locator(card).first.bounding_box()
            page.touchscreen.tap(box["x"] + box["width"] / 2, box["y"] + box["height"] / 2)
            page.wait_for_selector("#decision .menu")
            assert not _tip(page)["shown"]
        finally:
            context.close()


# ---------------------------------------------------------------------- the event cards

EVENT_KINDS = [0, 5, 10, 15, 16, 17, 18, 19, 20, 21, 22, 23]
"""One event of each group: split, crash, insider (of Corn), audit, freeze, no change,
upturn, downturn, option gained, option lost, market crash, market closed."""
GALLERY = """async (kinds) => {
  const { eventCard } = await import("/static/cards.js");
  const { el } = await import("/static/i18n.js");
  const lang = document.documentElement.lang;
  const words = await (await fetch(`/api/words/take_stock/${lang}`)).json();
  const ctx = { words, shares: words.shares };
  // Each place an event card is drawn on the table, as the board makes it.
  const tray = (size) => (cards) =>
    el("div", { class: "tray" }, el("div", { class: `tray-cards ${size}` }, cards));
  const places = {
    tray: tray("size-l"),
    playing: tray("size-m"),
    saved: (cards) => el("div", { class: "group saved size-s" }, cards),
    split: (cards) => el("div", { class: "row" },
      el("div", { class: "row-cards" }, el("div", { class: "splits" }, cards))),
    freeze: (cards) => el("div", { class: "row" }, el("div", { class: "row-cards" }, cards)),
  };
  const gallery = el("div", { id: "gallery", class: "market" });
  for (const [place, make] of Object.entries(places)) {
    const cls = { split: "split-card", freeze: "freeze-card" }[place] || "";
    const row = make(kinds.map((k) => eventCard(ctx, k, { cls, tip: false })));
    row.dataset.place = place;
    // Side by side, so that each can be seen whole (a row's splits overlap).
    for (const c of row.querySelectorAll(".card")) {
      c.style.setProperty("margin-left", "3px", "important");
    }
    gallery.append(row);
  }
  document.querySelector("#center").prepend(gallery);
  const box = (e) => {
    const r = e.getBoundingClientRect();
    return [r.left, r.top, r.right, r.bottom];
  };
  const shown = (e) => e.checkVisibility() && e.getBoundingClientRect().height > 0;
  const px = (e) => parseFloat(getComputedStyle(e).fontSize);
  return [...gallery.querySelectorAll(".card")].map((card) => {
    const art = card.querySelector(".ev-art .emblem");
    const name = card.querySelector(".ev-name");
    const effect = card.querySelector(".ev-effect");
    return {
      place: card.parentElement.closest("[data-place]").dataset.place,
      kind: Number(card.dataset.event),
      card: box(card),
      art: art ? box(art) : null,
      drawn: art ? art.querySelectorAll("path, circle, rect, ellipse").length : 0,
      scene: art ? art.innerHTML : "",
      name: shown(name) ? box(name) : null,
      effect: shown(effect) ? box(effect) : null,
      nameSize: px(name),
      effectSize: px(effect),
    };
  });
}"""


def _inside(inner: list[float], outer: list[float]) -> bool:
    return (
        inner[0] >= outer[0] - 0.5
        and inner[1] >= outer[1] - 0.5
        and inner[2] <= outer[2] + 0.5
        and inner[3] <= outer[3] + 0.5
    )


def test_every_event_card_has_its_own_picture_at_every_size(browser: Any, quick: str) -> None:
    """Each kind of event drawn in the tray, as the card being played, among the saved events,
    as a split in a row and as a freeze at a row's end: a picture of its own, of a good size,
    inside the card, with the name (and, in the tray, the effect) whole where there is room."""
    for size, lang in ((DESKTOP, "en"), (PHONE, "zh-Hant")):
        context = _context(browser, size, lang)
        where = f"{lang}, {size['width']} pixels"
        try:
            tid, token = _practice(quick, "take_stock", TAKE_STOCK)
            page = _open(context, quick, tid, token)
            cards = page.evaluate(GALLERY, EVENT_KINDS)
            assert len(cards) == 5 * len(EVENT_KINDS)
            for card in cards:
                what = f"event {card['kind']} in the {card['place']} ({where})"
                left, right = card["card"][0], card["card"][2]
                assert card["art"], what
                a_left, a_top, a_right, a_bottom = card["art"]
                # A picture of its own, at least half the card's width, within the card.
                assert card["drawn"] >= 3, what
                assert a_right - a_left >= 0.5 * (right - left) >= 10, what
                assert a_bottom - a_top >= 10, what
                assert _inside(card["art"], card["card"]), what
                if card["place"] in ("tray", "playing", "saved"):
                    assert card["name"] and _inside(card["name"], card["card"]), what
                    assert card["nameSize"] >= 9, what
                else:
                    assert card["name"] is None, what
                if card["place"] == "tray":
                    assert card["effect"] and _inside(card["effect"], card["card"]), what
                    assert card["effectSize"] >= 10, what
            for place in ("tray", "split", "freeze"):
                scenes = {c["scene"] for c in cards if c["place"] == place}
                assert len(scenes) == len(EVENT_KINDS), f"two kinds share a picture ({where})"
            SCREENSHOTS.mkdir(parents=True, exist_ok=True)
            shot = (
                SCREENSHOTS / f"event-cards-{lang}-{'desktop' if size is DESKTOP else 'phone'}.png"
            )
            page.locator("#gallery").screenshot(path=str(shot))
            # On the table: the freeze at a frozen row's end is a small card marked as one.
            freeze = page.locator(".row.frozen .freeze-card")
            card, art = freeze.bounding_box(), freeze.locator(".emblem").bounding_box()
            assert card["width"] <= 40 and art["width"] >= 0.6 * card["width"], (card, art)
            page.evaluate("document.getElementById('gallery').remove()")
            _shot(page, f"event-cards-table-{lang}-{'desktop' if size is DESKTOP else 'phone'}")
        finally:
            context.close()


# ---------------------------------------------------------------------- the market's moves

SEEN = """window.__seen = [];
const animate = Element.prototype.animate;
Element.prototype.animate = function (...a) {
  const id = a[1] && a[1].id ? ` #${a[1].id}` : "";
  window.__seen.push(String(this.className.baseVal ?? this.className) + id);
  return animate.apply(this, a);
};"""
"""Records what moves on the page: every Web Animation's element, and its name if it has one
(the table's every movement is a Web Animation)."""
MARKET = (
    "oil: 1 3 split; corn: 1 2 4; gem: 1 3 5;"
    " hands: Oil5 Oil6 Corn9 Gem9 Tech4 Movie5 Movie6 Corn3"
    " / Tech2 Tech3 Movie2 Movie3 Corn5 Gem4 Tech6;"
    " draw: Movie4 Tech5 Gem6 Corn6 Tech7 Movie7 ...; certs: Oil9 Oil4 / Gem7;"
    " saved: SplitCorn CrashGem / -; events: NoChange NoChange Upturn OptionGained OptionLost ..."
)
"""Two players: seat 0 may raise Oil (6 to 10, its certificates' worth from 18 to 30), split
Corn and crash Gem; the bot's cards and the events it may draw end no round meanwhile."""
MOVING = """(s) => [...document.querySelectorAll(s)].some(
  e => e.getAnimations().some(a => a.playState === 'running'))"""


def _choose(page: Any, target: str, action: int | None = None) -> None:
    """Click ``target`` and, if asked, the choice ``action`` of its menu; wait for the answer."""
    version = _version(page)
    page.locator(target).first.click()
    if action is not None:
        page.click(f"#decision .menu-choice[data-action='{action}']")
    _wait_until(page, f"Number(document.body.dataset.version) > {version}")


def _seen(page: Any) -> str:
    return "\n".join(page.evaluate("window.__seen"))


def test_the_market_moves_where_it_happens(browser: Any, quick: str) -> None:
    """A raise counts the row's price up with a flash and a glow, and the certificates' worth
    with it; a split is stamped on its row; a crash shakes its row. Nothing moves under
    reduced motion or with Movement turned off."""
    for how in ("on", "reduced motion", "Movement off"):
        context = _context(browser, DESKTOP, motion=how != "reduced motion")
        if how == "Movement off":
            _store(context, "closingbell.motion", "off")
        context.add_init_script(SEEN)
        try:
            tid, token = _practice(quick, "take_stock", MARKET, players=2)
            page = _open(context, quick, tid, token)
            _wait_until(page, YOURS)
            _choose(page, "#mine .hand [data-card='28']", 28)  # raise Oil with Oil 5
            price = ".row.stock-2 .price"
            if how == "on":
                _wait_until(page, f"({MOVING})({json.dumps(price)})", 5)
                assert "price #went-up" in _seen(page)
                _wait_until(page, f"({MOVING})('#mine .worth .stat-value')", 5)
            else:
                page.wait_for_timeout(400)
                assert not page.evaluate(f"({MOVING})({json.dumps(price)})"), how
            _wait_until(page, YOURS, 30)
            page.mouse.click(3, 3)  # finishes whatever still moves
            # The counts end at the values drawn.
            ended = f"[...document.querySelectorAll({json.dumps(price)})].every("
            ended += "e => e.textContent === e.dataset.price.split(':')[1])"
            _wait_until(page, ended, 2)
            _choose(page, "[data-target='saved:0']", 182)  # play Split Corn ...
            _choose(page, "#mine .hand .playable")  # ... for a discard
            _wait_until(page, YOURS, 30)
            _choose(page, "[data-target='saved:6']", 188)  # play Crash Gem ...
            _choose(page, "#mine .hand .playable")
            if how == "on":  # the crash's movement starts once the page has drawn the answer
                _wait_until(page, "window.__seen.some((s) => s.endsWith('#went-down'))", 5)
            else:
                page.wait_for_timeout(300)
            seen = _seen(page)
            if how == "on":
                assert "price #went-up" in seen
                assert "row stock-2" in seen and "stat-value" in seen
                assert "split-card" in seen and "row stock-0" in seen  # the split, stamped
                assert "price #went-down" in seen and "row stock-1" in seen
            else:
                assert "price" not in seen and "row " not in seen and "split-card" not in seen, (
                    how,
                    seen,
                )
        finally:
            context.close()


BANKRUPTCY = (
    "market: 6C 8D 8H 4S; hands: QD 2S 3S 10C AH KH 4C 5C / ... / ...;"
    " certs: - / 7D 2D / 5C; cash: 200 / 150 / 200"
)
"""Seat 0 may bankrupt Diamonds with its queen, which wipes out seat 1's certificates."""


def test_a_bankruptcy_shakes_its_pile_and_its_certificates_fall(browser: Any, quick: str) -> None:
    context = _context(browser, DESKTOP, motion=True)
    context.add_init_script(SEEN)
    try:
        tid, token = _practice(quick, "card_stock_market", BANKRUPTCY)
        page = _open(context, quick, tid, token)
        _wait_until(page, YOURS)
        queen = "#mine .hand [data-card='24']"
        page.locator(queen).click()
        bankrupt = page.locator("#decision .menu-choice[data-action='160']")  # 156 + 3 × 1 + 1
        version = _version(page)
        bankrupt.click()
        _wait_until(page, f"Number(document.body.dataset.version) > {version}")
        _wait_until(page, f"({MOVING})('.suit-pile.suit-1')", 5)
        page.wait_for_timeout(300)
        seen = _seen(page)
        assert "suit-pile suit-1" in seen  # the pile shakes and glows
        assert "chip chip-bust" in seen  # "bankrupt" is stamped on it
        assert "price #went-down" in seen
        assert seen.count("ghost") >= 2  # both certificates of Diamonds fall to the discards
        _shot(page, "bankruptcy-en-desktop")
    finally:
        context.close()


BOARD = """() => ['#others', '#center', '#mine'].map((s) => {
  const copy = document.querySelector(s).cloneNode(true);
  // What the pointer's place adds for a moment: a tip's link and a previewed zone.
  copy.querySelectorAll('[aria-describedby]').forEach((e) => e.removeAttribute('aria-describedby'));
  copy.querySelectorAll('.previewed').forEach((e) => e.classList.remove('previewed'));
  return copy.outerHTML;
})"""
"""The board as drawn: the other players, the middle of the table and the player's own area."""


def test_a_new_drawing_changes_only_what_changed(browser: Any, quick: str) -> None:
    """Each message is drawn in place: the market's rows stay the same elements, their
    prices and cards change, and the table then reads exactly as a fresh page draws it."""
    context, fresh = _context(browser, DESKTOP), _context(browser, DESKTOP)
    try:
        tid, token = _practice(quick, "take_stock", MARKET, players=2)
        page = _open(context, quick, tid, token)
        _wait_until(page, YOURS)
        page.evaluate(
            "document.querySelectorAll('.market .row').forEach((r, i) => { r.kept = i; })"
        )
        before = page.locator(".row.stock-2 .price").inner_text()
        _choose(page, "#mine .hand [data-card='28']", 28)  # raise Oil with Oil 5
        _wait_until(page, YOURS, 30)
        kept = page.evaluate("[...document.querySelectorAll('.market .row')].map((r) => r.kept)")
        assert kept == [0, 1, 2, 3, 4]
        assert (before, page.locator(".row.stock-2 .price").inner_text()) == ("6", "10")
        again = _open(fresh, quick, tid, token)
        _wait_until(again, YOURS)
        assert _version(again) == _version(page)
        page.mouse.move(1, 1)
        assert page.evaluate(BOARD) == again.evaluate(BOARD)
    finally:
        context.close()
        fresh.close()
