// Cards drawn as cards: HTML for the frame and the words, SVG for the emblems and pips, so
// that they stay crisp at any size (a card's width is the CSS variable --cw). Our own drawings.
import { _, el, svg } from "/static/i18n.js";
import { tip } from "/static/tips.js";
import { eventArt } from "/static/event-art.js";

// ------------------------------------------------------------------ shapes

/** The four suits as paths in a 20 × 20 box centred on (10, 10). */
const SUIT_PATHS = [
  // clubs: three leaves and a stem
  ["M10 1.6a3.9 3.9 0 0 1 3.1 6.3 3.9 3.9 0 1 1-1.6 6.1c.3 1.7 1 3 2.2 4.4H6.3c1.2-1.4 1.9-2.7 2.2-4.4a3.9 3.9 0 1 1-1.6-6.1A3.9 3.9 0 0 1 10 1.6z"],
  // diamonds
  ["M10 1 17 10 10 19 3 10z"],
  // hearts
  ["M10 17.8C4.2 13.4 1.5 10.2 1.5 6.6 1.5 4 3.5 2 6 2c1.8 0 3.2 1 4 2.4C10.8 3 12.2 2 14 2c2.5 0 4.5 2 4.5 4.6 0 3.6-2.7 6.8-8.5 11.2z"],
  // spades
  ["M10 1.4c3 4 8.2 6.9 8.2 10.6 0 2.5-2 4.2-4.2 4.2-1.4 0-2.5-.6-3.2-1.6.2 1.8.9 3 2.2 4.2H7c1.3-1.2 2-2.4 2.2-4.2-.7 1-1.8 1.6-3.2 1.6-2.2 0-4.2-1.7-4.2-4.2 0-3.7 5.2-6.6 8.2-10.6z"],
];

/** A suit symbol centred at (x, y), ``size`` wide, upside down when ``flip``. */
function suitShape(suit, x, y, size, flip) {
  const k = size / 20;
  const turn = flip ? ` rotate(180 10 10)` : "";
  return svg("g", { transform: `translate(${x - size / 2} ${y - size / 2}) scale(${k})${turn}` },
    SUIT_PATHS[suit].map((d) => svg("path", { d })));
}

/** A small SVG of one suit (for corners, headings and labels). */
export function suitIcon(suit, cls = "suit-icon") {
  return svg("svg", { class: `${cls} suit-${suit}`, viewBox: "0 0 20 20", "aria-hidden": "true", focusable: "false" },
    suitShape(suit, 10, 10, 20, false));
}

/** Take Stock's five emblems, in a 24 × 24 box: corn, gem, oil, tech, movie. */
const STOCK_EMBLEMS = [
  () => [ // an ear of corn with its leaves
    svg("path", { d: "M12 2.5c2.6 0 4 3.6 4 8.2s-1.6 10.8-4 10.8-4-6.2-4-10.8S9.4 2.5 12 2.5z" }),
    svg("path", { class: "cut", d: "M9 8h6M8.6 11h6.8M8.8 14h6.4M9.6 17h4.8M12 3.5v16" }),
    svg("path", { d: "M11 21.5C7 20 4.5 16 4.2 10.8 6.8 13 9.5 16.5 11 21.5zM13 21.5c4-1.5 6.5-5.5 6.8-10.7-2.6 2.2-5.3 5.7-6.8 10.7z" }),
  ],
  () => [ // a cut gem
    svg("path", { d: "M7 3h10l5 6.5L12 22 2 9.5z" }),
    svg("path", { class: "cut", d: "M2 9.5h20M7 3l2.6 6.5L12 22l2.4-12.5L17 3M9.6 9.5 12 3l2.4 6.5" }),
  ],
  () => [ // a drop of oil
    svg("path", { d: "M12 1.8S4.5 10.6 4.5 15.2a7.5 7.5 0 0 0 15 0C19.5 10.6 12 1.8 12 1.8z" }),
    svg("path", { class: "cut", d: "M8.2 14.6a3.8 3.8 0 0 0 3.6 4.6" }),
  ],
  () => [ // a chip with its pins
    svg("rect", { x: 6, y: 6, width: 12, height: 12, rx: 1.5 }),
    svg("path", { class: "pins", d: "M9 2.5v3.5M12 2.5v3.5M15 2.5v3.5M9 18v3.5M12 18v3.5M15 18v3.5M2.5 9H6M2.5 12H6M2.5 15H6M18 9h3.5M18 12h3.5M18 15h3.5" }),
    svg("rect", { class: "cut", x: 9, y: 9, width: 6, height: 6, rx: 0.8 }),
  ],
  () => [ // a film reel
    svg("circle", { cx: 12, cy: 12, r: 9.5 }),
    ...[[12, 6.5], [12, 17.5], [6.5, 12], [17.5, 12]].map(([cx, cy]) => svg("circle", { class: "hole", cx, cy, r: 2.4 })),
    svg("circle", { class: "hole", cx: 12, cy: 12, r: 1.1 }),
  ],
];

