// "My games": the signed-in player's tables, the ones waiting for their move first (with the
// time left in games over days), then the seats kept for them (invitations, which they may
// take or decline), then the rest. The list is fetched again every half minute; the page's
// title and badge count the tables that wait for the player. The server lists a few of the
// newest invitations only, and counts a few in the badge: anyone may invite, so invitations
// must never drown the player's own games.
import {
  _, el, failure, gameTitle, langPicker, loadMessages, money, num, postJSON, seatNames,
} from "/static/i18n.js";
import { countdown, duration, leftText } from "/static/days.js";
import { myGames } from "/static/waiting.js";
import { accountControls } from "/static/account.js";
import { dateText, headerLink } from "/static/ratings.js";

const POLL_EVERY = 30_000;
const main = document.getElementById("main");

let status, lists;
let timers = [];

function link(id) {
  return `/t/${encodeURIComponent(id)}`;
}

/** The players of a table, "you" marked; an open seat kept for someone is named after them. */
function players(game) {
  const seats = game.table.seats;
  const names = seatNames(seats).map((n, i) => (seats[i].invited ? seats[i].name : n));
  return names.map((n, i) => (i === game.seat ? _("{name} (you)", { name: n }) : n)).join(_(", "));
}

/** A line of time left that counts down between two fetches. */
function timeLeft(game, who) {
  if (game.time_left === null) return null;
  const left = countdown(game.time_left);
  const node = el("span", { class: "time-left" });
  const draw = () => {
    const seconds = left();
    node.textContent = who === null ? leftText(seconds) : _("{name}: {time}", { name: who, time: leftText(seconds) });
    node.classList.toggle("soon", seconds < 3600 * 6);
  };
  draw();
  timers.push(draw);
  return node;
}

function pace(game) {
  const t = game.table;
  if (t.move_time) return el("span", { class: "t-status t-days" }, _("{time} a move", { time: duration(t.move_time) }));
  return el("span", { class: "t-status" }, _("Real time"));
}

/** When the table last moved (a finished game: when it ended), in the page's language. */
function when(game) {
  if (game.updated === null || game.updated === undefined) return null;
  const at = new Date(game.updated * 1000);
  return el("time", { class: "t-when", datetime: at.toISOString() }, dateText(at.toISOString()));
}

/** Whether the table counts for ratings. */
function rated(game) {
  return game.table.rated ? el("span", { class: "t-status t-rated" }, _("rated")) : null;
}

/** How a finished game ended for the player: won, or their place, and their score. */
function resultText(game) {
  const r = game.result;
  if (!r) return null;
  const score = game.table.game === "card_stock_market" ? money(r.score) : num(r.score);
  const text = r.won
    ? _("Won with {score}", { score })
    : _("Place {place} of {players}, {score}", { place: r.place, players: r.players, score });
  return el("span", { class: `t-result${r.won ? " won" : ""}` }, text);
}

/** A table in a list: its title, where it stands, its pace, what to do, its players. */
function item(game, state, actions) {
  const t = game.table;
  return el("li", { class: "my-game", "data-table": t.id },
    el("a", { class: "t-title", href: link(t.id) }, gameTitle(t.game, t.title)),
    state, pace(game), rated(game), when(game),
    t.hints_used ? el("span", { class: "t-status t-hints", title: _("A hint was taken at this table: its result counts for no rating.") }, _("hints used")) : null,
    actions || null,
    el("span", { class: "t-seats" }, players(game)));
}

function yourTurn(game) {
  return item(game, [el("span", { class: "chip chip-turn" }, _("Your turn")), timeLeft(game, null)],
    el("a", { class: "button primary play", href: link(game.table.id) }, _("Play")));
}

function invitation(game) {
  const error = el("span", { class: "error", role: "alert" });
  const take = el("button", { type: "button", class: "primary take-seat" }, _("Take your seat"));
  const decline = el("button", { type: "button", class: "decline" }, _("Decline"));
  const busy = (on) => { take.disabled = on; decline.disabled = on; };
  const id = encodeURIComponent(game.table.id);
  take.addEventListener("click", async () => {
    busy(true);
    error.textContent = "";
    try {
      const joined = await postJSON(`/api/tables/${id}/join`, {});
      localStorage.setItem(`closingbell.seat.${game.table.id}`, JSON.stringify({ seat: joined.seat, token: joined.token }));
      location.href = link(game.table.id);
    } catch (e) {
      busy(false);
      error.textContent = failure(e);
    }
  });
  decline.addEventListener("click", async () => {
    busy(true);
    error.textContent = "";
    try {
      await postJSON(`/api/tables/${id}/decline`, {});
    } catch (e) {
      busy(false);
      error.textContent = failure(e);
      return;
    }
    await draw();
    // The list was drawn again without this entry: say what happened where focus was.
    status.textContent = _("Invitation declined: the seat is open to anyone now.");
    status.focus();
  });
  return item(game, el("span", { class: "chip chip-waiting" }, _("Seat {n} is kept for you", { n: game.seat + 1 })), [take, decline, error]);
}

