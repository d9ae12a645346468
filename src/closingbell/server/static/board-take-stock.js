// Take Stock's board: the market in the middle, the other players around it, your area with
// your hand at the bottom. It draws a view (never a state) and asks ``ctx.pick(key)`` which
// cards, rows and piles are choices; the table page does the rest (see table.js).
import { _, el, num } from "/static/i18n.js";
import { cardBack, eventCard, shareCard, stockEmblem } from "/static/cards.js";
import { backs, cardsInHand, handLabel, count, fan, group, othersInOrder, seatArea, stat } from "/static/board-common.js";
import { tip } from "/static/tips.js";

const STOCKS = 5;

/** The legal action ``id`` as a place on the board (docs: take_stock/actions.py's table). */
export function decode(id, view) {
  if (id < 60) return { target: `hand:${id}`, verb: "raise", zone: `row-${Math.floor(id / 12)}` };
  if (id < 120) return { target: `hand:${id - 60}`, verb: "save", zone: `seat-${view.seat}` };
  if (id < 180) return { target: `hand:${id - 120}`, verb: "discard", zone: "discard" };
  if (id < 182) return { target: null, verb: "market", zone: "events" };
  if (id < 206) return { target: `saved:${id - 182}`, verb: "play", zone: null };
  if (id < 230) return { target: `drawn:${id - 206}`, verb: "choose", zone: null };
  if (id < 235) return { target: `row:${id - 230}`, verb: "audit", zone: `row-${id - 230}` };
  if (id === 235) return { target: `top:${view.event_stock}`, verb: "audit-what", zone: `row-${view.event_stock}` };
  if (id === 236) return { target: `split:${view.event_stock}`, verb: "audit-what", zone: `row-${view.event_stock}` };
  if (id < 242) return { target: `row:${id - 237}`, verb: "freeze", zone: `row-${id - 237}` };
  if (id < 302) return { target: `pile:${id - 242}`, verb: "retrieve", zone: `seat-${view.seat}` };
  if (id === 302) return { target: null, verb: "stop", zone: null };
  if (id < 363) return { target: `hand:${id - 303}`, verb: "exercise", zone: `seat-${view.seat}` };
  return { target: null, verb: "stop", zone: null };
}

function certificates(ctx, view, seat, size) {
  const cards = view.certificates[seat];
  // What one share of each stock scores now, as the rules work it out (frozen scoring too).
  const p = view.scoring_prices;
  const out = el("div", { class: `certs size-${size}`, "data-zone": `certs-${seat}` });
  for (let s = 0; s < STOCKS; s++) {
    const mine = cards.filter((c) => Math.floor(c / 12) === s).sort((a, b) => a - b);
    if (!mine.length) continue;
    const shares = mine.reduce((n, c) => n + (ctx.shares[(c % 12) + 1] || 0), 0);
    const summary = count(shares, _("{stock}: {n} share, worth {worth} now", { stock: ctx.words.stocks[s], n: shares, worth: num(shares * p[s]) }), _("{stock}: {n} shares, worth {worth} now", { stock: ctx.words.stocks[s], n: shares, worth: num(shares * p[s]) }));
    out.append(el("div", { class: `cert-group stock-${s}`, role: "group", "aria-label": summary },
      el("div", { class: "fan-flat" }, mine.map((c) => shareCard(ctx, c))),
      tip(el("span", { class: "cert-sum", role: "img", "aria-label": summary },
        _("{n} sh", { n: shares }), " · ", el("b", {}, num(shares * p[s]))),
      count(shares, _("{name}: {n} share × price {price} = {worth} at today's price.", { name: ctx.words.stocks[s], n: 1, price: num(p[s]), worth: num(shares * p[s]) }),
        _("{name}: {n} shares × price {price} = {worth} at today's price.", { name: ctx.words.stocks[s], n: shares, price: num(p[s]), worth: num(shares * p[s]) })))));
  }
  if (!out.childElementCount) out.append(el("span", { class: "none" }, _("No certificates yet")));
  return out;
}