/** One stock's emblem as an SVG. */
export function stockEmblem(stock, cls = "emblem") {
  return svg("svg", { class: `${cls} stock-${stock}`, viewBox: "0 0 24 24", "aria-hidden": "true", focusable: "false" },
    STOCK_EMBLEMS[stock]());
}

// ------------------------------------------------------------------ Take Stock

/** The group of an event kind (docs/rules/take-stock.md's deck order). */
export function eventGroup(kind) {
  if (kind < 5) return "split";
  if (kind < 10) return "crash";
  if (kind < 15) return "insider";
  return ["audit", "freeze", "nochange", "upturn", "downturn", "gained", "lost", "marketcrash", "closed"][kind - 15];
}

/** The stock an event kind names, or null. */
export function eventStock(kind) {
  return kind < 15 ? kind % 5 : null;
}

/** What an event does, in a few words of the page's language. */
export function eventEffect(kind) {
  return {
    split: _("Multiplier +1; the row's top card is removed."),
    crash: _("Half its row, one split and any freeze are removed."),
    insider: _("Take up to three of its cards from the discards, discarding one for each."),
    audit: _("Remove a stock's top card or one of its splits."),
    freeze: _("Freeze a stock, or thaw a frozen one."),
    nochange: _("Nothing happens."),
    upturn: _("Every player draws a share card."),
    downturn: _("Every player discards a card, chosen in secret."),
    gained: _("Every player takes an option token."),
    lost: _("Every player gives back an option token."),
    marketcrash: _("Every stock crashes."),
    closed: _("The round ends at once."),
  }[eventGroup(kind)];
}

/** How many shares a Take Stock card holds, spelled for people ("Oil 7, two shares"). */
export function shareWords(card, n) {
  if (n === 1) return _("{card}, one share", { card });
  if (n === 2) return _("{card}, two shares", { card });
  if (n === 3) return _("{card}, three shares", { card });
  return _("{card}, {n} shares", { card, n });
}

/**
 * A Take Stock share card: its stock's colour, name, emblem, value and shares.
 * ``ctx`` has ``words`` (the server's names) and ``shares`` (shares by value).
 */
export function shareCard(ctx, id, opts = {}) {
  const stock = Math.floor(id / 12);
  const value = (id % 12) + 1;
  const n = ctx.shares[value] || 0;
  const name = ctx.words.cards[id];
  const node = cardNode(opts, `card ts-share stock-${stock}`, shareWords(name, n));
  node.dataset.card = String(id);
  node.dataset.key = `s${id}`;
  node.append(
    el("span", { class: "idx", "aria-hidden": "true" }, String(value)),
    el("span", { class: "stock-name", "aria-hidden": "true" }, ctx.words.stocks[stock]),
    stockEmblem(stock),
    el("span", { class: "big-value", "aria-hidden": "true" }, String(value)),
    el("span", { class: "shares", "aria-hidden": "true" },
      Array.from({ length: n }, () => svg("svg", { class: "share", viewBox: "0 0 10 10", focusable: "false" },
        svg("circle", { cx: 5, cy: 5, r: 4.2 })))),
  );
  return node;
}

/**
 * A Take Stock event card, face up: its picture, name and what it does, which also shows as its
 * tip (unless ``opts.tip`` is false: a card among others that share one tip).
 */
export function eventCard(ctx, kind, opts = {}) {
  const name = ctx.words.events[kind];
  const stock = eventStock(kind);
  const effect = eventEffect(kind);
  const said = _("{event}: {effect}", { event: name, effect });
  const node = cardNode(opts, `card ts-event ev-${eventGroup(kind)}${stock === null ? "" : ` stock-${stock}`}`, said);
  if (opts.tip !== false) tip(node, said);
  node.dataset.event = String(kind);
  node.append(
    el("span", { class: "ev-art", "aria-hidden": "true" }, eventArt(eventGroup(kind)),
      stock === null ? null : stockEmblem(stock, "ev-stock")),
    el("span", { class: "ev-name", "aria-hidden": "true" }, name),
    el("span", { class: "ev-effect", "aria-hidden": "true" }, effect),
  );
  return node;
}

// ------------------------------------------------------------------ playing cards

const RANKS = ["A", "2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K"];

/** The pips of ranks 1 to 10 on a 60 × 90 face: [x, y]. */
const PIPS = (() => {
  const L = 16, C = 30, R = 44;
  const rows4 = [14, 35, 55, 76];
  const out = { 1: [[C, 45]], 2: [[C, 14], [C, 76]], 3: [[C, 14], [C, 45], [C, 76]] };
  out[4] = [[L, 14], [R, 14], [L, 76], [R, 76]];
  out[5] = [...out[4], [C, 45]];
  out[6] = [...out[4], [L, 45], [R, 45]];
  out[7] = [...out[6], [C, 29.5]];
  out[8] = [...out[7], [C, 60.5]];
  out[9] = [...rows4.flatMap((y) => [[L, y], [R, y]]), [C, 45]];
  out[10] = [...rows4.flatMap((y) => [[L, y], [R, y]]), [C, 24.5], [C, 65.5]];
  return out;
})();

