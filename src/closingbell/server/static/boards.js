// The boards: a view (the server's JSON) drawn as cards, for each game.
import { _, el } from "/static/i18n.js";

const TS_STOCKS = ["Corn", "Gem", "Oil", "Tech", "Movie"];
const CSM_SUITS = "CDHS";

/** The English text of a Take Stock share card, as action texts name it ("Oil 7"). */
function tsEnglish(card) {
  return `${TS_STOCKS[Math.floor(card / 12)]} ${(card % 12) + 1}`;
}

/** A card element; clickable when ``onPick`` is given. */
export function card(label, cls, onPick) {
  const node = el("span", { class: `card ${cls}`, title: label }, label);
  if (onPick) {
    node.classList.add("playable");
    node.setAttribute("role", "button");
    node.tabIndex = 0;
    node.addEventListener("click", onPick);
  }
  return node;
}

function nameOf(ctx, seat) {
  return ctx.names[seat] ?? `#${seat + 1}`;
}

function tsCard(ctx, c, pick) {
  return card(ctx.words.cards[c], `stock-${Math.floor(c / 12)}`, pick);
}

/** The legal actions that use a Take Stock card (by its English name in the text). */
function actionsWithCard(legal, english) {
  const re = new RegExp(`\\b${english}(\\b|$)`);
  return legal.filter((a) => re.test(a.text));
}

function handPicker(ctx, english) {
  const uses = actionsWithCard(ctx.legal, english);
  if (!uses.length) return null;
  return () => ctx.pick(uses);
}

/** Take Stock: the market, your hand, the players, the piles. */
export function takeStock(view, ctx) {
  const w = ctx.words;
  const market = el("table", { class: "market", id: "market" },
    el("tr", {}, el("th", {}, _("Stock")), el("th", {}, _("Cards")), el("th", {}, _("Splits")),
      el("th", {}, _("Price"))));
  view.stocks.forEach((s, i) => {
    market.append(el("tr", { class: `stock-${i}${s.frozen ? " frozen" : ""}` },
      el("th", {}, w.stocks[i], s.frozen ? ` (${_("frozen")})` : ""),
      el("td", {}, s.cards.map((v) => tsCard(ctx, i * 12 + v - 1))),
      el("td", {}, s.splits),
      el("td", { class: "price" }, `$${s.price}`)));
  });
  const parts = [el("section", { class: "panel" }, el("h3", {}, _("Market")), market)];
  if (view.seat !== null && view.seat !== undefined) {
    parts.push(el("section", { class: "panel", id: "hand" }, el("h3", {}, _("Your hand")),
      el("div", { class: "cards" }, view.hand.map((c) => tsCard(ctx, c, handPicker(ctx, tsEnglish(c))))),
      view.saved_events.length
        ? el("p", {}, _("Your saved events: {events}", { events: view.saved_events.map((k) => w.events[k]).join(", ") }))
        : null));
  }
  const players = el("table", { class: "players", id: "players" },
    el("tr", {}, el("th", {}, _("Player")), el("th", {}, _("Hand")), el("th", {}, _("Certificates")),
      el("th", {}, _("Tokens")), el("th", {}, _("Saved events")), el("th", {}, _("Score"))));
  for (let p = 0; p < view.players; p++) {
    const saved = p === view.seat ? view.saved_events.map((k) => w.events[k]).join(", ") || "–"
      : String(view.saved_counts[p]);
    players.append(el("tr", { class: p === view.current_player ? "current" : "" },
      el("th", {}, nameOf(ctx, p), p === view.dealer ? ` (${_("dealer")})` : ""),
      el("td", {}, view.hand_sizes[p]),
      el("td", {}, view.certificates[p].map((c) => tsCard(ctx, c))),
      el("td", {}, view.tokens[p]),
      el("td", {}, saved),
      el("td", {}, view.scores[p])));
  }
  parts.push(el("section", { class: "panel" }, el("h3", {}, _("Players")), players));
  parts.push(el("p", { class: "piles" },
    _("Round {round} of {rounds}", { round: view.round, rounds: view.rounds }), " · ",
    _("Draw pile: {n}", { n: view.draw_pile }), " · ",
    _("Discards: {n}", { n: view.discard_pile.length }), " · ",
    _("Event pile: {n}", { n: view.event_pile }), " · ",
    _("Option tokens left: {n}", { n: view.option_supply })));
  return parts;
}

