// The puzzles page (/puzzles): a decision from a real game, the board as its seat saw it, and
// the question "which choice is clearly best?". The player picks one of the choices (from the
// list, or by a card on the board); the answer then says right or wrong, the best choice and
// why, and what every choice was worth. A game and a theme filter, the puzzle of the day, and
// for a signed-in player their puzzle rating (docs/puzzles.md, docs/protocol.md "Puzzles").
import {
  _, el, failure, fetchJSON, gameTitle, lang, langPicker, loadMessages, money, num, postJSON,
} from "/static/i18n.js";
import * as takeStock from "/static/board-take-stock.js";
import * as cardStockMarket from "/static/board-card-stock-market.js";
import { accountControls } from "/static/account.js";
import { GAMES, changeText, headerLink, ratingText } from "/static/ratings.js";

const BOARDS = { take_stock: takeStock, card_stock_market: cardStockMarket };
const GAME_KEY = "closingbell.puzzles.game";
const main = document.getElementById("main");
const params = new URLSearchParams(location.search);

let index = null;
let game = GAMES.includes(params.get("game")) ? params.get("game") : (localStorage.getItem(GAME_KEY) || GAMES[0]);
let theme = params.get("theme") || "";
let puzzle = null;
let answer = null;
let picked = null;
const wordsOf = {};

const controls = el("div", { class: "puzzle-controls" });
const ratingLine = el("p", { class: "puzzle-rating", id: "my-puzzle-rating" });
const heading = el("h1", { id: "puzzle-title", tabindex: "-1" });
const about = el("p", { class: "puzzle-about" });
const boardBox = el("div", { class: "puzzle-board table-col", "aria-label": _("The board as your seat saw it") });
const choicesBox = el("section", { class: "panel puzzle-choices", "aria-labelledby": "choices-title" });
const resultBox = el("section", { class: "panel puzzle-result", id: "puzzle-result", hidden: true, "aria-live": "polite" });
const status = el("p", { class: "puzzle-status", role: "status" });
const historyBox = el("details", { class: "panel puzzle-history", id: "puzzle-history", hidden: true });

function unit(value) {
  return game === "card_stock_market" ? money(Math.round(value)) : num(Math.round(value * 10) / 10);
}

function interval(triple) {
  return _("{low} to {high}", { low: unit(triple[1]), high: unit(triple[2]) });
}

function percent(value) {
  return `${Math.round(value * 100)}%`;
}

// ------------------------------------------------------------------ the controls

function drawControls() {
  const entry = index.games.find((g) => g.game === game);
  const gameSelect = el("select", { id: "puzzle-game", "aria-label": _("Game") },
    index.games.map((g) => el("option", { value: g.game }, gameTitle(g.game, g.title))));
  gameSelect.value = game;
  gameSelect.addEventListener("change", () => {
    game = gameSelect.value;
    theme = "";
    localStorage.setItem(GAME_KEY, game);
    drawControls();
    next();
  });
  const themeSelect = el("select", { id: "puzzle-theme", "aria-label": _("Theme") },
    el("option", { value: "" }, _("Every theme ({n})", { n: num(entry.count) })),
    entry.themes.filter((t) => t.count > 0).map((t) =>
      el("option", { value: t.name, title: t.help }, _("{theme} ({n})", { theme: t.label, n: num(t.count) }))));
  themeSelect.value = theme;
  themeSelect.addEventListener("change", () => { theme = themeSelect.value; next(); });
  const daily = el("button", { type: "button", class: "toggle", id: "daily-puzzle" }, _("Puzzle of the day"));
  daily.addEventListener("click", () => load(`/api/puzzles/daily?game=${game}&lang=${lang()}`));
  controls.replaceChildren(
    el("label", { class: "field" }, el("span", {}, _("Game")), gameSelect),
    el("label", { class: "field" }, el("span", {}, _("Theme")), themeSelect),
    daily);
  const mine = index.ratings && index.ratings[game];
  if (index.ratings === null) {
    ratingLine.textContent = _("Sign in to keep your puzzle rating and history; anyone may play.");
  } else if (!mine) {
    ratingLine.textContent = _("Your puzzle rating starts with your first answer.");
  } else {
    ratingLine.textContent = _("Your puzzle rating: {rating} ({solved} of {tried} solved at the first try)",
      { rating: ratingText(mine.rating), solved: num(mine.solved), tried: num(mine.tried) });
  }
}

