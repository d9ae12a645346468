// A table's page: join a seat, play in real time, watch, or step through the replay.
// The board of each game is a component (board-*.js) that draws a view and reports which
// card, row or pile was picked; this module keeps the connection, the choices, the log, the
// results and the replay.
import {
  _, el, svg, errorText, failure, fetchJSON, gameTitle, lang, langPicker, loadGames, loadMessages,
  nameNode, num, money, postJSON, seatLabel, seatNames, seatNumber,
} from "/static/i18n.js";
import * as takeStock from "/static/board-take-stock.js";
import * as cardStockMarket from "/static/board-card-stock-market.js";
import { cardBack, playingCardName } from "/static/cards.js";
import * as motion from "/static/motion.js";
import { patch } from "/static/patch.js";
import { chime, setSound, soundOn } from "/static/sound.js";
import { account, accountControls } from "/static/account.js";
import { deadlineLine } from "/static/days.js";
import { createChat } from "/static/chat.js";
import { createRematch } from "/static/rematch.js";
import { createHints } from "/static/hints.js";
import { createReview } from "/static/review.js";
import { createLessons } from "/static/lessons.js";
import { createPacer, paceControl } from "/static/pace.js";
import { keepOnline } from "/static/online.js";
import { ratingChangeLine } from "/static/ratings.js";

const BOARDS = { take_stock: takeStock, card_stock_market: cardStockMarket };
const tableId = decodeURIComponent(location.pathname.split("/").pop());
const seatKey = `closingbell.seat.${tableId}`;
const standInKey = `closingbell.standins.${tableId}`;
const NAME_KEY = "closingbell.name";
const main = document.getElementById("main");

let info = null;
let seats = [];
let labels = {};
let words = {};
let shares = [];
let board = null;
let title = "";
let names = [];
let socket = null;
let last = null;
let events = [];
let retry = 500;
let selected = null;
let busy = false;
/** How long the server refuses a connection over its message rate (its ``refusal_window``),
 * with a little to spare. */
const REFUSAL_WINDOW_MS = 1100;
let replaying = null;
let wasMyTurn = null;
let finalShown = false;
let roundsSeen = null;
let user = null; // the signed-in account ({ username }), or null for a guest
let pacer = null; // shows the bots' moves at the chosen pace (pace.js)
let arrived = 0; // when the state shown was received (performance.now())
let searchBots = new Set(); // the bots that think for a while (search)
const standIns = new Set(JSON.parse(localStorage.getItem(standInKey) || "[]"));
let usingKeyboard = false;
let focusInTable = false;
document.addEventListener("keydown", () => { usingKeyboard = true; }, true);
document.addEventListener("pointerdown", () => { usingKeyboard = false; }, true);

// ------------------------------------------------------------------ the page's parts

let statusLine, statusDetail, watching, previewLine, recentLine, banner, joinBox, othersBox, centerBox, decision;
let mineBox, turn, dock, replayBar, tableCol, logList, replayLog, roundsPanel, tabLog, tabRounds, panelLog;
let panelRounds, sidePanel, tools, side, overlay, deadline, chat, rematch, hints, review, lessons;
let ratedMark;

/** The header's mark of a rated table, shown while its result counts for ratings. */
function drawRated() {
  ratedMark.hidden = !(info && info.rated && !info.hints_used);
}
let thinking;

/** Make the page's parts (once the page's words are loaded). */
function build() {
  statusLine = el("span", { id: "status" });
  statusDetail = el("p", { id: "status-detail", class: "status-detail" });
  watching = el("span", { id: "watching", class: "chip watching", hidden: true });
  ratedMark = el("span", {
    id: "rated-mark", class: "chip chip-rated", hidden: true,
    title: _("The result counts for the players' ratings."),
  }, _("Rated"));
  // Counted every second: not read out each time by screen readers.
  thinking = el("span", { id: "thinking", class: "chip thinking", hidden: true, "aria-live": "off" });
  previewLine = el("p", { id: "preview", class: "preview" });
  recentLine = el("p", { id: "recent", class: "recent" });
  deadline = deadlineLine();
  hints = createHints(send, () => (info ? info.game : null));
  banner = el("div", { id: "banner", class: "banner" },
    el("div", { class: "status-box" },
      el("div", { role: "status", "aria-live": "polite" },
        el("p", { class: "status-main" }, statusLine, " ", watching, " ", thinking, " ", hints.chip), statusDetail),
      previewLine),
    hints.element, deadline.node, recentLine);
  joinBox = el("div", { id: "join", hidden: true });
  othersBox = el("div", { id: "others" });
  centerBox = el("div", { id: "center" });
  decision = el("section", { id: "decision", class: "decision", hidden: true, "aria-label": _("Your choices") });
  mineBox = el("div", { id: "mine" });
  replayBar = el("div", { id: "replay-controls", class: "replay-controls", hidden: true });
  review = createReview(tableId, {
    names: () => names, seats: () => seats, money: () => info.game === "card_stock_market",
    stepTo: reviewStep, onClose: () => { if (replaying && replaying.seat !== null) stopReplay(); },
  });
  // The turn (what is happening, and the choices) stays in view at the top; on a phone the
  // choices go to the dock at the bottom with the hand instead (see ``place``).
  turn = el("div", { id: "turn", class: "turn" }, banner, decision);
  dock = el("div", { id: "dock", class: "dock" }, mineBox);
  tableCol = el("div", { id: "table-col", class: "table-col", tabindex: "-1" },
    turn, replayBar, review.detail, othersBox, centerBox, dock);
  // The scrolling parts take the keyboard's focus, so that they can be scrolled with it.
  logList = el("ol", { id: "log", class: "log", tabindex: "0", "aria-label": _("Log") });
  replayLog = el("ol", { id: "replay-log", class: "log", hidden: true, tabindex: "0", "aria-label": _("Log") });
  roundsPanel = el("div", { id: "rounds", class: "rounds-panel", tabindex: "0" });
  tabLog = el("button", { type: "button", role: "tab", id: "tab-log", "aria-selected": "true", "aria-controls": "panel-log" }, _("Log"));
  tabRounds = el("button", { type: "button", role: "tab", id: "tab-rounds", "aria-selected": "false", "aria-controls": "panel-rounds", tabindex: "-1" }, _("Rounds"));
  panelLog = el("div", { role: "tabpanel", id: "panel-log", "aria-labelledby": "tab-log" }, logList, replayLog);
  panelRounds = el("div", { role: "tabpanel", id: "panel-rounds", "aria-labelledby": "tab-rounds", hidden: true }, roundsPanel);
  sidePanel = el("details", { id: "side-panel", class: "side-panel" },
    el("summary", {}, _("Log and rounds")),
    el("div", { role: "tablist", class: "tabs", "aria-label": _("Log and rounds") }, tabLog, tabRounds),
    panelLog, panelRounds);
  tools = el("div", { id: "tools", class: "tools" });
  chat = createChat(send);
  rematch = createRematch(send, tableId);
  lessons = createLessons(tableId);
  side = el("aside", { id: "side", class: "side", "aria-label": _("Log and tools") }, review.panel, sidePanel, lessons.element, chat.element, tools);
  overlay = el("dialog", { id: "overlay", class: "overlay", "aria-labelledby": "overlay-title" });
}