function tokens(n) {
  return tip(el("span", { class: "tokens", role: "img", "aria-label": count(n, _("{n} option token", { n }), _("{n} option tokens", { n })) },
    el("span", { class: "token", "aria-hidden": "true" }), el("span", { "aria-hidden": "true" }, `×${n}`)),
  _("Option tokens: {n}. When a round ends, each token spent adds a card from the hand to the certificates.", { n }));
}

const WORTH = () => _("What these certificates would score at today's prices: each card's shares × its stock's price, added up.");

/** The words around each seat's area in this game. */
function areaWords() {
  return {
    dealerTip: _("The dealer of this round: the player after the dealer took its first turn. The lowest total deals the next round."),
    scoreTip: _("Points from the rounds scored so far. A round pays each certificate's shares × its stock's closing price."),
  };
}

function opponent(ctx, view, seat) {
  const body = el("div", { class: "seat-body" },
    el("div", { class: "holdings" },
      backs(() => cardBack("share"), view.hand_sizes[seat], 6, cardsInHand(view.hand_sizes[seat]),
        _("Cards in {name}'s hand: {n}. Only they can see which.", { name: ctx.names[seat], n: view.hand_sizes[seat] })),
      view.saved_counts[seat]
        ? backs(() => cardBack("event"), view.saved_counts[seat], 3, count(view.saved_counts[seat], _("{n} saved event", { n: 1 }), _("{n} saved events", { n: view.saved_counts[seat] })),
          _("Events {name} saved: {n}, face down, to play on a later turn.", { name: ctx.names[seat], n: view.saved_counts[seat] }))
        : null,
      view.hidden_counts[seat]
        ? tip(el("span", { class: "aside" }, _("{n} set aside", { n: view.hidden_counts[seat] })),
          _("Cards {name} set aside face down: {n}. They are shown once everyone has chosen.", { name: ctx.names[seat], n: view.hidden_counts[seat] }))
        : null,
      tokens(view.tokens[seat]),
      stat(_("Worth now"), num(view.worth[seat]), "worth", WORTH())),
    certificates(ctx, view, seat, "xs"));
  return seatArea(ctx, seat, { dealer: view.dealer, score: view.scores[seat], body, ...areaWords() });
}

