// What both games' boards share: the players' areas around the table, small labels, and
// the order in which the other players sit (the next seat first, as at a real table).
import { _, el, nameNode, num, seatNumber } from "/static/i18n.js";
import { tip } from "/static/tips.js";

/** The seats in the order they sit after ``me`` (every seat in order for a spectator). */
export function othersInOrder(players, me) {
  if (me === null || me === undefined) return Array.from({ length: players }, (_x, i) => i);
  return Array.from({ length: players - 1 }, (_x, i) => (me + 1 + i) % players);
}

/**
 * The name of a seat's own hand ("Your hand"), or of another seat's when its hand is shown
 * to someone else (a review or a replay as that seat saw it: "Bo's hand").
 */
export function handLabel(ctx, seat) {
  return seat === ctx.me ? _("Your hand") : _("{name}'s hand", { name: ctx.names[seat] });
}

/** A small label ("Dealer", "Playing"), with what it means when ``explained``. */
export function chip(text, cls, explained) {
  return tip(el("span", { class: `chip ${cls}` }, text), explained);
}

/** A figure with its name under or beside it ("Score 120"), and what it means. */
export function stat(label, value, cls = "", explained = null) {
  return tip(el("span", { class: `stat ${cls}` }, el("span", { class: "stat-label" }, label), " ",
    el("span", { class: "stat-value" }, value)), explained);
}

/**
 * A player's area: a header with the seat number, the name, who deals and who plays, and
 * presence; ``body`` below. ``dealerWord`` names the dealer's role in this game, and
 * ``dealerTip`` and ``scoreTip`` say what the dealer does and what the score counts.
 */
export function seatArea(ctx, seat, { dealer, score, body, dealerWord, dealerTip, scoreTip, cls = "" }) {
  const info = ctx.seats ? ctx.seats[seat] : null;
  const mine = seat === ctx.me;
  const current = ctx.current === seat;
  const waiting = ctx.waiting && ctx.waiting.includes(seat) && !current;
  const name = ctx.names[seat];
  const chips = [];
  if (mine) chips.push(chip(_("You"), "chip-you", _("Your own seat: only you see your hand.")));
  if (dealer === seat) chips.push(chip(dealerWord || _("Dealer"), "chip-dealer", dealerTip));
  if (current) {
    chips.push(chip(mine ? _("Your turn") : _("Playing"), "chip-turn",
      mine ? _("It is your turn: the cards, rows and buttons you may choose are lit up.") : _("{name} is deciding now.", { name })));
  }
  if (waiting) chips.push(chip(_("Still to choose"), "chip-waiting", _("{name} has not made their secret choice yet; everyone's choices are shown together.", { name })));
  if (info && info.stand_in) chips.push(chip(_("A bot plays for them"), "chip-away", _("{name} has left the table: a bot plays their turns until they come back.", { name })));
  else if (info && info.kind === "human" && !info.connected) chips.push(chip(_("Away"), "chip-away", _("{name} is not connected just now: their seat waits for them.", { name })));
  const label = mine ? _("Your area: {name}, seat {n}", { name: ctx.names[seat], n: seatNumber(seat) })
    : _("{name}, seat {n}", { name: ctx.names[seat], n: seatNumber(seat) });
  const node = el(mine ? "section" : "article", {
    class: `seat-area${mine ? " mine" : ""}${current ? " current" : ""}${cls ? ` ${cls}` : ""}`,
    "data-zone": `seat-${seat}`, "aria-label": label,
  },
  el("header", { class: "seat-head" },
    tip(el("span", { class: "seat-no", role: "img", "aria-label": _("Seat {n}", { n: seatNumber(seat) }) }, String(seatNumber(seat))),
      _("Seat {n}: turns go round the table in seat order.", { n: seatNumber(seat) })),
    el("span", { class: "pname" }, info && info.bot_account ? nameNode(info.name, true) : ctx.names[seat]),
    chips,
    score === undefined ? null : stat(_("Score"), num(score), "score", scoreTip)),
  body);
  return node;
}

/**
 * A row of face-down cards (at most ``shown`` drawn) with their count, for a hidden hand;
 * ``explained`` says what they are.
 */
export function backs(makeBack, count, shown, label, explained) {
  const row = tip(el("span", { class: "backs", role: "img", "aria-label": label }), explained);
  for (let i = 0; i < Math.min(count, shown); i++) row.append(makeBack());
  row.append(el("span", { class: "backs-count", "aria-hidden": "true" }, `×${count}`));
  return row;
}

/** A titled group of things in a player's area. */
export function group(title, cls, ...children) {
  return el("div", { class: `group ${cls}` }, el("span", { class: "group-title" }, title), children);
}

/** The zone an element belongs to, for previews ("row-2", "pile-1"). */
export function highlightZone(root, zone, on) {
  if (!root || !zone) return;
  root.querySelectorAll(`[data-zone="${zone}"]`).forEach((z) => z.classList.toggle("previewed", on));
}

/** Spread a hand as a fan: each card's place (--i) among the cards (--n), for the CSS. */
export function fan(hand) {
  const cards = [...hand.children];
  hand.style.setProperty("--n", String(Math.max(1, cards.length)));
  cards.forEach((c, i) => c.style.setProperty("--i", String(i)));
  return hand;
}

/** ``one`` when ``n`` is 1, else ``many`` (both already in the page's language). */
export function count(n, one, many) {
  return n === 1 ? one : many;
}

/** "3 cards in hand" for a screen reader. */
export function cardsInHand(n) {
  return count(n, _("{n} card in hand", { n: 1 }), _("{n} cards in hand", { n }));
}