/** A signed-in player's last answers, each a link to try the puzzle again. */
async function drawHistory() {
  if (index.ratings === null) return;
  let found;
  try {
    found = (await fetchJSON("/api/puzzles/history?limit=10")).attempts;
  } catch {
    return;
  }
  if (!found.length) { historyBox.hidden = true; return; }
  historyBox.replaceChildren(
    el("summary", {}, _("Your last puzzles")),
    el("ul", {}, found.map((a) => el("li", {},
      el("span", { class: a.solved ? "mark right" : "mark wrong" }, a.solved ? "✓" : "✗"), " ",
      el("a", { href: `/puzzles?id=${encodeURIComponent(a.id)}` }, gameTitle(a.game)), " ",
      _("puzzle rating {before} → {after}", { before: ratingText(a.rating_before), after: ratingText(a.rating_after) })))));
  historyBox.hidden = false;
}

// ------------------------------------------------------------------ the puzzle

function targetsOf(board, view) {
  const targets = new Map();
  for (const action of puzzle.legal) {
    const place = board.decode(action.id, view);
    if (!place.target) continue;
    if (!targets.has(place.target)) targets.set(place.target, []);
    targets.get(place.target).push(action);
  }
  return targets;
}

function drawBoard() {
  const board = BOARDS[puzzle.game];
  const view = puzzle.view;
  const words = wordsOf[puzzle.game];
  const shares = puzzle.options.shares_table ? [0, 0, ...puzzle.options.shares_table] : words.shares || [];
  const targets = answer ? new Map() : targetsOf(board, view);
  const ctx = {
    words, shares, names: puzzle.names, seats: null, me: view.seat, current: view.current_player,
    waiting: [], options: puzzle.options, events: [],
    pick(key) {
      if (!targets.has(key)) return null;
      const uses = targets.get(key);
      const text = uses.map((a) => a.label || a.text).join(" · ");
      return {
        target: key, selected: false, cls: "", label: text, title: text,
        onPick: () => focusChoices(uses),
        onFocus: () => {}, onBlur: () => {},
      };
    },
  };
  const parts = board.render(view, ctx);
  boardBox.replaceChildren(
    el("div", { id: "others" }, parts.others),
    el("div", { id: "center" }, parts.center),
    el("div", { id: "mine" }, parts.mine || ""));
}

/** A card on the board was picked: light up its choices in the list, the first focused. */
function focusChoices(uses) {
  const ids = new Set(uses.map((a) => String(a.id)));
  let first = null;
  for (const button of choicesBox.querySelectorAll("button[data-action]")) {
    const lit = ids.has(button.dataset.action);
    button.classList.toggle("lit", lit);
    if (lit && !first) first = button;
  }
  if (first) first.focus();
}

/** What one choice was worth, in one line under it, once the puzzle is answered. */
function worthLine(w, best) {
  const atRoundEnd = answer.horizon === "round";
  const margin = { value: unit(w.margin[0]), range: interval(w.margin) };
  const win = { value: percent(w.win[0]) };
  const parts = atRoundEnd
    ? [_("Standing at the round's end {value} ({range})", margin), _("chance of leading then {value}", win)]
    : [_("Final margin {value} ({range})", margin), _("chance of winning {value}", win)];
  if (!best) parts.push(_("{value} behind the best ({range})", { value: unit(-w.behind[0]), range: interval([0, -w.behind[2], -w.behind[1]]) }));
  return el("span", { class: "worth" }, parts.join(" · "));
}

function drawChoices() {
  const worths = answer ? new Map(answer.worths.map((w, i) => [w.action, [w, i === 0]])) : null;
  const order = answer ? answer.worths.map((w) => puzzle.legal.find((a) => a.id === w.action)) : puzzle.legal;
  const list = el("ul", { class: "choice-list" }, order.map((a) => {
    const button = el("button", { type: "button", class: "choice", "data-action": String(a.id) }, a.label || a.text);
    button.addEventListener("click", () => choose(a.id));
    const item = el("li", {}, button);
    if (answer) {
      button.disabled = true;
      if (a.id === answer.best) button.classList.add("best");
      if (a.id === answer.chosen && !answer.solved) button.classList.add("wrong");
      const [w, best] = worths.get(a.id);
      item.append(worthLine(w, best));
    }
    return item;
  }));
  choicesBox.replaceChildren(
    el("h2", { id: "choices-title" }, answer ? _("Every choice, best first") : _("Your choices")),
    answer
      ? el("p", { class: "note" }, _("What each choice was worth, from what your seat could see (95% intervals)"))
      : el("p", { class: "question" }, puzzle.question),
    list);
}