function row(ctx, view, s) {
  const r = view.stocks[s];
  const pick = ctx.pick(`row:${s}`);
  const top = r.cards[r.cards.length - 1];
  const mult = r.splits + 1;
  const described = [
    _("{stock}: price {price}", { stock: ctx.words.stocks[s], price: r.price }),
    r.splits ? _("{top} × {mult}", { top, mult }) : null,
    r.frozen ? _("frozen") : null,
  ].filter(Boolean).join(_(", "));
  const headAttrs = { class: pick ? "row-head playable" : "row-head", "aria-label": pick ? `${described}. ${pick.label}` : described, "data-target": pick ? pick.target : null };
  const explained = [
    r.splits
      ? _("{stock}'s price: its top card, {top}, × {mult}, one more than its splits.", { stock: ctx.words.stocks[s], top, mult })
      : _("{stock}'s price: its top card, {top}.", { stock: ctx.words.stocks[s], top }),
    r.frozen
      ? _("Frozen: it cannot be raised or audited, and a split played on it is wasted.")
      : _("A card 1 to 4 above the top card raises it; an 11 or a 12 ends the round."),
  ].join(" ");
  const head = tip(el(pick ? "button" : "div", pick ? { ...headAttrs, type: "button" } : { ...headAttrs, role: "img" },
    stockEmblem(s, "row-emblem"),
    el("span", { class: "row-name", "aria-hidden": "true" }, ctx.words.stocks[s]),
    el("span", { class: "price", "aria-hidden": "true", "data-price": `${s}:${r.price}` }, String(r.price)),
    r.splits ? el("span", { class: "mult", "aria-hidden": "true" }, `${top} × ${mult}`) : null,
    r.frozen ? el("span", { class: "frozen-tag", "aria-hidden": "true" }, _("frozen")) : null), explained);
  const cards = el("div", { class: "row-cards" });
  if (r.splits) {
    const splitPick = ctx.pick(`split:${s}`);
    const splits = tip(el("div", { class: "splits", role: "group", "aria-label": count(r.splits, _("{stock}: {n} split", { stock: ctx.words.stocks[s], n: 1 }), _("{stock}: {n} splits", { stock: ctx.words.stocks[s], n: r.splits })) }),
      _("Splits on {stock}: {n}. They multiply its price by {mult}; a crash or an audit removes one.", { stock: ctx.words.stocks[s], n: r.splits, mult }));
    for (let i = 0; i < r.splits; i++) {
      splits.append(eventCard(ctx, s, i === r.splits - 1 && splitPick ? { ...splitPick, cls: `split-card ${splitPick.cls || ""}` } : { cls: "split-card", tip: false }));
    }
    cards.append(splits);
  }
  const topPick = ctx.pick(`top:${s}`);
  r.cards.forEach((v, i) => {
    const id = s * 12 + v - 1;
    const last = i === r.cards.length - 1;
    cards.append(shareCard(ctx, id, last && topPick ? topPick : {}));
  });
  if (r.frozen) {
    cards.append(tip(eventCard(ctx, 16, { cls: "freeze-card" }),
      _("{stock} is frozen: it cannot be raised or audited, and a split played on it is wasted. Another Stock Freeze thaws it; a crash removes the freeze.", { stock: ctx.words.stocks[s] })));
  }
  const node = el("div", {
    class: `row stock-${s}${r.frozen ? " frozen" : ""}${pick ? " targetable" : ""}${pick && pick.selected ? " selected" : ""}`,
    "data-zone": `row-${s}`,
  }, head, cards);
  if (pick) {
    head.addEventListener("click", (e) => { e.stopPropagation(); pick.onPick(head, e); });
    node.addEventListener("click", () => pick.onPick(head));
    head.addEventListener("mouseenter", () => pick.onFocus && pick.onFocus(head));
    head.addEventListener("focus", () => pick.onFocus && pick.onFocus(head));
    head.addEventListener("mouseleave", () => pick.onBlur && pick.onBlur(head));
    head.addEventListener("blur", () => pick.onBlur && pick.onBlur(head));
  }
  return node;
}

/** The last card that went to the share discard pile and is still there, from the log. */
function discardTop(view, events) {
  const inPile = new Set(view.discard_pile);
  for (let i = events.length - 1; i >= 0; i--) {
    const e = events[i];
    if (e.type === "round_start") break;
    const cards = [];
    if (e.type === "discard" && e.card !== null) cards.push(e.card);
    else if (e.type === "split" && e.removed !== null) cards.push(e.removed);
    else if (e.type === "crash") cards.push(...e.removed);
    else if (e.type === "downturn_reveal") cards.push(...e.cards);
    for (let j = cards.length - 1; j >= 0; j--) if (inPile.has(cards[j])) return cards[j];
  }
  return view.discard_pile.length ? view.discard_pile[view.discard_pile.length - 1] : null;
}