/** Take Stock's round results: shares times prices, by player and stock. */
export function takeStockRounds(events, ctx) {
  const out = [];
  for (const e of events) {
    if (e.type !== "round_score") continue;
    const table = el("table", { class: "results round-result" },
      el("tr", {}, el("th", {}, _("Player")),
        ctx.words.stocks.map((s, i) => el("th", {}, s, el("br", {}), `$${e.prices[i]}`)),
        el("th", {}, _("Round score"))));
    e.scores.forEach((score, p) => {
      table.append(el("tr", {}, el("th", {}, nameOf(ctx, p)),
        e.shares[p].map((n, i) => el("td", {}, n ? `${n} × $${e.prices[i]} = ${n * e.prices[i]}` : "–")),
        el("td", {}, score)));
    });
    out.push(el("section", { class: "panel" }, el("h3", {}, _("Round {round} results", { round: e.round })), table));
  }
  return out;
}

function csmCard(ctx, c, pick) {
  const cls = c === 52 ? "joker" : `suit-${Math.floor(c / 13)}`;
  return card(ctx.words.cards[c], cls, pick);
}

/** Card Stock Market: the suits' prices and strip limits, piles, your hand, holdings. */
export function cardStockMarket(view, ctx) {
  const w = ctx.words;
  const market = el("table", { class: "market", id: "market" },
    el("tr", {}, el("th", {}, _("Suit")), el("th", {}, _("Price")), el("th", {}, _("Limits")),
      el("th", {}, _("Pile"))));
  view.suits.forEach((s, i) => {
    market.append(el("tr", { class: `suit-${i}${s.bankrupt ? " bankrupt" : ""}` },
      el("th", {}, w.suits[i], s.bankrupt ? ` (${_("bankrupt")})` : ""),
      el("td", { class: "price" }, `$${s.price}`),
      el("td", {}, `+${s.max_rise} / −${s.max_fall}`),
      el("td", {}, s.pile.map((c) => csmCard(ctx, c)))));
  });
  const parts = [el("section", { class: "panel" }, el("h3", {}, _("Market")), market)];
  if (view.seat !== null && view.seat !== undefined) {
    parts.push(el("section", { class: "panel", id: "hand" }, el("h3", {}, _("Your hand")),
      el("div", { class: "cards" }, view.hand.map((c) => csmCard(ctx, c)))));
  }
  const players = el("table", { class: "players", id: "players" },
    el("tr", {}, el("th", {}, _("Player")), el("th", {}, _("Hand")),
      w.suits.map((s) => el("th", {}, s)), el("th", {}, _("Cash")), el("th", {}, _("Debts")),
      el("th", {}, _("Score"))));
  for (let p = 0; p < view.players; p++) {
    players.append(el("tr", { class: p === view.current_player ? "current" : "" },
      el("th", {}, nameOf(ctx, p), p === view.dealer ? ` (${_("bank")})` : ""),
      el("td", {}, view.hand_sizes[p]),
      view.shares[p].map((n) => el("td", {}, n)),
      el("td", {}, `$${view.cash[p]}`), el("td", {}, `$${view.debts[p]}`),
      el("td", {}, view.scores[p])));
  }
  parts.push(el("section", { class: "panel" }, el("h3", {}, _("Players")), players));
  parts.push(el("p", { class: "piles" },
    _("Bank: ${n}", { n: view.bank }), " · ",
    _("Draw pile: {n}", { n: view.draw_pile }), " · ",
    _("Discards: {n}", { n: view.discard_pile.length })));
  return parts;
}

/** The final scores, best first, with the winners marked. */
export function finalScores(result, ctx) {
  const order = result.scores.map((s, p) => p).sort((a, b) => result.scores[b] - result.scores[a]);
  const table = el("table", { class: "results", id: "final-scores" },
    el("tr", {}, el("th", {}, _("Player")), el("th", {}, _("Final score"))));
  for (const p of order) {
    table.append(el("tr", { class: result.winners.includes(p) ? "winner" : "" },
      el("th", {}, nameOf(ctx, p), result.winners.includes(p) ? ` ★ ${_("winner")}` : ""),
      el("td", {}, result.scores[p])));
  }
  return el("section", { class: "panel" }, el("h3", {}, _("Game over")), table);
}

/** The board of ``game``. */
export function board(game, view, ctx) {
  if (game === "take_stock") return takeStock(view, ctx);
  if (game === "card_stock_market") return cardStockMarket(view, ctx);
  return [el("pre", {}, JSON.stringify(view, null, 1))];
}
