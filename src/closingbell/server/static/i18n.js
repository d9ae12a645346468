// The page's own words: the "web" catalog, fetched as JSON from /api/messages/{lang},
// and the small DOM helpers every module uses. Every fixed word of the page is written
// _("...") so that Babel's JavaScript extractor finds it (python -m closingbell.text.catalogs web).

const KEY = "closingbell.lang";
let table = {};

/** The chosen language: "en" or "zh-Hant". */
export function lang() {
  const chosen = localStorage.getItem(KEY);
  if (chosen === "en" || chosen === "zh-Hant") return chosen;
  return (navigator.language || "").toLowerCase().startsWith("zh") ? "zh-Hant" : "en";
}

/** Remember a language (the page reloads to apply it). */
export function setLang(value) {
  localStorage.setItem(KEY, value);
}

/** Load the catalog of the chosen language. */
export async function loadMessages() {
  const response = await fetch(`/api/messages/${lang()}`);
  table = response.ok ? (await response.json()).messages : {};
  document.documentElement.lang = lang();
}

/** A fixed word in the chosen language, with {name} placeholders filled from values. */
export function _(text, values) {
  return fill(table[text] || text, values);
}

/** ``text`` with its {name} placeholders filled from ``values``. */
export function fill(text, values) {
  if (!values) return text;
  return text.replace(/\{(\w+)\}/g, (m, k) => (k in values ? String(values[k]) : m));
}

const numberFormats = new Map();

/** A number as people of the chosen language write it (1,240). */
export function num(n) {
  const locale = lang() === "zh-Hant" ? "zh-TW" : "en";
  if (!numberFormats.has(locale)) numberFormats.set(locale, new Intl.NumberFormat(locale));
  return numberFormats.get(locale).format(n);
}

/** Dollars: $1,240 (−$20 for a negative amount). */
export function money(n) {
  return n < 0 ? `−$${num(-n)}` : `$${num(n)}`;
}

/** An element with text (never markup) and attributes. */
export function el(tag, attrs, ...children) {
  const node = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs || {})) {
    if (v === null || v === undefined || v === false) continue;
    if (k === "class") node.className = v;
    else if (k.startsWith("on")) node.addEventListener(k.slice(2), v);
    else node.setAttribute(k, v === true ? "" : String(v));
  }
  for (const child of children.flat(Infinity)) {
    if (child === null || child === undefined || child === false) continue;
    node.append(child instanceof Node ? child : document.createTextNode(String(child)));
  }
  return node;
}

const SVG_NS = "http://www.w3.org/2000/svg";

/** An SVG element with attributes and children (presentation attributes, never style). */
export function svg(tag, attrs, ...children) {
  const node = document.createElementNS(SVG_NS, tag);
  for (const [k, v] of Object.entries(attrs || {})) {
    if (v === null || v === undefined || v === false) continue;
    node.setAttribute(k, String(v));
  }
  for (const child of children.flat(Infinity)) {
    if (child === null || child === undefined || child === false) continue;
    node.append(child instanceof Node ? child : document.createTextNode(String(child)));
  }
  return node;
}

/** The language picker shown on every page. */
export function langPicker() {
  const select = el(
    "select",
    { id: "lang", "aria-label": _("Language"), onchange: (e) => { setLang(e.target.value); location.reload(); } },
    el("option", { value: "en", lang: "en" }, "English"),
    el("option", { value: "zh-Hant", lang: "zh-Hant" }, "繁體中文"),
  );
  select.value = lang();
  return select;
}

/** A seat as people count them: from 1. */
export function seatNumber(seat) {
  return seat + 1;
}

/** "Seat 3" for the seat numbered 2 by the protocol. */
export function seatLabel(seat) {
  return _("Seat {n}", { n: seatNumber(seat) });
}