function piles(ctx, view) {
  const top = discardTop(view, ctx.events || []);
  const discard = el("div", { class: "pile discard-pile", "data-zone": "discard" },
    top === null
      ? el("div", { class: "card empty-slot", role: "img", "aria-label": _("The share discard pile is empty") })
      : shareCard(ctx, top, { ariaLabel: count(view.discard_pile.length, _("Share discard pile: {n} card, {card} on top", { n: 1, card: ctx.words.cards[top] }), _("Share discard pile: {n} cards, {card} on top", { n: view.discard_pile.length, card: ctx.words.cards[top] })) }),
    el("span", { class: "pile-label" }, _("Discards"), " ", el("b", {}, num(view.discard_pile.length))));
  tip(discard, _("Share discard pile: {n} cards, face up. Insider Trading takes cards back from it; when the draw pile runs out, it is shuffled into a new one.", { n: view.discard_pile.length }));
  const parts = [
    tip(el("div", { class: "pile", "data-zone": "draw" },
      cardBack("share", view.draw_pile, count(view.draw_pile, _("Share draw pile: {n} card", { n: 1 }), _("Share draw pile: {n} cards", { n: view.draw_pile }))),
      el("span", { class: "pile-label" }, _("Draw pile"))),
    _("Share draw pile: {n} cards. Each turn starts by drawing one.", { n: view.draw_pile })),
    discard,
    tip(el("div", { class: "pile", "data-zone": "events" },
      cardBack("event", view.event_pile, count(view.event_pile, _("Event pile: {n} card before Market Closed", { n: 1 }), _("Event pile: {n} cards before Market Closed", { n: view.event_pile }))),
      el("span", { class: "pile-label" }, _("Event pile"))),
    _("Event pile: {n} cards lie above Market Closed. Playing the market draws from it, and drawing Market Closed ends the round.", { n: view.event_pile })),
    tip(el("div", { class: "pile", "data-zone": "event-discard" },
      cardBack("event", view.event_discard, count(view.event_discard, _("Event discard pile: {n} card, face down", { n: 1 }), _("Event discard pile: {n} cards, face down", { n: view.event_discard }))),
      el("span", { class: "pile-label" }, _("Event discards"))),
    _("Event discard pile: {n} cards, face down: the events played or not chosen, and the splits and freezes taken off the market.", { n: view.event_discard })),
    tip(el("div", { class: "pile supply" },
      el("span", { class: "token big", role: "img", "aria-label": _("Option tokens in the box: {n}", { n: view.option_supply }) }),
      el("span", { class: "pile-label" }, _("Tokens in the box"), " ", el("b", {}, num(view.option_supply)))),
    _("Option tokens in the box: {n}. Stock Option Gained hands them out; Stock Option Lost and spent tokens come back here.", { n: view.option_supply })),
  ];
  if (view.discard_pile.length) {
    const list = el("details", { class: "discard-list" },
      el("summary", {}, _("Every card in the discard pile")),
      el("div", { class: "fan-flat size-xs" }, view.discard_pile.map((c) => shareCard(ctx, c))));
    parts.push(list);
  }
  return el("div", { class: "piles", "aria-label": _("Piles") }, parts);
}

/** Cards to choose from that lie on no table spot: events drawn with A, cards to take back. */
function tray(ctx, view) {
  if (view.drawn_events && view.drawn_events.length && view.current_player === view.seat) {
    return el("div", { class: "tray", "aria-label": _("The events you drew") },
      el("span", { class: "tray-title" }, _("You drew:")),
      el("div", { class: "tray-cards size-l" }, view.drawn_events.map((k) => eventCard(ctx, k, ctx.pick(`drawn:${k}`) || {}))));
  }
  if (view.decision === "retrieve" && view.current_player === view.seat && view.event_stock !== null) {
    const s = view.event_stock;
    const cards = view.discard_pile.filter((c) => Math.floor(c / 12) === s);
    return el("div", { class: "tray", "aria-label": _("Cards you may take") },
      el("span", { class: "tray-title" }, _("{stock} cards in the discard pile:", { stock: ctx.words.stocks[s] })),
      el("div", { class: "tray-cards size-m" }, cards.map((c) => shareCard(ctx, c, ctx.pick(`pile:${c}`) || {}))),
      view.retrieved.length
        ? el("p", {}, _("Taken so far: {cards}", { cards: view.retrieved.map((c) => ctx.words.cards[c]).join(_(", ")) }))
        : null);
  }
  if (view.pending_event !== null && view.pending_event !== undefined && view.current_player !== null) {
    return el("div", { class: "tray", "aria-label": _("The event being played") },
      el("span", { class: "tray-title" }, _("Being played:")),
      el("div", { class: "tray-cards size-m" }, eventCard(ctx, view.pending_event)));
  }
  return null;
}