const WIDE = window.matchMedia("(min-width: 1024px)");
const PHONE = window.matchMedia("(max-width: 700px)");

/**
 * Put the parts where the screen has room for them. On a wide screen the other players sit
 * in the side column, beside the market, and the choices stay at the top with the turn; on
 * a phone the choices sit in the dock at the bottom, under the hand, so that the hand, the
 * question and its answers are on the first screen of a turn.
 */
function place() {
  const focused = document.activeElement;
  if (WIDE.matches) side.prepend(othersBox);
  else tableCol.insertBefore(othersBox, centerBox);
  if (PHONE.matches) dock.append(decision);
  else turn.append(decision);
  if (focused && focused !== document.activeElement && document.contains(focused)) focused.focus({ preventScroll: true });
}

function selectTab(which) {
  const rounds = which === "rounds";
  tabLog.setAttribute("aria-selected", String(!rounds));
  tabRounds.setAttribute("aria-selected", String(rounds));
  tabLog.tabIndex = rounds ? -1 : 0;
  tabRounds.tabIndex = rounds ? 0 : -1;
  panelLog.hidden = rounds;
  panelRounds.hidden = !rounds;
  sidePanel.open = true;
}

function tabKeys() {
  tabLog.addEventListener("click", () => selectTab("log"));
  tabRounds.addEventListener("click", () => selectTab("rounds"));
  for (const tab of [tabLog, tabRounds]) {
    tab.addEventListener("keydown", (e) => {
      if (e.key === "ArrowRight" || e.key === "ArrowLeft") {
        const other = tab === tabLog ? tabRounds : tabLog;
        if (!other.hidden) { selectTab(other === tabLog ? "log" : "rounds"); other.focus(); }
      }
    });
  }
}

function stored() {
  try { return JSON.parse(localStorage.getItem(seatKey)); } catch { return null; }
}

function me() {
  return last ? last.seat : (stored() ? stored().seat : null);
}

// ------------------------------------------------------------------ joining

let joinForm = null;

function drawJoin() {
  const open = seats.filter((s) => s.kind === "open");
  if (stored() || !info || info.status !== "waiting") {
    joinBox.hidden = true;
    joinBox.replaceChildren();
    joinForm = null;
    return;
  }
  joinBox.hidden = false;
  if (!open.length) {
    joinForm = null;
    joinBox.replaceChildren(el("p", { class: "panel" }, _("Every seat is taken: you are watching.")));
    return;
  }
  if (!joinForm) {
    const name = el("input", { id: "name", maxlength: 32, required: !user, autocomplete: "nickname" });
    name.value = user ? user.username : localStorage.getItem(NAME_KEY) || "";
    // A signed-in player sits under their account's name.
    name.disabled = Boolean(user);
    const seat = el("select", { id: "join-seat" });
    const note = el("p", { id: "join-note", class: "note", "aria-live": "polite" });
    const error = el("p", { id: "join-error", class: "error", role: "alert" });
    const form = el("form", { class: "panel join-form", id: "join-form" },
      el("h2", {}, _("Join this table")),
      el("div", { class: "fields" },
        el("label", { for: "name" }, _("Your name")), name,
        el("label", { for: "join-seat" }, _("Seat")), seat,
        el("button", { type: "submit", id: "join-button", class: "primary" }, _("Join"))),
      note, error);
    form.addEventListener("submit", (event) => { event.preventDefault(); join(name.value, Number(seat.value), error); });
    joinForm = { form, seat, note };
    joinBox.replaceChildren(form);
  }
  const { seat, note } = joinForm;
  const before = seat.value;
  seat.replaceChildren(...open.map((s) => el("option", { value: s.seat }, seatLabel(s.seat))));
  if (before !== "" && open.some((s) => String(s.seat) === before)) seat.value = before;
  else if (before !== "") note.textContent = _("Seat {n} was just taken: choose another seat.", { n: Number(before) + 1 });
}

async function join(name, seat, error) {
  error.textContent = "";
  try {
    const body = user ? { seat } : { name, seat };
    const answer = await postJSON(`/api/tables/${encodeURIComponent(tableId)}/join`, body);
    localStorage.setItem(seatKey, JSON.stringify({ seat: answer.seat, token: answer.token }));
    if (!user) localStorage.setItem(NAME_KEY, name.trim());
    info = answer.table;
    seats = info.seats;
    drawJoin();
    connect();
  } catch (e) {
    error.textContent = failure(e, { seat: seatNumber(seat) });
    try {
      info = (await fetchJSON(`/api/tables/${encodeURIComponent(tableId)}`)).table;
      seats = info.seats;
      drawJoin();
      // The refusal already says that the seat was taken: once is enough.
      if (e.code === "seat_taken" && joinForm) joinForm.note.textContent = "";
    } catch { /* the socket will tell */ }
  }
}