/** A bot level's name, from the server's ``bot_labels`` when it has them, else our own. */
export function botName(name, labels) {
  if (labels && labels[name]) return labels[name];
  const own = {
    easy: _("Easy"), medium: _("Medium"), hard: _("Hard"), expert: _("Expert"),
    random: _("Random"), heuristic: _("Rule-based"), ismcts: _("Search"),
  };
  return own[name] || name;
}

/** A game's title in the chosen language (the server's when it has translated it). */
export function gameTitle(name, serverTitle) {
  const own = { take_stock: _("Take Stock"), card_stock_market: _("Card Stock Market") };
  if (lang() === "en") return serverTitle || own[name] || name;
  const english = { take_stock: "Take Stock", card_stock_market: "Card Stock Market" };
  if (serverTitle && serverTitle !== english[name]) return serverTitle;
  return own[name] || serverTitle || name;
}

/** The mark before a bot account's name: a program plays for that account. */
export function botMark() {
  const words = _("Bot account: a program plays for it");
  return el("abbr", { class: "bot-mark", title: words, "aria-label": words }, _("BOT"));
}

/** An account's name in running text, "BOT ana" for a bot account. */
export function accountName(name, botAccount) {
  return botAccount ? _("BOT {name}", { name }) : name;
}

/** An account's name on the page: with the bot mark before it for a bot account. */
export function nameNode(name, botAccount) {
  return botAccount ? el("span", { class: "marked-name" }, botMark(), " ", el("bdi", {}, name)) : name;
}

/**
 * What the page calls each seat: a person by their name ("BOT ana" for a bot account), a
 * bot by its level and seat.
 */
export function seatNames(seats, labels) {
  return seats.map((s) => {
    if (s.kind === "bot") return `${botName(s.name, labels)} ${seatNumber(s.seat)}`;
    if (s.kind === "open") return seatLabel(s.seat);
    return accountName(s.name, s.bot_account);
  });
}

/**
 * An error in words, by its code (docs/protocol.md): the server's English message is for
 * API clients and logs, never shown. ``values`` fills placeholders such as {seat}, a seat as
 * people count them (from 1: ``seatNumber``).
 */
