// Card Stock Market's board: the four suits' market piles with their prices in the middle,
// the other players around, your certificates and hand at the bottom. It draws a view (never
// a state) and asks ``ctx.pick(key)`` which cards are choices (see table.js).
import { _, el, money, num } from "/static/i18n.js";
import { cardBack, playingCard, playingCardName, suitIcon } from "/static/cards.js";
import { backs, cardsInHand, handLabel, count, fan, chip, group, othersInOrder, seatArea, stat } from "/static/board-common.js";
import { tip } from "/static/tips.js";

const SUITS = 4;
const JOKER = 52;

/** The shares a card stands for: its pips, 5 for a face card. */
export function sharesOf(kind) {
  const rank = (kind % 13) + 1;
  return rank > 10 ? 5 : rank;
}

/** The legal action ``id`` as a place on the board (card_stock_market/actions.py's table). */
export function decode(id, view) {
  if (id < 52) return { target: `hand:${id}`, verb: "buy", zone: `certs-${view.seat}` };
  if (id < 104) return { target: `cert:${id - 52}`, verb: "sell", zone: "bank" };
  if (id < 156) return { target: `hand:${id - 104}`, verb: "market", zone: `pile-${Math.floor((id - 104) / 13)}` };
  if (id < 168) {
    const i = id - 156;
    const kind = Math.floor(i / 3) * 13 + (i % 3) + 10;
    return { target: `hand:${kind}`, verb: "bankrupt", zone: `pile-${Math.floor(i / 3)}` };
  }
  if (id < 220) return { target: `hand:${id - 168}`, verb: "discard", zone: "discard" };
  return { target: null, verb: "done", zone: null };
}

function certificates(ctx, view, seat, size, pickable) {
  const out = el("div", { class: `certs size-${size}`, "data-zone": `certs-${seat}` });
  for (let s = 0; s < SUITS; s++) {
    const cards = view.certificates[seat].filter((c) => Math.floor(c / 13) === s).sort((a, b) => a - b);
    if (!cards.length) continue;
    const shares = view.shares[seat][s];
    const worth = shares * view.suits[s].price;
    const summary = count(shares, _("{suit}: {n} share, worth {worth} now", { suit: ctx.words.suits[s], n: shares, worth: money(worth) }), _("{suit}: {n} shares, worth {worth} now", { suit: ctx.words.suits[s], n: shares, worth: money(worth) }));
    out.append(el("div", { class: `cert-group suit-${s}`, role: "group", "aria-label": summary },
      el("div", { class: "fan-flat" }, cards.map((c) => playingCard(ctx, c, pickable ? ctx.pick(`cert:${c}`) || {} : {}))),
      tip(el("span", { class: "cert-sum", role: "img", "aria-label": summary }, _("{n} sh", { n: shares }), " · ", el("b", {}, money(worth))),
        count(shares, _("{name}: {n} share × price {price} = {worth} at today's price.", { name: ctx.words.suits[s], n: 1, price: money(view.suits[s].price), worth: money(worth) }),
        _("{name}: {n} shares × price {price} = {worth} at today's price.", { name: ctx.words.suits[s], n: shares, price: money(view.suits[s].price), worth: money(worth) })))));
  }
  if (!out.childElementCount) out.append(el("span", { class: "none" }, _("No certificates yet")));
  return out;
}

function money3(view, seat) {
  const debt = view.debts[seat];
  return [
    stat(_("Cash"), money(view.cash[seat]), "cash", _("Cash: the money to buy with. Purchases are paid to the bank, and sales are paid by it.")),
    debt ? stat(_("Debt"), money(debt), "debt", _("Debt: owed to the bank since a levy. Money received repays it first, and it counts against the score.")) : null,
  ];
}

/** The words around each seat's area in this game. */
function areaWords() {
  return {
    dealerWord: _("Dealer and bank"),
    dealerTip: _("The dealer dealt the cards and keeps the bank's money; the player after the dealer took the first turn."),
    scoreTip: _("Cash less debt. When the market closes, every certificate is sold to the bank and the most money wins."),
  };
}

function opponent(ctx, view, seat) {
  const body = el("div", { class: "seat-body" },
    el("div", { class: "holdings" },
      backs(() => cardBack("deck"), view.hand_sizes[seat], 8, cardsInHand(view.hand_sizes[seat]),
        _("Cards in {name}'s hand: {n}. Only they can see which.", { name: ctx.names[seat], n: view.hand_sizes[seat] })),
      money3(view, seat)),
    certificates(ctx, view, seat, "xs", false));
  return seatArea(ctx, seat, { dealer: view.dealer, score: view.scores[seat], body, ...areaWords() });
}