// ------------------------------------------------------------------ choices

let targets = new Map();
let buttons = [];

function thingName(key, view) {
  const [kind, raw] = key.split(":");
  const id = Number(raw);
  if (info.game === "take_stock") {
    if (kind === "hand" || kind === "pile" || kind === "top") return kind === "top" ? words.stocks[id] : words.cards[id];
    if (kind === "row" || kind === "split") return words.stocks[id];
    return words.events[id];
  }
  if (kind === "hand" || kind === "cert") return playingCardName({ words }, id);
  return key;
}

function makeCtx(view, legal, seatList) {
  targets = new Map();
  buttons = [];
  for (const action of legal) {
    const place = board.decode(action.id, view);
    if (place.target) {
      if (!targets.has(place.target)) targets.set(place.target, []);
      targets.get(place.target).push({ action, ...place });
    } else {
      buttons.push({ action, ...place });
    }
  }
  return {
    words, shares, names, seats: seatList, me: view.seat,
    current: last && last.status === "abandoned" ? null : view.current_player, // nobody plays on
    waiting: view.waiting || [], options: info.options, events,
    pick(key) {
      if (!targets.has(key) || busy) return null;
      const uses = targets.get(key);
      const text = uses.map((u) => u.action.label || u.action.text).join(" · ");
      return {
        target: key, selected: key === selected, cls: key === selected ? "selected" : "",
        label: text, title: text,
        onPick: () => choose(key),
        onFocus: () => preview(uses),
        onBlur: () => preview(null),
      };
    },
  };
}

function preview(uses) {
  document.querySelectorAll(".previewed").forEach((z) => z.classList.remove("previewed"));
  if (!uses) { previewLine.textContent = ""; return; }
  previewLine.textContent = `→ ${uses.map((u) => u.action.label || u.action.text).join(" · ")}`;
  for (const u of uses) {
    if (u.zone) document.querySelectorAll(`[data-zone="${u.zone}"]`).forEach((z) => z.classList.add("previewed"));
  }
}

function choose(key) {
  const uses = targets.get(key);
  if (!uses || busy) return;
  if (uses.length === 1 && board.direct(last.view)) {
    play(uses[0].action);
    return;
  }
  selected = key;
  redraw();
  const first = decision.querySelector(".menu button");
  if (first) first.focus();
}

function cancel() {
  const key = selected;
  selected = null;
  redraw();
  const back = key && document.querySelector(`[data-target="${CSS.escape(key)}"]`);
  if (back) back.focus();
}

/** Whether an action is on its way to the server: the choices are closed meanwhile. */
function setBusy(on) {
  busy = on;
  document.body.classList.toggle("busy", on);
}

/** Open the choices again after a refused action. */
function reopen() {
  setBusy(false);
  redraw();
}

function play(action) {
  if (!last || busy) return;
  // The buttons are about to be disabled, which takes the focus away: remember where it was.
  focusInTable = tableCol.contains(document.activeElement);
  setBusy(true);
  selected = null;
  preview(null);
  decision.querySelectorAll("button").forEach((b) => { b.disabled = true; });
  document.querySelectorAll("#table-col .playable").forEach((b) => { b.disabled = true; });
  send({ type: "action", version: last.version, action: action.id });
}

function choiceButton(use, cls) {
  return el("button", {
    type: "button", class: `choice ${cls}`, "data-action": use.action.id,
    onclick: () => play(use.action),
    onmouseenter: () => preview([use]), onfocus: () => preview([use]),
    onmouseleave: () => preview(null), onblur: () => preview(null),
  }, use.action.label || use.action.text);
}

/** Highlight the control of the action a hint prefers: its card, row or pile, its button. */
function markHint(id) {
  if (id === null) return;
  for (const [key, uses] of targets) {
    if (uses.some((u) => u.action.id === id)) {
      tableCol.querySelectorAll(`[data-target="${CSS.escape(key)}"]`).forEach((n) => n.classList.add("hinted"));
    }
  }
  decision.querySelectorAll(`[data-action="${id}"]`).forEach((n) => n.classList.add("hinted"));
}

/** Scroll a hand sideways (a phone's) until the hinted card shows; the page stays put. */
function bringHintedIntoView() {
  const card = tableCol.querySelector(".hand .hinted");
  const hand = card && card.closest(".hand");
  if (!hand || hand.scrollWidth <= hand.clientWidth) return;
  const box = hand.getBoundingClientRect();
  const at = card.getBoundingClientRect();
  hand.scrollLeft += at.left - box.left - (box.width - at.width) / 2;
}

function drawDecision(view, ctx) {
  const mine = view && view.seat !== null && view.seat !== undefined;
  if (!mine || !last.legal.length || replaying || last.status !== "playing") {
    decision.hidden = true;
    document.body.classList.remove("picking");
    decision.replaceChildren();
    return;
  }
  decision.hidden = false;
  const parts = [
    el("h2", { class: "visually-hidden" }, _("Your choices")),
    el("p", { class: "decision-prompt", id: "decision-prompt" }, board.prompt(view, ctx)),
  ];
  const picked = selected && targets.has(selected);
  const row = [];
  if (picked) {
    const thing = thingName(selected, view);
    row.push(el("div", { class: "menu", role: "group", "aria-label": _("What to do with {thing}", { thing }) },
      el("span", { class: "menu-title" }, _("{thing}:", { thing })),
      targets.get(selected).map((u) => choiceButton(u, "menu-choice"))));
  }
  if (buttons.length) row.push(el("div", { class: "buttons" }, buttons.map((u) => choiceButton(u, "button-choice"))));
  // Cancel comes last, after every choice: never between a card's choices and the others.
  if (picked) row.push(el("button", { type: "button", class: "cancel", onclick: cancel }, _("Cancel")));
  if (row.length) parts.push(el("div", { class: "choices-row" }, row));
  decision.classList.toggle("picking", Boolean(picked));
  document.body.classList.toggle("picking", Boolean(picked));
  const quiet = !buttons.length && !selected;
  if (quiet) parts.push(el("p", { class: "hint" }, _("Pick one of the highlighted cards or rows.")));
  parts.push(el("p", { id: "choice-error", class: "error", role: "alert" }));
  decision.classList.toggle("quiet", quiet);
  decision.replaceChildren(...parts);
}