/** A playing card's rank word ("Ace", "7", "Queen"). */
export function rankWord(rank) {
  return { 1: _("Ace"), 11: _("Jack"), 12: _("Queen"), 13: _("King") }[rank] || String(rank);
}

/** A playing card in words for a screen reader ("7 of Spades", "Joker"). */
export function playingCardName(ctx, kind) {
  if (kind === 52) return _("Joker");
  return _("{rank} of {suit}", { rank: rankWord((kind % 13) + 1), suit: ctx.words.suits[Math.floor(kind / 13)] });
}

function face(suit, rank) {
  const letter = RANKS[rank - 1];
  const crown = {
    13: "M16 34l4-12 6 8 4-12 4 12 6-8 4 12z",
    12: "M18 34l2-9 5 5 5-11 5 11 5-5 2 9z",
    11: "M22 34V24l8-6 8 6v10l-8-3z",
  }[rank];
  return svg("svg", { class: "face", viewBox: "0 0 60 90", "aria-hidden": "true", focusable: "false" },
    svg("rect", { class: "frame", x: 7, y: 7, width: 46, height: 76, rx: 4 }),
    svg("path", { class: "crown", d: crown }),
    svg("text", { class: "face-letter", x: 30, y: 63, "text-anchor": "middle" }, letter),
    suitShape(suit, 15, 16, 9, false),
    suitShape(suit, 45, 74, 9, true));
}

function jokerFace(word) {
  return svg("svg", { class: "face", viewBox: "0 0 60 90", "aria-hidden": "true", focusable: "false" },
    svg("path", { class: "hat", d: "M10 52c4-14 10-24 20-28-6 6-8 14-8 24 4-12 10-20 8-36 6 10 8 22 0 40 6-8 14-12 20-12-6 4-10 10-10 20z" }),
    svg("circle", { class: "bell", cx: 30, cy: 10, r: 3.5 }), svg("circle", { class: "bell", cx: 10, cy: 50, r: 3.5 }),
    svg("circle", { class: "bell", cx: 52, cy: 38, r: 3.5 }),
    svg("text", { class: "joker-word", x: 30, y: 78, "text-anchor": "middle" }, word));
}

/** A playing card of Card Stock Market: rank and suit in the corners, pips or a face. */
export function playingCard(ctx, kind, opts = {}) {
  const node = cardNode(opts, "card pc", playingCardName(ctx, kind));
  node.dataset.card = String(kind);
  if (kind === 52) {
    node.classList.add("joker");
    node.append(el("span", { class: "corner tl", "aria-hidden": "true" }, "★"), jokerFace(_("Joker")),
      el("span", { class: "corner br", "aria-hidden": "true" }, "★"));
    return node;
  }
  const suit = Math.floor(kind / 13);
  const rank = (kind % 13) + 1;
  node.classList.add(`suit-${suit}`, rank > 10 ? "court" : "number");
  const corner = (cls) => el("span", { class: `corner ${cls}`, "aria-hidden": "true" },
    el("b", {}, RANKS[rank - 1]), suitIcon(suit, "corner-suit"));
  const body = rank > 10 ? face(suit, rank)
    : svg("svg", { class: "face", viewBox: "0 0 60 90", "aria-hidden": "true", focusable: "false" },
      PIPS[rank].map(([x, y]) => suitShape(suit, x, y, rank === 1 ? 26 : 13, y > 50)));
  node.append(corner("tl"), body, corner("br"));
  return node;
}

// ------------------------------------------------------------------ backs and frames

/** A face-down card (``kind``: "share", "event" or "deck"), with a count when given. */
export function cardBack(kind, count, label, opts = {}) {
  const node = cardNode(opts, `card back back-${kind}`, label);
  if (count !== undefined && count !== null) node.append(el("span", { class: "count", "aria-hidden": "true" }, String(count)));
  return node;
}

/**
 * The card's element: a button when ``opts.onPick`` is given (a choice), otherwise an
 * image with its accessible name. ``opts.cls`` adds classes.
 */
function cardNode(opts, cls, label) {
  const interactive = Boolean(opts.onPick);
  const name = opts.ariaLabel || label;
  // A card without a name (one back of a counted row) is drawing only: its group names it.
  const node = el(interactive ? "button" : "div", {
    class: `${cls}${opts.cls ? ` ${opts.cls}` : ""}`,
    type: interactive ? "button" : null,
    role: interactive || !name ? null : "img",
    "aria-label": name || null,
    "aria-hidden": interactive || name ? null : "true",
    title: opts.title || null,
  });
  if (interactive) {
    node.classList.add("playable");
    if (opts.target) node.dataset.target = opts.target;
    node.addEventListener("click", (event) => { event.stopPropagation(); opts.onPick(node, event); });
    if (opts.onFocus) {
      node.addEventListener("focus", () => opts.onFocus(node));
      node.addEventListener("mouseenter", () => opts.onFocus(node));
      node.addEventListener("blur", () => opts.onBlur && opts.onBlur(node));
      node.addEventListener("mouseleave", () => opts.onBlur && opts.onBlur(node));
    }
  }
  return node;
}