function suitPile(ctx, view, s) {
  const m = view.suits[s];
  const top = m.pile[m.pile.length - 1];
  const name = ctx.words.suits[s];
  const label = [
    _("{suit}: price {price}", { suit: name, price: money(m.price) }),
    m.bankrupt ? _("bankrupt") : null,
    _("a number card may move it up {rise} or down {fall}", { rise: money(m.max_rise), fall: money(m.max_fall) }),
    count(m.pile.length, _("{n} card in its pile", { n: 1 }), _("{n} cards in its pile", { n: m.pile.length })),
  ].filter(Boolean).join(_(", "));
  const depth = el("div", { class: "depth" });
  depth.style.setProperty("--depth", String(Math.min(m.pile.length - 1, 6)));
  const inPile = count(m.pile.length, _("{n} card in its pile", { n: 1 }), _("{n} cards in its pile", { n: m.pile.length }));
  return el("div", { class: `suit-pile suit-${s}${m.bankrupt ? " bankrupt" : ""}`, "data-zone": `pile-${s}`, role: "group", "aria-label": label },
    el("div", { class: "suit-head", "aria-hidden": "true" }, suitIcon(s), el("span", { class: "suit-name" }, name)),
    tip(el("div", { class: "price", role: "img", "aria-label": _("{suit}: price {price}", { suit: name, price: money(m.price) }), "data-price": `${s}:${m.price}` }, money(m.price)),
      _("{suit}'s price, set by the top card of its pile: a number card its value, a face card $11 to $13 as a raise or $0 as a bankruptcy.", { suit: name })),
    tip(el("div", { class: "strip", role: "img", "aria-label": _("a number card may move it up {rise} or down {fall}", { rise: money(m.max_rise), fall: money(m.max_fall) }) }, `▲${m.max_rise} ▼${m.max_fall}`),
      _("The strip: a number card may raise {suit}'s price by at most {rise} or lower it by at most {fall}. Any number card may cover a face card.", { suit: name, rise: money(m.max_rise), fall: money(m.max_fall) })),
    m.bankrupt ? chip(_("bankrupt"), "chip-bust", _("A face card bankrupted {suit}: its price is $0 and every certificate of it was discarded. A number card on top brings it back.", { suit: name })) : null,
    el("div", { class: "stack" }, depth, playingCard(ctx, top, { ariaLabel: _("Top card: {card}", { card: playingCardName(ctx, top) }) })),
    tip(el("span", { class: "pile-label", role: "img", "aria-label": inPile }, count(m.pile.length, _("{n} card", { n: 1 }), _("{n} cards", { n: m.pile.length }))),
      _("Cards in {suit}'s market pile: {n}. Each market change puts one on top; the top card sets the price.", { suit: name, n: m.pile.length })));
}

/** The last card that went to the discard pile and is still there, from the log. */
function discardTop(view, events) {
  const left = new Map();
  for (const c of view.discard_pile) left.set(c, (left.get(c) || 0) + 1);
  for (let i = events.length - 1; i >= 0; i--) {
    const e = events[i];
    if (e.type === "reshuffle") break;
    const cards = [];
    if (e.type === "discard" || e.type === "sell") cards.push(e.card);
    if (cards.length && left.get(cards[0])) return cards[0];
  }
  return view.discard_pile.length ? view.discard_pile[view.discard_pile.length - 1] : null;
}