// ------------------------------------------------------------------ drawing the table

function waitingBoard() {
  const list = el("ul", { class: "seat-list", id: "seats" }, seats.map((s) => el("li", { class: `seat-${s.kind}` },
    el("span", { class: "seat-no", "aria-hidden": "true" }, String(seatNumber(s.seat))),
    el("span", {}, seatLabel(s.seat), _(": "), s.kind === "open" ? el("em", {}, _("open")) : s.bot_account ? nameNode(s.name, true) : names[s.seat]),
    s.seat === me() ? el("span", { class: "chip chip-you" }, _("You")) : null)));
  return el("section", { class: "panel waiting" }, el("h2", {}, _("Seats")), list, shareBox());
}

function shareBox() {
  const link = el("input", { id: "share", readonly: true, value: location.href });
  const copy = el("button", {
    type: "button", id: "copy-link", onclick: async () => {
      try { await navigator.clipboard.writeText(location.href); copy.textContent = _("Copied"); } catch { link.select(); }
    },
  }, _("Copy"));
  return el("div", { class: "share" }, el("label", { for: "share" }, _("Invite others with this link:")), el("div", { class: "share-row" }, link, copy));
}

function redraw() {
  if (!last) return;
  names = seatNames(last.seats, labels);
  if (replaying) return;
  if (!last.view) {
    othersBox.replaceChildren();
    centerBox.replaceChildren(waitingBoard());
    mineBox.replaceChildren();
    decision.hidden = true;
    return;
  }
  // Keyboard players keep their place: the focus stays on the table as it is drawn anew.
  const focused = document.activeElement;
  const hadFocus = (focused && tableCol.contains(focused)) || focusInTable;
  focusInTable = false;
  const focusedTarget = hadFocus && focused.dataset ? focused.dataset.target : null;
  const ctx = makeCtx(last.view, busy ? [] : last.legal, last.seats);
  const parts = board.render(last.view, ctx);
  patch(othersBox, [parts.others]);
  patch(centerBox, [parts.center]);
  patch(mineBox, parts.mine ? [parts.mine] : []);
  drawDecision(last.view, ctx);
  markHint(hints.best(last.version));
  const now = document.activeElement;
  if (hadFocus && usingKeyboard && (now === tableCol || !tableCol.contains(now))) {
    const again = focusedTarget && tableCol.querySelector(`[data-target="${CSS.escape(focusedTarget)}"]`);
    const next = again || tableCol.querySelector(".playable:not([disabled]), #decision button:not([disabled])");
    (next || tableCol).focus({ preventScroll: !next });
  }
}

function winnersSentence(result) {
  const who = result.winners.map((p) => names[p]).join(_(", "));
  const score = info.game === "card_stock_market" ? money(result.scores[result.winners[0]]) : num(result.scores[result.winners[0]]);
  if (result.winners.length === 1) return _("{names} wins with {score}.", { names: who, score });
  return _("{names} share the win with {score}.", { names: who, score });
}

function drawBanner() {
  const mine = last ? last.seat : null;
  let main = "";
  let detail = "";
  let yourTurn = false;
  if (!last || last.status === "waiting") {
    const taken = seats.filter((s) => s.kind !== "open").length;
    main = _("Waiting for players");
    detail = _("{taken} of {total} seats taken: the game starts when every seat is taken.", { taken, total: seats.length });
  } else if (last.status === "finished") {
    main = _("Game over");
    detail = last.result ? winnersSentence(last.result) : "";
  } else if (last.status === "abandoned") {
    main = _("Game abandoned");
    detail = _("Nobody came back to this table for a long while: it ended without a result.");
  } else if (last.view) {
    const ctx = { words, names };
    yourTurn = mine !== null && last.legal.length > 0;
    main = yourTurn ? _("Your turn") : _("{name} to play", { name: names[last.current_player] ?? "?" });
    detail = board.prompt(last.view, ctx);
  }
  statusLine.textContent = main;
  statusDetail.textContent = detail;
  deadline.update(last, info, names);
  banner.classList.toggle("your-turn", yourTurn);
  document.body.classList.toggle("your-turn", yourTurn);
  const spectator = last && last.seat === null && !stored();
  watching.hidden = !spectator || !last || last.status === "waiting";
  watching.textContent = _("You are watching");
  watching.title = _("You are watching this table: you see what everyone sees, and no hand.");
  document.title = yourTurn ? `● ${_("Your turn")} · ${title}` : `${title} · closingbell`;
  if (yourTurn && wasMyTurn === false) chime();
  wasMyTurn = yourTurn;
  drawThinking();
}

/** While a bot decides, that it thinks and for how long (a search bot's at once). */
function drawThinking() {
  const seat = last && last.status === "playing" && !replaying ? last.current_player : null;
  const bot = seat === null || seat === undefined ? null : seats[seat];
  const seconds = last ? (last.deciding_for || 0) + (performance.now() - arrived) / 1000 : 0;
  const show = Boolean(bot && bot.kind === "bot" && !(pacer && pacer.behind())
    && (searchBots.has(bot.name) || seconds >= 2));
  thinking.hidden = !show;
  thinking.textContent = show ? _("Thinking… {seconds} s", { seconds: Math.floor(seconds) }) : "";
}