function drawHeading() {
  const title = gameTitle(puzzle.game, puzzle.title);
  heading.textContent = puzzle.daily ? _("Puzzle of the day: {game}", { game: title }) : _("Puzzle: {game}", { game: title });
  const themes = puzzle.themes.map((t) => el("span", { class: "chip chip-theme", title: t.help }, t.label));
  about.replaceChildren(
    el("span", {}, _("{players} players, you are seat {n}.", { players: num(puzzle.options.players), n: num(puzzle.seat + 1) })), " ",
    el("span", {}, puzzle.tried
      ? _("Puzzle rating {rating}, solved by {solved} of {tried}", { rating: ratingText(puzzle.rating), solved: num(puzzle.solved), tried: num(puzzle.tried) })
      : _("A new puzzle: nobody has answered it yet")), " ",
    ...themes);
}

function drawResult() {
  if (!answer) { resultBox.hidden = true; resultBox.replaceChildren(); return; }
  const labelOf = new Map(answer.worths.map((w) => [w.action, w.label]));
  const lines = [
    el("p", { class: answer.solved ? "verdict right" : "verdict wrong" }, answer.verdict),
    el("p", {}, _("Best: {action}", { action: labelOf.get(answer.best) })),
    el("p", { class: "reason" }, answer.reason),
  ];
  if (answer.rating) {
    lines.push(el("p", { class: "rating-change" }, answer.first
      ? _("Your puzzle rating: {before} → {after} ({change})", {
        before: ratingText(answer.rating.before), after: ratingText(answer.rating.after),
        change: changeText(answer.rating.after - answer.rating.before) })
      : _("You had answered this puzzle before: only your first answer is rated.")));
  }
  const next = el("button", { type: "button", class: "primary", id: "next-puzzle" }, _("Next puzzle"));
  next.addEventListener("click", () => nextPuzzle());
  resultBox.replaceChildren(el("h2", { tabindex: "-1" }, _("The answer")), ...lines, next);
  resultBox.hidden = false;
}

function draw() {
  drawHeading();
  drawBoard();
  drawChoices();
  drawResult();
}

async function choose(action) {
  if (answer || picked !== null) return;
  picked = action;
  status.textContent = _("Checking your choice…");
  try {
    answer = await postJSON(`/api/puzzles/${puzzle.id}/answer?lang=${lang()}`, { action });
    status.textContent = "";
    draw();
    if (answer.rating) {
      index.ratings = index.ratings || {};
      index.ratings[game] = { rating: answer.rating.after, tried: answer.rating.tried, solved: answer.rating.solved };
      drawControls();
      drawHistory();
    }
    resultBox.querySelector("h2").focus({ preventScroll: false });
    resultBox.scrollIntoView({ block: "nearest" });
  } catch (e) {
    status.textContent = failure(e);
  } finally {
    picked = null;
  }
}

async function load(url) {
  status.textContent = _("Loading a puzzle…");
  try {
    puzzle = await fetchJSON(url);
  } catch (e) {
    status.textContent = e.code === "not_found" ? _("There is no puzzle of this kind yet.") : failure(e);
    return;
  }
  if (!wordsOf[puzzle.game]) wordsOf[puzzle.game] = await fetchJSON(`/api/words/${puzzle.game}/${lang()}`);
  answer = null;
  status.textContent = "";
  document.body.classList.remove(...GAMES.map((g) => `game-${g}`));
  document.body.classList.add(`game-${puzzle.game}`);
  draw();
  heading.focus({ preventScroll: true });
}

function nextPuzzle() {
  const skip = puzzle ? `&skip=${encodeURIComponent(puzzle.id)}` : "";
  const filter = theme ? `&theme=${encodeURIComponent(theme)}` : "";
  return load(`/api/puzzles/next?game=${game}${filter}&lang=${lang()}${skip}`);
}

function next() {
  puzzle = null;
  return nextPuzzle();
}

async function start() {
  await loadMessages();
  document.title = _("Puzzles · closingbell");
  document.getElementById("game-title").textContent = _("Puzzles");
  document.getElementById("header-right").append(headerLink("/leaderboard", _("Leaderboard")), langPicker(), ...(await accountControls()));
  try {
    index = await fetchJSON(`/api/puzzles?lang=${lang()}`);
  } catch (e) {
    main.replaceChildren(el("p", { class: "error", role: "alert" }, failure(e)));
    return;
  }
  drawControls();
  main.replaceChildren(el("div", { class: "puzzles" },
    el("div", { class: "puzzle-head" }, heading, about, controls, ratingLine, historyBox, status),
    el("div", { class: "puzzle-layout" }, boardBox, el("div", { class: "puzzle-side" }, resultBox, choicesBox))));
  drawHistory();
  if (params.get("id")) await load(`/api/puzzles/${encodeURIComponent(params.get("id"))}?lang=${lang()}`);
  else if (params.get("daily")) await load(`/api/puzzles/daily?game=${game}&lang=${lang()}`);
  else await nextPuzzle();
}

start();
