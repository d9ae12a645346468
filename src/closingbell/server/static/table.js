// A table's page: join a seat, play in real time, watch, or step through the replay.
import { _, el, lang, langPicker, loadMessages } from "/static/i18n.js";
import { board, finalScores, takeStockRounds } from "/static/boards.js";

const tableId = decodeURIComponent(location.pathname.split("/").pop());
const seatKey = `closingbell.seat.${tableId}`;
const main = document.getElementById("main");

let info = null;
let words = {};
let socket = null;
let last = null;
let events = [];
let lines = [];
let retry = 500;

function stored() {
  try { return JSON.parse(localStorage.getItem(seatKey)); } catch { return null; }
}

/** What the page calls each seat: bots by name and seat number, as the terminal and log do. */
function names(seats) {
  return seats.map((s) => {
    if (s.kind === "open") return _("(open)");
    if (s.kind === "bot") return `${s.name.charAt(0).toUpperCase()}${s.name.slice(1)} ${s.seat + 1}`;
    return s.name;
  });
}

const status = el("p", { id: "status", role: "status" });
const seatsList = el("ul", { id: "seats", class: "seats" });
const joinBox = el("div", { id: "join" });
const choices = el("div", { id: "choices", class: "choices" });
const boardBox = el("div", { id: "board" });
const resultsBox = el("div", { id: "results" });
const logList = el("ol", { id: "log", class: "log" });
const replayBox = el("div", { id: "replay" });

function drawSeats(seats) {
  seatsList.replaceChildren(...seats.map((s) => el("li", { class: s.connected ? "on" : "off" },
    _("Seat {n}", { n: s.seat + 1 }), ": ",
    s.kind === "open" ? _("(open)") : s.name,
    s.kind === "bot" ? ` (${_("bot")})` : "",
    s.stand_in ? ` (${_("a bot stands in")})` : "",
    last && last.seat === s.seat ? ` ← ${_("you")}` : "")));
}

function drawJoin() {
  const mine = stored();
  const open = info ? info.seats.filter((s) => s.kind === "open") : [];
  if (mine || !info || info.status !== "waiting" || !open.length) {
    joinBox.replaceChildren();
    return;
  }
  if (joinBox.hasChildNodes()) return; // keep what is being typed
  const name = el("input", { id: "name", maxlength: 32, required: true, placeholder: _("Your name") });
  const seat = el("select", { id: "join-seat" },
    open.map((s) => el("option", { value: s.seat }, _("Seat {n}", { n: s.seat + 1 }))));
  const error = el("p", { class: "error", role: "alert" });
  const form = el("form", { class: "panel", id: "join-form" },
    el("h3", {}, _("Join this table")),
    el("label", { for: "name" }, _("Display name")), " ", name, " ", seat, " ",
    el("button", { type: "submit", id: "join-button" }, _("Join")), error);
  form.addEventListener("submit", async (event) => {
    event.preventDefault();
    const response = await fetch(`/api/tables/${encodeURIComponent(tableId)}/join`, {
      method: "POST", headers: { "Content-Type": "application/json" },
      body: JSON.stringify({ name: name.value, seat: Number(seat.value) }),
    });
    const answer = await response.json();
    if (!response.ok) {
      error.textContent = answer.error ? answer.error.message : response.statusText;
      return;
    }
    localStorage.setItem(seatKey, JSON.stringify({ seat: answer.seat, token: answer.token }));
    info = answer.table;
    joinBox.replaceChildren();
    connect(true);
  });
  joinBox.append(form);
}

function send(message) {
  if (socket && socket.readyState === WebSocket.OPEN) socket.send(JSON.stringify(message));
}

function play(action) {
  if (!last) return;
  choices.querySelectorAll("button").forEach((b) => { b.disabled = true; });
  send({ type: "action", version: last.version, action: action.id });
}

function ctxFor(message) {
  return {
    words,
    names: names(message.seats),
    legal: message.legal,
    pick(uses) {
      if (uses.length === 1) { play(uses[0]); return; }
      const ids = new Set(uses.map((a) => String(a.id)));
      choices.querySelectorAll("button").forEach((b) => {
        b.classList.toggle("highlight", ids.has(b.dataset.action));
      });
    },
  };
}

function drawState(message) {
  last = message;
  if (message.first_event === 0) { events = []; lines = []; logList.replaceChildren(); }
  events.push(...message.events);
  (message.lines.length ? message.lines : message.events.map(() => null)).forEach((line, i) => {
    const text = line ?? (message.lines.length ? null : message.events[i].type);
    if (text) {
      lines.push(text);
      logList.append(el("li", {}, text));
    }
  });
  logList.scrollTop = logList.scrollHeight;
  const ctx = ctxFor(message);
  drawSeats(message.seats);
  const mine = message.seat;
  if (message.status === "waiting") {
    status.textContent = _("Waiting for players: the game starts when every seat is taken.");
  } else if (message.status === "finished") {
    status.textContent = _("The game is over.");
  } else if (mine !== null && message.current_player === mine) {
    status.textContent = _("Your turn.");
  } else {
    status.textContent = _("{name} to play.", { name: ctx.names[message.current_player] ?? "?" });
  }
  status.classList.toggle("your-turn", mine !== null && message.legal.length > 0);
  boardBox.replaceChildren(...(message.view ? board(info.game, message.view, ctx) : []));
  choices.replaceChildren(...message.legal.map((a) => el("button", {
    type: "button", class: "choice", "data-action": a.id, title: a.text, onclick: () => play(a),
  }, a.label || a.text)));
  const results = info.game === "take_stock" ? takeStockRounds(events, ctx) : [];
  if (message.result) results.unshift(finalScores(message.result, ctx));
  resultsBox.replaceChildren(...results);
  if (message.status === "finished" && !replayBox.hasChildNodes()) {
    replayBox.append(el("button", { type: "button", id: "replay-button", onclick: () => replay(ctx) }, _("Step through the replay")));
  }
}