function mine(ctx, view) {
  const seat = view.seat;
  const hand = el("div", { class: "hand", role: "group", "aria-label": handLabel(ctx, seat), "data-zone": "hand", tabindex: "0" },
    view.hand.map((c) => shareCard(ctx, c, ctx.pick(`hand:${c}`) || {})));
  fan(hand);
  const saved = view.saved_events.length
    ? group(seat === ctx.me ? _("Your saved events") : _("{name}'s saved events", { name: ctx.names[seat] }), "saved size-s", view.saved_events.map((k) => eventCard(ctx, k, ctx.pick(`saved:${k}`) || {})))
    : null;
  const aside = view.own_hidden.length
    ? group(_("Set aside (the others see only how many)"), "aside size-s", view.own_hidden.map((c) => shareCard(ctx, c)))
    : null;
  const body = el("div", { class: "seat-body" },
    el("div", { class: "holdings" },
      tokens(view.tokens[seat]),
      stat(_("Worth now"), num(view.worth[seat]), "worth", WORTH()),
      stat(_("Cards in hand"), num(view.hand.length), "in-hand", _("Cards in your hand: {n}. A round ends when a discard empties a player's hand.", { n: view.hand.length }))),
    el("div", { class: "my-stuff" }, certificates(ctx, view, seat, "s"), saved, aside),
    hand);
  return seatArea(ctx, seat, { dealer: view.dealer, score: view.scores[seat], body, ...areaWords() });
}

/** The board: ``others`` (the other players), ``center`` (market, piles, choices), ``mine``. */
export function render(view, ctx) {
  const me = view.seat;
  const others = el("div", { class: "others", "aria-label": _("The other players") },
    othersInOrder(view.players, me).map((p) => opponent(ctx, view, p)));
  const market = el("div", { class: "market", role: "group", "aria-label": _("Market") },
    Array.from({ length: STOCKS }, (_x, s) => row(ctx, view, s)));
  const head = el("div", { class: "market-head" },
    tip(el("span", { class: "round" }, _("Round {round} of {rounds}", { round: view.round, rounds: view.rounds })),
      _("Each round is scored when it ends; after the last round the highest total wins.")));
  const center = el("div", { class: "center ts-center" },
    el("div", { class: "market-wrap" }, head, market), piles(ctx, view), tray(ctx, view));
  return { others, center, mine: me === null || me === undefined ? null : mine(ctx, view) };
}

const REASONS = () => ({
  market_closed: _("Market Closed was drawn"),
  high_card: _("an 11 or a 12 was placed"),
  empty_hand: _("a player's hand became empty"),
  no_cards: _("no share card was left to draw"),
});