// ------------------------------------------------------------------ the log

function saveStandIns() {
  localStorage.setItem(standInKey, JSON.stringify([...standIns]));
}

function logLine(line, index) {
  const li = el("li", {}, line);
  const e = events[index];
  if (standIns.has(index) && e && e.seat !== undefined) {
    li.prepend(el("span", { class: "tag-standin" }, _("played for {name}", { name: names[e.seat] })), " ");
  }
  return li;
}

function appendLog(message, start) {
  const lines = message.lines.length ? message.lines : message.events.map(() => null);
  const by = message.last_action ? message.last_action.by : null;
  if (by === "stand_in" && message.first_event > 0) {
    const seat = message.last_action.seat;
    let mark = message.events.findIndex((e, i) => lines[i] && e.seat === seat);
    if (mark < 0) mark = lines.findIndex((l) => l);
    if (mark >= 0) { standIns.add(start + mark); saveStandIns(); }
  }
  names = seatNames(message.seats, labels);
  lines.forEach((line, i) => { if (line) logList.append(logLine(line, start + i)); });
  logList.scrollTop = logList.scrollHeight;
  // What just happened, in a line, for a screen where the log is folded away (a phone's).
  const latest = [...logList.children].slice(-2).map((li) => li.textContent);
  recentLine.textContent = latest.join(" · ");
  recentLine.title = recentLine.textContent;
}

// ------------------------------------------------------------------ results

function openOverlay(heading, body, actions, onClose) {
  if (overlay.open) overlay.close();
  const close = el("button", { type: "button", class: "primary", id: "overlay-close", onclick: () => overlay.close() }, _("Close"));
  overlay.replaceChildren(el("h2", { id: "overlay-title" }, heading), body, el("div", { class: "overlay-actions" }, actions, close));
  overlay.onclose = onClose || null;
  overlay.showModal();
  close.focus();
}

function drawRounds() {
  const all = board.rounds(events);
  tabRounds.hidden = info.game !== "take_stock";
  if (!all.length) {
    roundsPanel.replaceChildren(el("p", { class: "note" }, _("No round has been scored yet.")));
    return;
  }
  const ctx = { words, names, events };
  roundsPanel.replaceChildren(...all.map((e) => el("section", { class: "round-box" },
    el("h3", {}, _("Round {round}", { round: e.round })), board.roundResult(e, ctx, all))));
  labelCells(roundsPanel);
}

/**
 * Give every figure of the results tables in ``root`` its column's name (``data-label``), so
 * that a phone can show each player's row as a card of named figures instead of a table
 * wider than the screen (style.css).
 */
function labelCells(root) {
  for (const table of root.querySelectorAll("table.results")) {
    table.classList.add("stacks");
    const heads = [...table.querySelectorAll("thead th")].map((th) =>
      [...th.childNodes].map((n) => n.textContent.trim()).filter(Boolean).join(" "));
    for (const row of table.querySelectorAll("tbody tr")) {
      [...row.children].forEach((cell, i) => { if (heads[i]) cell.dataset.label = heads[i]; });
    }
  }
  return root;
}

function showRound(e) {
  const all = board.rounds(events);
  const ctx = { words, names, events };
  openOverlay(_("Round {round} results", { round: e.round }),
    labelCells(el("div", { class: "overlay-body", id: "round-results" }, board.roundResult(e, ctx, all),
      el("p", { class: "note" }, _("Every round's results stay in the Rounds tab beside the log.")))), []);
}

function finalScreen() {
  if (!last || !last.result) return;
  const ctx = { words, names, events };
  const body = labelCells(el("div", { class: "overlay-body", id: "final" },
    el("p", { class: "winners" }, winnersSentence(last.result)),
    board.finalBreakdown(ctx, last.result), lessons.summary()));
  openOverlay(_("Game over"), body, endButtons("overlay"));
  const seat = me();
  if (info.rated && !info.hints_used && seat !== null && seat !== undefined) {
    ratingChangeLine(tableId, seat).then((line) => { if (line && body.isConnected) body.firstChild.after(line); });
  }
}

function endButtons(where) {
  // A guided game goes on to a real one, not to the same lesson again.
  const out = [lessons.active() ? lessons.endButtons(where) : rematch.box(where)];
  if (me() !== null && stored() && !lessons.active()) {
    out.push(el("button", { type: "button", class: "primary play-again", id: `play-again-${where}`, onclick: playAgain }, _("Play again")));
  }
  out.push(el("a", { class: "button record-link", id: `record-${where}`, href: `/api/tables/${encodeURIComponent(tableId)}/record.cbrec`, download: true }, _("Download record")));
  out.push(el("button", { type: "button", class: "replay-button", id: `replay-${where}`, onclick: () => startReplay(null) }, _("Step through the replay")));
  out.push(el("button", { type: "button", class: "review-button", id: `review-${where}`, onclick: openReview }, _("Review a seat's decisions")));
  return out;
}

function drawTools() {
  const parts = [];
  if (last && last.status === "finished") {
    parts.push(el("button", { type: "button", id: "show-final", onclick: finalScreen }, _("Final scores")), ...endButtons("side"));
    parts.push(el("p", { id: "play-again-error", class: "error", role: "alert" }));
  }
  if (last && last.status !== "waiting") parts.push(shareBox());
  tools.replaceChildren(...parts);
}