function connect(fresh) {
  if (socket) { socket.onclose = null; socket.close(); }
  const scheme = location.protocol === "https:" ? "wss" : "ws";
  socket = new WebSocket(`${scheme}://${location.host}/ws/tables/${encodeURIComponent(tableId)}`);
  const mine = stored();
  socket.onopen = () => {
    retry = 500;
    send({ type: "hello", token: mine ? mine.token : null, lang: lang() });
  };
  socket.onmessage = (event) => {
    const message = JSON.parse(event.data);
    if (message.type === "welcome") {
      info = message.table;
      document.body.dataset.seat = message.seat === null ? "spectator" : String(message.seat);
      drawJoin();
    } else if (message.type === "state") {
      document.body.dataset.version = String(message.version);
      document.body.dataset.status = message.status;
      drawState(message);
    } else if (message.type === "seats") {
      if (last) { last.seats = message.seats; drawSeats(message.seats); }
    } else if (message.type === "error") {
      if (message.code === "bad_token") {
        localStorage.removeItem(seatKey);
        send({ type: "hello", token: null, lang: lang() });
      } else if (last) {
        drawState({ ...last, events: [], lines: [], first_event: events.length });
      }
      status.textContent = message.message;
    }
  };
  socket.onclose = (event) => {
    if (event.code === 4404) { status.textContent = _("There is no such table."); return; }
    if (event.code === 4503) { status.textContent = _("This table is unavailable."); return; }
    status.textContent = _("Connection lost; reconnecting…");
    setTimeout(() => connect(false), retry);
    retry = Math.min(retry * 2, 8000);
  };
}

async function replay(ctx) {
  const steps = [];
  let total = 1;
  while (steps.length < total) {
    const response = await fetch(`/api/tables/${encodeURIComponent(tableId)}/replay?start=${steps.length}&limit=1000&lang=${lang()}`);
    const page = await response.json();
    total = page.total;
    steps.push(...page.steps);
  }
  const counter = el("span", { id: "replay-step" });
  const slider = el("input", { type: "range", id: "replay-slider", min: 0, max: steps.length - 1, value: 0 });
  const view = el("div", { id: "replay-board" });
  const log = el("ol", { class: "log", id: "replay-log" });
  function show(i) {
    slider.value = String(i);
    const step = steps[i];
    counter.textContent = _("Step {n} of {total}", { n: i, total: steps.length - 1 });
    view.replaceChildren(...board(info.game, step.view, { ...ctx, legal: [] }));
    log.replaceChildren(...(step.action ? [el("li", { class: "replay-action" },
      `${ctx.names[step.action.seat]}: ${step.action.label || step.action.text}`)] : []),
      ...(step.lines || []).filter((l) => l).map((l) => el("li", {}, l)));
  }
  const at = () => Number(slider.value);
  slider.addEventListener("input", () => show(at()));
  replayBox.replaceChildren(el("section", { class: "panel" }, el("h3", {}, _("Replay")),
    el("div", { class: "replay-controls" },
      el("button", { type: "button", id: "replay-first", onclick: () => show(0) }, "⏮"),
      el("button", { type: "button", id: "replay-prev", onclick: () => show(Math.max(0, at() - 1)) }, _("Previous")),
      slider,
      el("button", { type: "button", id: "replay-next", onclick: () => show(Math.min(steps.length - 1, at() + 1)) }, _("Next")),
      el("button", { type: "button", id: "replay-last", onclick: () => show(steps.length - 1) }, "⏭"),
      counter),
    log, view));
  show(0);
}

async function start() {
  await loadMessages();
  document.getElementById("header-right").append(langPicker());
  const response = await fetch(`/api/tables/${encodeURIComponent(tableId)}`);
  if (!response.ok) {
    const unavailable = response.status === 503;
    main.replaceChildren(el("p", { class: "error" },
      unavailable ? _("This table is unavailable.") : _("There is no such table.")));
    return;
  }
  info = (await response.json()).table;
  words = await (await fetch(`/api/words/${info.game}/${lang()}`)).json();
  document.title = `${info.title} · closingbell`;
  const link = el("input", { id: "share", readonly: true, size: 40, value: location.href });
  main.replaceChildren(
    el("h1", {}, info.title),
    el("p", {}, el("label", { for: "share" }, _("Share this link: ")), link),
    status, seatsList, joinBox, resultsBox,
    el("div", { class: "play" }, el("div", {}, el("section", { class: "panel" }, el("h3", {}, _("Your choices")), choices), boardBox),
      el("section", { class: "panel log-panel" }, el("h3", {}, _("Log")), logList)),
    replayBox);
  drawJoin();
  connect(true);
}

start();