function other(game) {
  const t = game.table;
  if (t.status === "waiting") return item(game, el("span", { class: "t-status" }, _("waiting for players")));
  const names = seatNames(t.seats);
  const who = game.to_move === null ? null : names[game.to_move];
  const state = who === null ? _("playing") : _("{name} to play", { name: who });
  return item(game, [el("span", { class: "t-status status-playing" }, state), who === null ? null : timeLeft(game, who)]);
}

function finished(game) {
  const state = el("span", { class: "t-status" }, game.table.status === "abandoned" ? _("abandoned") : _("finished"));
  return item(game, [state, resultText(game)]);
}

function section(id, title, games, draw) {
  if (!games.length) return null;
  return el("section", { class: "my-section", id, "aria-labelledby": `${id}-title` },
    el("h2", { id: `${id}-title` }, title, " ", el("span", { class: "count" }, String(games.length))),
    el("ul", { class: "table-list my-list" }, games.map(draw)));
}

function showWaiting(count) {
  const badge = document.getElementById("waiting-badge");
  badge.hidden = !count;
  badge.textContent = String(count);
  badge.title = _("Tables waiting for you: {n}", { n: count });
  const title = `${_("My games")} · closingbell`;
  document.title = count ? `(${count}) ${title}` : title;
}

async function draw() {
  let answer;
  try {
    answer = await myGames();
  } catch (e) {
    status.textContent = failure(e);
    return;
  }
  timers = [];
  if (answer === null) {
    showWaiting(0);
    status.textContent = _("Sign in to see your games: your seats, whose turn it is and the seats kept for you.");
    lists.replaceChildren(el("p", {}, el("a", { href: "/" }, _("Back to the lobby"))));
    return;
  }
  const games = answer.games;
  showWaiting(answer.waiting);
  const turns = games.filter((g) => g.your_turn);
  const invited = games.filter((g) => g.invited);
  const ended = (g) => g.table.status === "finished" || g.table.status === "abandoned";
  const going = games.filter((g) => !g.your_turn && !g.invited && !ended(g));
  const over = games.filter(ended);
  status.textContent = games.length ? (turns.length ? "" : _("Nothing waits for you now.")) : _("You have no game yet.");
  const unlisted = answer.invitations - invited.length;
  lists.replaceChildren(...[
    section("your-turn", _("Your turn"), turns, yourTurn),
    section("invitations", _("Invitations"), invited, invitation),
    unlisted > 0 ? el("p", { id: "invitations-unlisted", class: "note" },
      unlisted === 1 ? _("1 more invitation is not listed; it appears as you take or decline these.")
        : _("{n} more invitations are not listed; they appear as you take or decline these.", { n: unlisted })) : null,
    section("others", _("Waiting for others"), going, other),
    section("finished", _("Finished"), over, finished),
    games.length
      ? el("p", { class: "back" }, el("a", { id: "back-to-lobby", href: "/" }, _("Back to the lobby")))
      : el("p", {}, el("a", { id: "back-to-lobby", class: "button primary", href: "/" }, _("Open a table in the lobby"))),
  ].filter(Boolean));
}

async function start() {
  await loadMessages();
  document.title = `${_("My games")} · closingbell`;
  document.getElementById("header-right").append(headerLink("/leaderboard", _("Leaderboard")), langPicker(), ...(await accountControls()));
  status = el("p", { id: "my-games-status", class: "note", role: "status", tabindex: "-1" });
  lists = el("div", { id: "my-games" });
  main.replaceChildren(el("section", { class: "panel my-games", "aria-labelledby": "my-games-title" },
    el("h1", { id: "my-games-title" }, _("My games"), " ", el("span", { id: "waiting-badge", class: "badge", hidden: true })),
    status, lists));
  await draw();
  setInterval(() => { if (!document.hidden) draw(); }, POLL_EVERY);
  setInterval(() => timers.forEach((t) => t()), POLL_EVERY / 2);
  document.addEventListener("visibilitychange", () => { if (!document.hidden) draw(); });
}

start();