async function playAgain() {
  const seat = me();
  const error = document.getElementById("play-again-error");
  try {
    const options = { ...info.options };
    delete options.players;
    const body = { game: info.game, seats: seats.map((s) => (s.kind === "bot" ? s.name : "open")), options };
    if (info.clock) body.clock = info.clock;
    if (info.move_time) body.move_time = info.move_time;
    if (info.spectator_chat) body.spectator_chat = true;
    if (info.rated && user && !info.from_position) body.rated = true;
    // A practice table plays its position again (the game is over: its record shows it).
    if (info.from_position) body.position = (await fetchJSON(`/api/tables/${encodeURIComponent(tableId)}/record`)).position;
    const { table } = await postJSON("/api/tables", body);
    const name = localStorage.getItem(NAME_KEY) || names[seat];
    const answer = await postJSON(`/api/tables/${encodeURIComponent(table.id)}/join`, user ? { seat } : { name, seat });
    localStorage.setItem(`closingbell.seat.${table.id}`, JSON.stringify({ seat: answer.seat, token: answer.token }));
    location.href = `/t/${encodeURIComponent(table.id)}`;
  } catch (e) {
    if (overlay.open) overlay.close();
    if (error) error.textContent = failure(e);
  }
}

// ------------------------------------------------------------------ the review

function openReview() {
  if (overlay.open) overlay.close();
  const mine = me();
  review.open(mine === null || mine === undefined ? 0 : mine);
}

/** The replay's board at the state before action ``index``, as ``seat`` saw it. */
async function reviewStep(seat, index) {
  if (!replaying || replaying.seat !== seat) {
    if (replaying) stopReplay(false);
    if (!(await startReplay(seat, false))) return;
  }
  replaying.show(index);
}

// ------------------------------------------------------------------ the replay

/**
 * Step through the finished game: as the public saw it (``seat`` null), or as one seat saw
 * it (its hand too: the game is over). Whether it started; ``focus`` moves to the slider.
 */
async function startReplay(seat, focus = true) {
  if (overlay.open) overlay.close();
  const steps = [];
  let total = 1;
  const asSeat = seat === null || seat === undefined ? "" : `&seat=${seat}`;
  try {
    while (steps.length < total) {
      const page = await fetchJSON(`/api/tables/${encodeURIComponent(tableId)}/replay?start=${steps.length}&limit=1000&lang=${lang()}${asSeat}`);
      total = page.total;
      steps.push(...page.steps);
    }
  } catch (e) {
    statusDetail.textContent = failure(e);
    return false;
  }
  if (replaying) stopReplay(false);
  const viewer = asSeat ? seat : null;
  replaying = { steps, at: 0, timer: null, seat: viewer, show: null };
  hints.show(last, seats, replaying);
  document.body.classList.add("replaying");
  decision.hidden = true;
  logList.hidden = true;
  replayLog.hidden = false;
  selectTab("log");
  const slider = el("input", { type: "range", id: "replay-slider", min: 0, max: steps.length - 1, value: 0, "aria-label": _("Step") });
  const counter = el("span", { id: "replay-step", class: "replay-step" });
  const icon = (d) => svg("svg", { viewBox: "0 0 20 20", "aria-hidden": "true", focusable: "false" }, svg("path", { d }));
  const ICONS = {
    first: "M2 3h2.5v14H2zM11 3v14L4.5 10zM18 3v14l-6.5-7z",
    prev: "M3.5 3H6v14H3.5zM16 3v14L7 10z",
    play: "M6 3v14l10-7z",
    pause: "M5 3h3.5v14H5zM11.5 3H15v14h-3.5z",
    next: "M4 3v14l9-7zM14 3h2.5v14H14z",
    last: "M15.5 3H18v14h-2.5zM9 3v14l6.5-7zM2 3v14l6.5-7z",
  };
  const playButton = el("button", { type: "button", id: "replay-play", "aria-label": _("Play the replay"), title: _("Play the replay") }, icon(ICONS.play));
  const go = (i) => show(Math.max(0, Math.min(steps.length - 1, i)));
  const control = (id, d, label, fn) => el("button", { type: "button", id, "aria-label": label, title: label, onclick: fn }, icon(d));
  slider.addEventListener("input", () => go(Number(slider.value)));
  playButton.addEventListener("click", () => {
    if (replaying.timer) { stopAuto(); return; }
    playButton.replaceChildren(icon(ICONS.pause));
    playButton.setAttribute("aria-label", _("Pause the replay"));
    playButton.title = _("Pause the replay");
    replaying.timer = setInterval(() => {
      if (replaying.at >= steps.length - 1) { stopAuto(); return; }
      go(replaying.at + 1);
    }, 900);
  });
  function stopAuto() {
    clearInterval(replaying.timer);
    replaying.timer = null;
    playButton.replaceChildren(icon(ICONS.play));
    playButton.setAttribute("aria-label", _("Play the replay"));
    playButton.title = _("Play the replay");
  }
  replayBar.hidden = false;
  replayBar.replaceChildren(
    el("h2", { class: "replay-title visually-hidden" }, _("Replay")),
    el("div", { class: "replay-buttons" },
      control("replay-first", ICONS.first, _("First step"), () => go(0)),
      control("replay-prev", ICONS.prev, _("Previous step"), () => go(replaying.at - 1)),
      playButton,
      control("replay-next", ICONS.next, _("Next step"), () => go(replaying.at + 1)),
      control("replay-last", ICONS.last, _("Last step"), () => go(steps.length - 1))),
    slider, counter,
    el("button", { type: "button", id: "replay-back", class: "primary", onclick: stopReplay }, _("Back to the table")));

  function show(i) {
    replaying.at = i;
    slider.value = String(i);
    const step = steps[i];
    counter.textContent = _("Step {n} of {total}", { n: i, total: steps.length - 1 });
    const ctx = {
      // A seat's replay shows its hand; "You" marks it only for that seat's own player.
      words, shares, names, seats: last.seats, me: viewer !== null && viewer === me() ? viewer : null,
      current: step.view.current_player,
      waiting: step.view.waiting || [], options: info.options,
      events: steps.slice(0, i + 1).flatMap((s) => s.events), pick: () => null,
    };
    const parts = board.render(step.view, ctx);
    othersBox.replaceChildren(parts.others);
    centerBox.replaceChildren(parts.center);
    mineBox.replaceChildren(...(parts.mine ? [parts.mine] : []));
    const items = [];
    for (const s of steps.slice(0, i + 1)) {
      if (s.action) {
        items.push(el("li", { class: "replay-action" }, _("{name}: {action}", { name: names[s.action.seat], action: s.action.label || s.action.text })));
      }
      for (const line of s.lines || []) if (line) items.push(el("li", {}, line));
    }
    replayLog.replaceChildren(...items);
    replayLog.scrollTop = replayLog.scrollHeight;
    statusLine.textContent = viewer === null ? _("Replay") : _("Replay as {name} saw it", { name: names[viewer] });
    review.stepped(viewer, i);
    statusDetail.textContent = step.action
      ? _("{name}: {action}", { name: names[step.action.seat], action: step.action.label || step.action.text })
      : (info && info.from_position ? _("The starting position") : _("The deal"));
  }
  replaying.show = show;
  document.body.dataset.replaySeat = viewer === null ? "public" : String(viewer);
  show(0);
  if (focus) slider.focus();
  return true;
}