export function errorText(code, values) {
  const words = {
    bad_request: _("The server did not understand that request."),
    bad_json: _("The server did not understand that request."),
    bad_message: _("The server did not understand that request."),
    unknown_game: _("There is no such game on this server."),
    bad_seats: _("This game cannot be played with that many seats."),
    unknown_bot: _("This server has no such bot."),
    bad_options: _("The game refused these rules options; check them."),
    seed_not_allowed: _("This server does not let a table choose its deal."),
    bad_position: _("The game refused this position; check it."),
    unknown_table: _("There is no such table."),
    table_unavailable: _("This table is unavailable."),
    bad_name: _("Choose a name of 1 to 32 letters, without invisible characters."),
    name_taken: _("That name is a player's account: sign in as them, or choose another name."),
    not_invited: _("That seat is no longer kept for you."),
    too_many_invitations: _("You have invited too many players who have not answered yet: wait for their answers, or invite fewer."),
    bad_seat: _("That is not a seat of this table."),
    seat_taken: _("Seat {seat} was just taken: choose another seat."),
    table_full: _("Every seat of this table is taken."),
    not_finished: _("The game is not over yet."),
    too_many_reviews: _("The server is working out other reviews just now; this one starts as soon as there is room."),
    review_not_started: _("This review has not been started yet."),
    rate_limited: _("Too many requests from here: wait a moment and try again."),
    too_many_connections: _("Too many connections from here: close a few tabs and try again."),
    too_large: _("That request was too large."),
    too_deep: _("That request was too large."),
    request_timeout: _("The server waited too long; try again."),
    server_error: _("The server could not do that just now; try again."),
    bad_origin: _("This page may not connect to this server."),
    not_authenticated: _("The connection was not ready; reconnecting."),
    already_authenticated: _("The connection was not ready; reconnecting."),
    bad_token: _("Your seat's key is no longer valid; you are watching."),
    spectator: _("You are watching: only players choose."),
    not_started: _("The game has not started: every seat must be taken first."),
    game_over: _("The game is over."),
    stale_version: _("The table moved on before your choice arrived; choose again."),
    not_your_turn: _("It is not your turn."),
    illegal_action: _("That move is not allowed now."),
    sign_in_required: _("Sign in first: only players with an account can do that."),
    already_seated: _("You already have a seat at this table."),
    not_seated: _("Your account has no seat at this table: you are watching."),
    bad_username: _("An account name has 3 to 32 letters, digits, “_”, “.” or “-”, and starts with a letter or a digit."),
    bad_password: _("The password is wrong, or a new one is shorter than 8 characters."),
    username_taken: _("That account name is taken: choose another."),
    bad_sign_in: _("The account name or the password is wrong."),
    too_many_sign_ins: _("Too many failed sign-ins: wait a few minutes and try again."),
    too_many_sign_ups: _("Too many new accounts from here: wait a while and try again."),
    busy: _("The server is busy checking passwords: try again in a moment."),
    too_many_search_bots: _("You already have as many Expert and Search bots at unfinished games as you may: finish a game first, or choose other bots."),
    signed_out: _("You were signed out: sign in again to play your seat."),
    unknown_player: _("No player has that name."),
    chat_bad_text: _("A message needs some text, on one line, without invisible characters."),
    chat_too_long: _("A message has at most 500 characters."),
    chat_rate_limited: _("You are writing too fast: wait a few seconds."),
    chat_not_allowed: _("Spectators only read the chat at this table."),
    not_practice: _("Hints are given only at practice tables: unrated, with a bot in every other seat."),
    bad_api_token: _("That API token opens no account: it is wrong or was revoked."),
    already_bot: _("This account is a bot account already."),
    has_games: _("Only a new account can become a bot account: this one has sat at a table."),
    not_a_bot: _("Only a bot account has API tokens."),
    bad_token_name: _("Name the token with 1 to 64 characters, without invisible characters."),
    too_many_tokens: _("A bot account holds at most 10 tokens: revoke one first."),
    too_many_games: _("A bot account plays a limited number of games at once: finish one first."),
    unknown_token: _("That token is not one of this account's, or it was revoked already."),
  };
  const text = words[code];
  if (!text) return _("Something went wrong ({code}).", { code });
  return fill(text, values || {}).replace(/\{seat\}/g, "?");
}

/** Fetch JSON; on an error, throw an Error whose ``code`` is the server's error code. */
export async function fetchJSON(url, options) {
  let response;
  try {
    response = await fetch(url, options);
  } catch {
    const error = new Error("network");
    error.code = "network";
    throw error;
  }
  let body = null;
  try { body = await response.json(); } catch { body = null; }
  if (!response.ok) {
    const error = new Error(body && body.error ? body.error.message : response.statusText);
    error.code = body && body.error ? body.error.code : "server_error";
    error.details = body && body.error ? body.error : {};
    error.status = response.status;
    throw error;
  }
  return body;
}

/** POST a JSON body; the answer as JSON (see fetchJSON). */
export function postJSON(url, body) {
  return fetchJSON(url, {
    method: "POST", headers: { "Content-Type": "application/json" }, body: JSON.stringify(body),
  });
}

/** The games (with localized titles, options' metadata and bot labels when the server has them). */
export async function loadGames() {
  let answer;
  try {
    answer = await fetchJSON(`/api/games?lang=${encodeURIComponent(lang())}`);
  } catch {
    answer = await fetchJSON("/api/games");
  }
  return answer;
}

/**
 * The text of a network failure or an error code. The seat a refusal names (its ``seat``
 * field, from 0 as the protocol counts) fills {seat} as people count: from 1.
 */
export function failure(error, values) {
  if (error && error.code === "network") return _("The server cannot be reached; check the connection.");
  const named = error && error.details && Number.isInteger(error.details.seat) ? { seat: seatNumber(error.details.seat) } : {};
  return errorText(error && error.code, { ...named, ...values });
}