function piles(ctx, view) {
  const top = discardTop(view, ctx.events || []);
  const jokers = tip(view.jokers_held_out
    ? el("div", { class: "pile jokers" },
      el("div", { class: "fan-flat size-xs" }, Array.from({ length: view.jokers_held_out }, () => playingCard(ctx, JOKER))),
      el("span", { class: "pile-label" }, _("Jokers wait for the reshuffle")))
    : el("div", { class: "pile jokers" }, el("span", { class: "pile-label warn" },
      view.joker_drawn_by !== null && view.joker_drawn_by !== undefined
        ? _("{name} drew a joker: the market is closed", { name: ctx.names[view.joker_drawn_by] })
        : _("The jokers are in the draw pile: the first one drawn ends the game"))),
  _("The two jokers join the draw pile when it is first shuffled anew; the first joker drawn closes the market and ends the game."));
  return el("div", { class: "piles", "aria-label": _("Piles") },
    tip(el("div", { class: "pile", "data-zone": "draw" },
      cardBack("deck", view.draw_pile, count(view.draw_pile, _("Draw pile: {n} card", { n: 1 }), _("Draw pile: {n} cards", { n: view.draw_pile }))),
      el("span", { class: "pile-label" }, _("Draw pile"))),
    _("Draw pile: {n} cards. At the end of a turn the player draws back up to eight cards.", { n: view.draw_pile })),
    tip(el("div", { class: "pile", "data-zone": "discard" },
      top === null
        ? el("div", { class: "card empty-slot", role: "img", "aria-label": _("The discard pile is empty") })
        : playingCard(ctx, top, { ariaLabel: count(view.discard_pile.length, _("Discard pile: {n} card, {card} on top", { n: 1, card: playingCardName(ctx, top) }), _("Discard pile: {n} cards, {card} on top", { n: view.discard_pile.length, card: playingCardName(ctx, top) })) }),
      el("span", { class: "pile-label" }, _("Discards"), " ", el("b", {}, num(view.discard_pile.length)))),
    _("Discard pile: {n} cards, the cards discarded and the certificates sold. When the draw pile runs out, it is shuffled with the jokers into a new one.", { n: view.discard_pile.length })),
    el("div", { class: "pile bank", "data-zone": "bank" },
      el("span", { class: "bank-icon", "aria-hidden": "true" }, "$"),
      tip(el("span", { class: "pile-label" }, _("Bank"), " ",
        el("b", {}, view.bank === null ? _("unlimited") : money(view.bank))),
      _("The bank: purchases are paid into it and sales out of it. When it cannot pay for a sale, every player pays $100 into it: a levy.")),
      view.levies ? tip(el("span", { class: "pile-label" }, _("Levies so far: {n}", { n: view.levies })),
        _("Levies so far: each time the bank could not pay for a sale, every player paid $100 into it, and whoever could not pay owes it the rest.")) : null),
    jokers);
}

function turnInfo(ctx, view) {
  if (view.current_player === null) return null;
  const parts = [_("Turn {n}", { n: view.turn_number })];
  if (view.decision === "discarding") parts.push(_("discards: {n} of 4", { n: view.discards }));
  else parts.push(_("transactions: {t} of 2", { t: view.trades }), _("market changes: {c} of 2", { c: view.changes }));
  return tip(el("span", { class: "round" }, parts.join(" · ")),
    _("A turn: up to two transactions (buying or selling) and up to two market changes, or up to four discards instead; then the player draws back up to eight cards."));
}

function mine(ctx, view) {
  const seat = view.seat;
  const hand = el("div", { class: "hand", role: "group", "aria-label": handLabel(ctx, seat), "data-zone": "hand", tabindex: "0" },
    view.hand.map((c) => playingCard(ctx, c, ctx.pick(`hand:${c}`) || {})));
  fan(hand);
  const body = el("div", { class: "seat-body" },
    el("div", { class: "holdings" }, money3(view, seat)),
    el("div", { class: "my-stuff" }, group(_("Your certificates"), "my-certs", certificates(ctx, view, seat, "s", true))),
    hand);
  return seatArea(ctx, seat, { dealer: view.dealer, score: view.scores[seat], body, ...areaWords() });
}

/** The board: ``others`` (the other players), ``center`` (market and piles), ``mine``. */
export function render(view, ctx) {
  const me = view.seat;
  const others = el("div", { class: "others", "aria-label": _("The other players") },
    othersInOrder(view.players, me).map((p) => opponent(ctx, view, p)));
  const market = el("div", { class: "market csm-market", role: "group", "aria-label": _("Market") },
    Array.from({ length: SUITS }, (_x, s) => suitPile(ctx, view, s)));
  const center = el("div", { class: "center csm-center" },
    el("div", { class: "market-wrap" }, el("div", { class: "market-head" }, turnInfo(ctx, view)), market),
    piles(ctx, view));
  return { others, center, mine: me === null || me === undefined ? null : mine(ctx, view) };
}