/** The pending decision in one sentence, for its player (``mine``) or for everyone else. */
export function prompt(view, ctx) {
  const d = view.decision;
  const name = ctx.names[view.current_player];
  const stock = view.event_stock !== null && view.event_stock !== undefined ? ctx.words.stocks[view.event_stock] : "";
  const event = view.pending_event !== null && view.pending_event !== undefined ? ctx.words.events[view.pending_event] : "";
  if (view.current_player === null) return _("The game is over.");
  if (view.current_player === view.seat) {
    if (d === "action") return _("Your turn: pick a card to raise its stock or save it, play the market, or play a saved event.");
    if (d === "discard") {
      return {
        save: _("Choose a card to discard for the certificate you saved."),
        "market A": _("Choose a card to discard to play the market (A: two events, one takes effect)."),
        "market B": _("Choose a card to discard to play the market (B: keep one event)."),
        play: _("Choose a card to discard to play {event}.", { event }),
      }[view.pending_discard_for] || _("Choose a card to discard.");
    }
    if (d === "choose_event") return _("Choose the event that takes effect; the other is discarded face down.");
    if (d === "audit_stock") return _("Stock Audit: choose a stock to audit.");
    if (d === "audit_what") return _("Stock Audit of {stock}: click its top card or its split to remove it.", { stock });
    if (d === "freeze_stock") return _("Stock Freeze: choose a stock to freeze, or a frozen one to thaw.");
    if (d === "retrieve") return _("Insider Trading: take a {stock} card from the discard pile, or stop.", { stock });
    if (d === "insider_discard") return _("Insider Trading: choose a card to discard for each card taken ({n} to go).", { n: view.owed_discards });
    if (d === "downturn_discard") return _("Choose a card to discard for Market Downturn (shown when everyone has chosen).");
    if (d === "exercise") return _("Round over: spend an option token to save a card from your hand, or stop.");
  }
  if (d === "action") return _("{name} is taking a turn.", { name });
  if (d === "discard") return _("{name} is choosing a card to discard.", { name });
  if (d === "choose_event") return _("{name} is choosing which event takes effect.", { name });
  if (d === "audit_stock") return _("{name} is choosing a stock to audit.", { name });
  if (d === "audit_what") return _("{name} is choosing what the audit of {stock} removes.", { name, stock });
  if (d === "freeze_stock") return _("{name} is choosing a stock to freeze or thaw.", { name });
  if (d === "retrieve") return _("{name} is taking {stock} cards from the discard pile.", { name, stock });
  if (d === "insider_discard") return _("{name} is discarding for the cards taken.", { name });
  if (d === "downturn_discard") return _("Market Downturn: {name} is choosing a card to discard.", { name });
  if (d === "exercise") return _("Round over: {name} is exercising options.", { name });
  return _("{name} is choosing.", { name });
}

/** Whether one click on a card plays it: every card choice of the decision does the same. */
export function direct(view) {
  return view.decision !== "action";
}

/** Where the cards of ``events`` came from and went to, for the movement (see motion.js). */
export function moves(events, ctx) {
  const out = [];
  const from = (seat) => (seat === ctx.me ? "hand" : `seat-${seat}`);
  for (const e of events) {
    if (e.type === "draw") out.push({ card: e.card, from: "draw", to: from(e.seat), back: e.card === null ? "share" : null });
    else if (e.type === "raise") out.push({ card: e.card, from: from(e.seat), to: `row-${Math.floor(e.card / 12)}` });
    else if (e.type === "save" || e.type === "exercise_reveal") {
      const cards = e.type === "save" ? [[e.seat, e.card]] : e.cards.flatMap((cs, q) => cs.map((c) => [q, c]));
      for (const [q, c] of cards) out.push({ card: c, from: from(q), to: `certs-${q}` });
    } else if (e.type === "discard") out.push({ card: e.card, from: from(e.seat), to: "discard" });
    else if (e.type === "retrieve") out.push({ card: e.card, from: "discard", to: from(e.seat) });
    else if (e.type === "audit" && /\d+$/.test(e.removed)) {
      out.push({ card: e.stock * 12 + Number(e.removed.match(/\d+$/)[0]) - 1, from: `row-${e.stock}`, to: "discard" });
    }
    else if (e.type === "split" && e.removed !== null) out.push({ card: e.removed, from: `row-${e.stock}`, to: "discard" });
    else if (e.type === "crash") e.removed.forEach((c) => out.push({ card: c, from: `row-${e.stock}`, to: "discard" }));
    else if (e.type === "downturn_reveal") e.cards.forEach((c) => out.push({ card: c, from: "table", to: "discard" }));
    else if (e.type === "market") out.push({ card: null, from: "events", to: from(e.seat), back: "event" });
    else if (e.type === "event_discard") out.push({ card: null, from: from(e.seat), to: "event-discard", back: "event" });
  }
  // What the events did to the rows, shown there (scene.js).
  for (const e of events) {
    const zone = `row-${e.stock}`;
    if (e.type === "split") out.push({ effect: e.discarded ? "wasted" : "split", zone });
    else if (e.type === "crash") out.push({ effect: "crash", zone });
    else if (e.type === "freeze") out.push({ effect: e.frozen ? "freeze" : "thaw", zone });
    else if (e.type === "audit") out.push({ effect: "audit", zone });
  }
  return out.filter((m) => m.card !== undefined || m.effect);
}