/** Back to the table (``redraw``: draw it; false when another replay follows at once). */
function stopReplay(redrawn = true) {
  if (replaying && replaying.timer) clearInterval(replaying.timer);
  replaying = null;
  hints.show(last, seats, replaying);
  document.body.classList.remove("replaying");
  replayBar.hidden = true;
  replayBar.replaceChildren();
  logList.hidden = false;
  replayLog.hidden = true;
  replayLog.replaceChildren();
  delete document.body.dataset.replaySeat;
  review.stepped(null, -1);
  if (!redrawn) return;
  redraw();
  drawBanner();
  const back = document.getElementById("replay-side");
  if (back) back.focus();
}

// ------------------------------------------------------------------ the connection

function send(message) {
  if (socket && socket.readyState === WebSocket.OPEN) socket.send(JSON.stringify(message));
}

function drawState(message) {
  const snap = motion.snapshot(main); // the other players may sit in the side column
  // A table started from a position has no log before its first move: that move's message
  // starts at event 0 too, and follows on from what was drawn.
  const incremental = last !== null && (message.first_event > 0 || events.length === 0);
  if (message.first_event === 0) {
    events = [];
    logList.replaceChildren();
  }
  const start = events.length;
  events.push(...message.events);
  const versionChanged = !last || last.version !== message.version;
  last = message;
  seats = message.seats;
  setBusy(false);
  if (versionChanged) selected = null;
  hints.show(message, seats, replaying);
  appendLog(message, start);
  preview(null);
  redraw();
  drawBanner();
  drawJoin();
  rematch.show(names, seats);
  drawTools();
  drawRounds();
  main.classList.remove("loading");
  if (incremental && !replaying) {
    motion.play(main, snap, board.moves(message.events, { me: message.seat }), (kind) => cardBack(kind));
  }
  // Round results pop up as they are scored; on a fresh load the past ones stay in the tab.
  const rounds = board.rounds(events);
  if (roundsSeen === null) roundsSeen = new Set(rounds.map((e) => e.round));
  const fresh = rounds.filter((e) => !roundsSeen.has(e.round));
  fresh.forEach((e) => roundsSeen.add(e.round));
  if (replaying) return;
  if (message.result && !finalShown) {
    finalShown = true;
    finalScreen();
  } else if (fresh.length) {
    showRound(fresh[fresh.length - 1]);
  }
}

function showError(code) {
  const where = document.getElementById("choice-error");
  const text = errorText(code);
  if (where && !decision.hidden && !decision.classList.contains("quiet")) where.textContent = text;
  else previewLine.textContent = text;
}

function connect() {
  if (socket) { socket.onclose = null; socket.close(); }
  const scheme = location.protocol === "https:" ? "wss" : "ws";
  socket = new WebSocket(`${scheme}://${location.host}/ws/tables/${encodeURIComponent(tableId)}`);
  const mine = stored();
  socket.onopen = () => {
    retry = 500;
    pacer.clear(); // the new connection sends the whole state again
    // Without a seat's token, a signed-in player's session finds their seat, if any.
    if (!mine && user) send({ type: "hello", account: true, lang: lang() });
    else send({ type: "hello", token: mine ? mine.token : null, lang: lang() });
  };
  socket.onmessage = (event) => {
    const message = JSON.parse(event.data);
    // The game's messages wait behind the bots' moves being shown; answers come at once.
    if (["chat", "error", "hint", "pong"].includes(message.type)) receive(message);
    else pacer.push(message);
  };
  const receive = (message, when = performance.now()) => {
    if (message.type === "welcome") {
      info = message.table;
      seats = info.seats;
      document.body.dataset.seat = message.seat === null ? "spectator" : String(message.seat);
      chat.welcome(info, message.seat);
      rematch.welcome(info, message.seat);
      hints.welcome(info, message.seat);
      drawRated();
      lessons.welcome(info, message.seat);
      drawJoin();
    } else if (message.type === "state") {
      document.body.dataset.version = String(message.version);
      document.body.dataset.status = message.status;
      info.status = message.status;
      arrived = when;
      drawState(message);
    } else if (message.type === "seats") {
      seats = message.seats;
      if (last) { last.seats = message.seats; hints.show(last, seats, replaying); redraw(); drawBanner(); }
      chat.seats(seats);
      drawJoin();
    } else if (message.type === "chat") {
      chat.receive(message);
    } else if (message.type === "rematch") {
      rematch.update(message);
    } else if (message.type === "hint") {
      info.hints_used = true;
      hints.receive(message);
      redraw();
      bringHintedIntoView();
    } else if (message.type === "lessons") {
      lessons.receive(message);
    } else if (message.type === "error") {
      if (message.code === "not_seated") {
        send({ type: "hello", token: null, lang: lang() }); // watch, quietly
        return;
      }
      // A refused chat message or rematch vote is told where it was written or asked.
      if (message.code.startsWith("chat_")) { chat.error(message.code); return; }
      if (rematch.error(message.code)) return;
      if (hints.error(message.code)) return;
      if (message.code === "bad_token") {
        localStorage.removeItem(seatKey);
        send({ type: "hello", token: null, lang: lang() });
      } else if (message.code === "rate_limited" && last) {
        // The server drops, unanswered, what else comes within its refusal window: choices
        // stay closed until it is over (or until the table moves on).
        const waitingOn = last;
        setTimeout(() => { if (last === waitingOn && busy) reopen(); }, REFUSAL_WINDOW_MS);
      } else if (last) {
        reopen();
      }
      showError(message.code);
    }
  };
  if (pacer) pacer.clear();
  pacer = createPacer(receive);
  socket.onclose = (event) => {
    main.classList.remove("loading");
    if (event.code === 4404) { statusLine.textContent = errorText("unknown_table"); return; }
    if (event.code === 4503) { statusLine.textContent = errorText("table_unavailable"); return; }
    if (event.code === 4401) {
      // The session was revoked (signed out here or elsewhere): watch until signed in again.
      user = null;
      statusDetail.textContent = errorText("signed_out");
      setTimeout(connect, 0);
      return;
    }
    statusDetail.textContent = _("Connection lost; reconnecting…");
    setTimeout(connect, retry);
    retry = Math.min(retry * 2, 8000);
  };
}