/** The pending decision in one sentence. */
export function prompt(view, ctx) {
  if (view.current_player === null) return _("The game is over.");
  const name = ctx.names[view.current_player];
  if (view.current_player !== view.seat) {
    if (view.decision === "discarding") return _("{name} is discarding.", { name });
    return _("{name} is taking a turn.", { name });
  }
  const tradesLeft = view.trades < 2;
  const changesLeft = view.changes < 2;
  if (view.decision === "turn") return _("Your turn: pick a card to buy it or play it to the market, sell a certificate, or discard; then end your turn.");
  if (view.decision === "discarding") return _("Discard another card (up to four in all), or end your turn.");
  if (view.decision === "trading") {
    if (tradesLeft && !view.changes) return _("Make another transaction, change the market, or end your turn.");
    if (tradesLeft) return _("Make another transaction, or end your turn.");
    return _("Change the market, or end your turn.");
  }
  if (view.decision === "market") {
    if (changesLeft && !view.trades) return _("Make another market change, trade, or end your turn.");
    if (changesLeft) return _("Make another market change, or end your turn.");
    return _("Trade, or end your turn.");
  }
  return _("{name} is taking a turn.", { name });
}

/** Whether one click on a card plays it: only when discarding (every card does the same). */
export function direct(view) {
  return view.decision === "discarding";
}

/** Where the cards of ``events`` came from and went to, for the movement (see motion.js). */
export function moves(events, ctx) {
  const from = (seat) => (seat === ctx.me ? "hand" : `seat-${seat}`);
  const out = [];
  for (const e of events) {
    if (e.type === "market" || e.type === "bankrupt") out.push({ card: e.card, from: from(e.seat), to: `pile-${Math.floor(e.card / 13)}` });
    else if (e.type === "buy") out.push({ card: e.card, from: from(e.seat), to: `certs-${e.seat}` });
    else if (e.type === "sell") out.push({ card: e.card, from: `certs-${e.seat}`, to: "discard" });
    else if (e.type === "discard") out.push({ card: e.card, from: from(e.seat), to: "discard" });
    else if (e.type === "final_sale") out.push({ card: e.card, from: `certs-${e.seat}`, to: "bank" });
    else if (e.type === "draw" || e.type === "deal") {
      // The owner reads the cards; everyone else reads null there, and the count.
      const cards = e.cards !== null ? e.cards : Array.from({ length: e.count }, () => null);
      for (const c of cards) out.push({ card: c, from: "draw", to: from(e.seat), back: c === null ? "deck" : null });
    }
    // A bankruptcy, shown at its pile and at the certificates it wiped out (scene.js).
    if (e.type === "bankrupt") {
      const suit = Math.floor(e.card / 13);
      out.push({ effect: "bankrupt", zone: `pile-${suit}` });
      e.lost.forEach((n, q) => { if (n) out.push({ effect: "wiped", zone: `certs-${q}`, suit }); });
    }
  }
  return out;
}

/** Card Stock Market has no rounds. */
export function rounds() {
  return [];
}

/** No round results: the game is played in one go. */
export function roundResult() {
  return null;
}

/** The final breakdown: what each player's certificates of each suit sold for, and the rest. */
export function finalBreakdown(ctx, result) {
  const sales = (ctx.events || []).filter((e) => e.type === "final_sale");
  const players = result.scores.length;
  const order = Array.from({ length: players }, (_x, p) => p).sort((a, b) => result.scores[b] - result.scores[a]);
  const sold = (p, s) => sales.filter((e) => e.seat === p && Math.floor(e.card / 13) === s).reduce((t, e) => t + e.paid, 0);
  const table = el("table", { class: "results", id: "final-by-stock" },
    el("caption", {}, _("The final sale by suit, and the money before it")),
    el("thead", {}, el("tr", {}, el("th", { scope: "col" }, _("Player")),
      el("th", { scope: "col" }, _("Cash less debts before the sale")),
      ctx.words.suits.map((s, i) => el("th", { scope: "col", class: `suit-${i}` }, s)),
      el("th", { scope: "col" }, _("Final score")))),
    el("tbody", {}, order.map((p) => {
      const bySuit = Array.from({ length: SUITS }, (_x, s) => sold(p, s));
      const before = result.scores[p] - bySuit.reduce((a, b) => a + b, 0);
      return el("tr", { class: result.winners.includes(p) ? "winner" : "" },
        el("th", { scope: "row" }, ctx.names[p], result.winners.includes(p) ? el("span", { class: "chip chip-win" }, _("Winner")) : null),
        el("td", {}, money(before)),
        bySuit.map((v) => el("td", {}, v ? money(v) : "–")),
        el("td", { class: "strong" }, money(result.scores[p])));
    })));
  return [el("div", { class: "scroll-x", tabindex: "0" }, table)];
}