/** The round-scoring events of the log. */
export function rounds(events) {
  return events.filter((e) => e.type === "round_score");
}

/** One round's points by player and stock ("3 × 14 = 42"), with the running totals. */
export function roundResult(e, ctx, allRounds) {
  const totals = e.scores.map((_x, q) => allRounds.filter((r) => r.round <= e.round).reduce((t, r) => t + r.scores[q], 0));
  const ends = (ctx.events || []).find((x) => x.type === "round_end" && x.round === e.round);
  const table = el("table", { class: "results" },
    el("caption", {}, _("Round {round}: shares × closing price", { round: e.round })),
    el("thead", {}, el("tr", {}, el("th", { scope: "col" }, _("Player")),
      ctx.words.stocks.map((s, i) => el("th", { scope: "col", class: `stock-${i}` }, s, el("br", {}), el("small", {}, _("price {price}", { price: e.prices[i] })))),
      el("th", { scope: "col" }, _("Round")), el("th", { scope: "col" }, _("Total")))),
    el("tbody", {}, e.scores.map((score, p) => el("tr", {},
      el("th", { scope: "row" }, ctx.names[p]),
      e.shares[p].map((n, i) => el("td", {}, n ? `${n} × ${e.prices[i]} = ${num(n * e.prices[i])}` : "–")),
      el("td", { class: "strong" }, num(score)), el("td", { class: "strong" }, num(totals[p]))))));
  return el("div", { class: "round-result" },
    ends ? el("p", {}, _("Round {round} ended: {reason}.", { round: e.round, reason: REASONS()[ends.reason] })) : null,
    el("div", { class: "scroll-x", tabindex: "0" }, table));
}

/** The final breakdown: each player's points from each stock over the game, and by round. */
export function finalBreakdown(ctx, result) {
  const all = rounds(ctx.events || []);
  const players = result.scores.length;
  const order = Array.from({ length: players }, (_x, p) => p).sort((a, b) => result.scores[b] - result.scores[a]);
  const byStock = el("table", { class: "results", id: "final-by-stock" },
    el("caption", {}, _("Points from each stock, all rounds")),
    el("thead", {}, el("tr", {}, el("th", { scope: "col" }, _("Player")),
      ctx.words.stocks.map((s, i) => el("th", { scope: "col", class: `stock-${i}` }, s)),
      el("th", { scope: "col" }, _("Total")))),
    el("tbody", {}, order.map((p) => el("tr", { class: result.winners.includes(p) ? "winner" : "" },
      el("th", { scope: "row" }, ctx.names[p], result.winners.includes(p) ? el("span", { class: "chip chip-win" }, _("Winner")) : null),
      ctx.words.stocks.map((_s, i) => el("td", {}, num(all.reduce((t, r) => t + r.shares[p][i] * r.prices[i], 0)))),
      el("td", { class: "strong" }, num(result.scores[p]))))));
  const byRound = el("table", { class: "results" },
    el("caption", {}, _("Points by round")),
    el("thead", {}, el("tr", {}, el("th", { scope: "col" }, _("Player")),
      all.map((r) => el("th", { scope: "col" }, _("Round {round}", { round: r.round }))),
      el("th", { scope: "col" }, _("Total")))),
    el("tbody", {}, order.map((p) => el("tr", {},
      el("th", { scope: "row" }, ctx.names[p]),
      all.map((r) => el("td", {}, num(r.scores[p]))),
      el("td", { class: "strong" }, num(result.scores[p]))))));
  return [el("div", { class: "scroll-x", tabindex: "0" }, byStock), el("div", { class: "scroll-x", tabindex: "0" }, byRound)];
}