// ------------------------------------------------------------------ start

function toggles() {
  const sound = el("button", { type: "button", id: "sound-toggle", class: "toggle", "aria-pressed": String(soundOn()) }, _("Sound"));
  sound.addEventListener("click", () => {
    const on = !soundOn();
    setSound(on);
    sound.setAttribute("aria-pressed", String(on));
  });
  const moving = el("button", { type: "button", id: "motion-toggle", class: "toggle", "aria-pressed": String(motion.motionOn()) }, _("Movement"));
  if (motion.reducedBySystem()) {
    moving.disabled = true;
    moving.title = _("Your system asks for reduced motion.");
  }
  moving.addEventListener("click", () => {
    const on = !motion.motionOn();
    motion.setMotion(on);
    moving.setAttribute("aria-pressed", String(on));
  });
  return [sound, moving, paceControl()];
}

/**
 * Sound, movement and the language: in the header on a wide screen; on a phone behind one
 * settings button, so that the header keeps to one row.
 */
function settingsMenu() {
  const gear = svg("svg", { class: "settings-icon", viewBox: "0 0 24 24", "aria-hidden": "true", focusable: "false" },
    svg("path", { d: "M4 6h10M18 6h2M4 12h3M11 12h9M4 18h12M20 18h0" }),
    svg("circle", { cx: 16, cy: 6, r: 2.2 }), svg("circle", { cx: 9, cy: 12, r: 2.2 }), svg("circle", { cx: 18, cy: 18, r: 2.2 }));
  const menu = el("details", { class: "settings", id: "settings" },
    el("summary", { class: "toggle", "aria-label": _("Settings"), title: _("Settings") }, gear),
    el("div", { class: "settings-body" }, ...toggles(), langPicker()));
  const sync = () => { menu.open = !PHONE.matches; };
  sync();
  PHONE.addEventListener("change", sync);
  return menu;
}

async function start() {
  await loadMessages();
  build();
  tabKeys();
  user = await account();
  document.getElementById("header-right").append(settingsMenu(), ...(await accountControls()));
  let games;
  try {
    info = (await fetchJSON(`/api/tables/${encodeURIComponent(tableId)}`)).table;
    games = await loadGames();
  } catch (e) {
    main.replaceChildren(el("p", { class: "error" }, failure(e)));
    return;
  }
  seats = info.seats;
  labels = games.bot_labels || {};
  searchBots = new Set(games.search_bots || []);
  const meta = games.games.find((g) => g.name === info.game);
  title = gameTitle(info.game, meta ? meta.title : info.title);
  board = BOARDS[info.game];
  words = await fetchJSON(`/api/words/${info.game}/${lang()}`);
  shares = info.options.shares_table ? [0, 0, ...info.options.shares_table] : words.shares || [];
  names = seatNames(seats, labels);
  document.title = `${title} · closingbell`;
  document.body.classList.add(`game-${info.game}`);
  document.getElementById("game-title").textContent = title;
  document.getElementById("game-title").after(ratedMark);
  drawRated();
  sidePanel.open = window.matchMedia("(min-width: 1024px)").matches;
  tabRounds.hidden = info.game !== "take_stock";
  if (tabRounds.hidden) {
    // One game in a go: the log alone, without tabs.
    sidePanel.querySelector("summary").textContent = _("Log");
    sidePanel.querySelector(".tabs").hidden = true;
    panelLog.removeAttribute("role");
    panelLog.removeAttribute("aria-labelledby");
    panelLog.setAttribute("aria-label", _("Log"));
  }
  // Hidden until the first state is drawn, so that nothing jumps while the table is laid out.
  main.classList.add("loading");
  main.replaceChildren(
    el("a", { class: "skip", href: "#table-col" }, _("Skip to the table")),
    joinBox,
    el("div", { class: "layout" }, tableCol, side),
    overlay);
  place();
  WIDE.addEventListener("change", place);
  PHONE.addEventListener("change", place);
  drawJoin();
  drawBanner();
  drawRounds();
  document.addEventListener("keydown", (e) => {
    if (e.key === "Escape" && selected && !overlay.open) cancel();
  });
  connect();
  setInterval(drawThinking, 1000);
  keepOnline();
}

start();
