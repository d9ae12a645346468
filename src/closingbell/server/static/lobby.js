// The lobby: open a table (game, your seat, the others, rules options) and list the tables.
// Creating a table with a seat for "you" joins it at once, so its creator is seated.
// A table may start from a position (docs/positions.md): a practice table, one person
// against bots; the position's text goes to the server and never comes back.
// A table is played in real time or over days (a time per move); a signed-in player may
// also make it rated and keep its open seats for players by their usernames.
import {
  _, el, failure, fetchJSON, gameTitle, langPicker, loadGames, loadMessages, postJSON,
  seatLabel, seatNames,
} from "/static/i18n.js";
import { account, accountControls } from "/static/account.js";
import { duration } from "/static/days.js";
import { learnPanel } from "/static/lessons.js";
import { online } from "/static/online.js";

const BOT_LEVELS = ["easy", "medium", "hard", "expert"];
const NAME_KEY = "closingbell.name";
const FIRST_GAME = "take_stock";
const MAX_POSITION_CHARS = 16384; // core.position.MAX_POSITION_CHARS
const POSITION_HELP = "/help/positions";
const HOUR = 3600;
const DAY = 86400;
const MOVE_TIMES = [HOUR, 8 * HOUR, DAY, 3 * DAY, 7 * DAY];
const MOVE_TIME = DAY;

function statusLabel(status) {
  return {
    waiting: _("waiting for players"), playing: _("playing"), finished: _("finished"),
    abandoned: _("abandoned"), unavailable: _("unavailable"),
  }[status] || status;
}

/** A table's pace: over days with its time per move, or real time with its turn clock. */
function paceLabel(t) {
  if (t.move_time) return _("{time} a move", { time: duration(t.move_time) });
  if (!t.clock) return _("real time, no turn clock");
  const time = t.clock < 60 ? _("{n} s", { n: t.clock }) : duration(t.clock);
  return _("real time, turn clock {time}", { time });
}

/** What a table's row says of it besides its seats: open seats, rated or not, its pace. */
function tableFacts(t) {
  if (t.status === "unavailable") return [];
  const open = t.seats.filter((s) => s.kind === "open").length;
  const facts = [];
  if (t.status === "waiting" && open) {
    facts.push(el("span", { class: "t-status t-open" }, open === 1 ? _("1 open seat") : _("{n} open seats", { n: open })));
  }
  // A hint taken (before rated tables refused them) took the table out of the ratings.
  const rated = t.rated && !t.hints_used;
  facts.push(el("span", { class: `t-status ${rated ? "t-rated" : "t-casual"}` }, rated ? _("rated") : _("not rated")));
  facts.push(el("span", { class: `t-status ${t.move_time ? "t-days" : "t-pace"}` }, paceLabel(t)));
  return facts;
}

function gameBlurb(name) {
  return {
    take_stock: _("Raise five stocks' prices, save share certificates and play market events; scored over several rounds."),
    card_stock_market: _("The four suits are companies: buy their cards as shares, move their prices, and be the richest when a joker closes the market."),
  }[name] || "";
}

/** The kind of an option: the server's metadata, or guessed from its default. */
function kindOf(option) {
  if (option.kind) return option.kind;
  if (typeof option.default === "boolean") return "boolean";
  if (Number.isInteger(option.default)) return "integer";
  if (Array.isArray(option.default)) return "int_tuple";
  return "text";
}

/** A person's name for an option without metadata ("first_dealer" → "First dealer"). */
function plainName(name) {
  const words = name.replace(/_/g, " ");
  return words.charAt(0).toUpperCase() + words.slice(1);
}

/** One rules option as a form field, built from its metadata; ``read()`` gives its value. */
function optionField(option, players) {
  const id = `opt-${option.name}`;
  const kind = kindOf(option);
  const label = option.label || plainName(option.name);
  const help = option.help || option.doc || "";
  const helpId = `${id}-help`;
  const described = help ? helpId : null;
  let input;
  let read;
  if (kind === "boolean") {
    input = el("input", { type: "checkbox", id, "aria-describedby": described });
    input.checked = Boolean(option.default);
    read = () => input.checked;
  } else if (kind === "choice" && option.choices) {
    input = el("select", { id, "aria-describedby": described },
      option.choices.map((c, i) => el("option", { value: String(i) }, c.label)));
    input.value = String(Math.max(0, option.choices.findIndex((c) => c.value === option.default)));
    read = () => option.choices[Number(input.value)].value;
  } else if (kind === "seat") {
    input = el("select", { id, "aria-describedby": described },
      option.nullable !== false ? el("option", { value: "null" }, _("Drawn at random")) : null,
      Array.from({ length: players }, (_x, i) => el("option", { value: String(i) }, seatLabel(i))));
    input.value = option.default === null ? "null" : String(option.default);
    read = () => JSON.parse(input.value);
  } else if (kind === "int_tuple") {
    const length = option.length || (option.default ? option.default.length : 1);
    const boxes = Array.from({ length }, (_x, i) => {
      const box = el("input", {
        type: "number", id: i === 0 ? id : `${id}-${i}`, class: "tuple", min: option.min, max: option.max,
        required: true, "aria-label": _("{option}, number {n}", { option: label, n: i + 1 }), "aria-describedby": described,
      });
      box.value = option.default ? String(option.default[i]) : "";
      return box;
    });
    const row = el("span", { class: "tuple-row" }, boxes);
    read = () => boxes.map((b) => Number(b.value));
    const presets = option.presets || [];
    if (!presets.length) return field(label, id, row, help, helpId, read, option, true);
    // Named tables (a game's alternatives): choosing one fills the boxes, and editing a
    // box shows which table, if any, the numbers now make.
    const custom = el("option", { value: "" }, _("Your own numbers"));
    const picker = el("select", { id: `${id}-preset`, "aria-label": _("{option}: table", { option: label }), "aria-describedby": described },
      presets.map((p, i) => el("option", { value: String(i) }, p.label)), custom);
    const match = () => {
      const now = read();
      const i = presets.findIndex((p) => p.numbers.every((v, k) => v === now[k]));
      picker.value = i < 0 ? "" : String(i);
    };
    picker.addEventListener("change", () => {
      if (picker.value === "") return;
      presets[Number(picker.value)].numbers.forEach((v, k) => { boxes[k].value = String(v); });
    });
    boxes.forEach((b) => b.addEventListener("input", match));
    match();
    input = el("span", { class: "tuple-presets" }, picker, row);
    return field(label, id, input, help, helpId, read, option, true);
  } else if (kind === "integer") {
    input = el("input", { type: "number", id, min: option.min, max: option.max, step: 1, "aria-describedby": described,
      required: !option.nullable, placeholder: option.nullable ? _("none") : null });
    input.value = option.default === null ? "" : String(option.default);
    read = () => (input.value === "" ? null : Number(input.value));
  } else {
    // No metadata (an older server): the default's own text; empty is null.
    input = el("input", { type: "text", id, "aria-describedby": described });
    input.value = option.default === null ? "" : String(option.default);
    read = () => {
      const text = input.value.trim();
      if (text === "") return null;
      return typeof option.default === "string" || Number.isNaN(Number(text)) ? text : Number(text);
    };
  }
  return field(label, id, input, help, helpId, read, option, false);
}

function field(label, id, input, help, helpId, read, option, group) {
  const note = help ? el("small", { id: helpId }, help) : null;
  let node;
  if (group) node = el("fieldset", { class: "option" }, el("legend", {}, label), input, note);
  else if (input.type === "checkbox") node = el("div", { class: "option check" }, input, el("label", { for: id }, label), note);
  else node = el("div", { class: "option" }, el("label", { for: id }, label), input, note);
  return { node, read, option };
}

/** Why the server refused a position: its field (when it names one) and its reason. */
function positionProblem(error) {
  if (!error || error.code !== "bad_position") return failure(error);
  const details = error.details || {};
  const reason = details.reason || "";
  if (details.field) return _("The position was refused, field “{field}”: {reason}", { field: details.field, reason });
  return _("The position was refused: {reason}", { reason });
}

async function main() {
  await loadMessages();
  document.title = _("closingbell: lobby");
  const user = await account();
  document.getElementById("header-right").append(
    el("a", { href: "/puzzles", class: "header-link", id: "puzzles-link" }, _("Puzzles")),
    el("a", { href: "/tournaments", class: "header-link", id: "tournaments-link" }, _("Tournaments")),
    el("a", { href: "/leaderboard", class: "header-link", id: "leaderboard-link" }, _("Leaderboard")),
    langPicker(), ...(await accountControls()));
  const main = document.getElementById("main");
  let answer;
  try {
    answer = await loadGames();
  } catch (e) {
    main.replaceChildren(el("p", { class: "error" }, failure(e)));
    return;
  }
  const { games, bots } = answer;
  const labels = answer.bot_labels || {};
  const levels = BOT_LEVELS.filter((b) => bots.includes(b));
  const botWord = (b) => (labels[b] || { easy: _("Easy"), medium: _("Medium"), hard: _("Hard"), expert: _("Expert") }[b] || b);
  const error = el("p", { class: "error", id: "create-error", role: "alert" });
  const ordered = [...games].sort((a, b) => (a.name === FIRST_GAME ? -1 : b.name === FIRST_GAME ? 1 : 0));

  const gameSelect = el("select", { id: "game", name: "game", "aria-describedby": "game-blurb" },
    ordered.map((g) => el("option", { value: g.name }, gameTitle(g.name, g.title))));
  const blurb = el("small", { id: "game-blurb" });
  const nameInput = el("input", { id: "creator-name", maxlength: 32, autocomplete: "nickname" });
  nameInput.value = localStorage.getItem(NAME_KEY) || "";
  const countSelect = el("select", { id: "players", name: "players" });
  const seatsBox = el("fieldset", { id: "seats", class: "seats-box" });
  const optionsBox = el("details", { id: "options" });
  const clockInput = el("input", { type: "number", id: "clock", min: 1, max: 86400, placeholder: _("none"), "aria-describedby": "clock-help" });
  const pace = (value) => el("input", { type: "radio", name: "pace", id: `pace-${value}`, value });
  const realTime = pace("real");
  const overDays = pace("days");
  realTime.checked = true;
  const moveTime = el("select", { id: "move-time", "aria-describedby": "move-time-help" },
    MOVE_TIMES.map((t) => el("option", { value: t }, duration(t))));
  moveTime.value = String(MOVE_TIME);
  const clockBox = el("div", { class: "option", id: "clock-box" },
    el("label", { for: "clock" }, _("Turn clock (seconds, optional)")), clockInput,
    el("small", { id: "clock-help" }, _("It only hands a disconnected player's turns to a bot, once they have been away that long on their turn; they get their seat back when they return. Nobody connected is ever hurried.")));
  const moveBox = el("div", { class: "option", id: "move-time-box", hidden: true },
    el("label", { for: "move-time" }, _("Time for each decision")), moveTime,
    el("small", { id: "move-time-help" }, _("Play over days: each player has this long for each decision, whether the page is open or not. When it runs out, a bot makes that one decision for them. “My games” lists the games waiting for you.")));
  const paceBox = el("fieldset", { id: "pace", class: "pace" },
    el("legend", {}, _("Pace")),
    el("div", { class: "pace-choices" },
      el("span", { class: "check" }, realTime, el("label", { for: "pace-real" }, _("Real time"))),
      el("span", { class: "check" }, overDays, el("label", { for: "pace-days" }, _("Time per move")))),
    clockBox, moveBox);
  const drawPace = () => {
    moveBox.hidden = !overDays.checked;
    clockBox.hidden = overDays.checked;
  };
  realTime.addEventListener("change", drawPace);
  overDays.addEventListener("change", drawPace);
  const ratedInput = el("input", { type: "checkbox", id: "rated", "aria-describedby": "rated-help" });
  const ratedBox = el("div", { class: "option check", id: "rated-box", hidden: true },
    ratedInput, el("label", { for: "rated" }, _("Rated")),
    el("small", { id: "rated-help" }, _("The result counts for the players' ratings; only signed-in players may sit.")));
  const chatInput = el("input", { type: "checkbox", id: "spectator-chat", "aria-describedby": "spectator-chat-help" });
  const chatBox = el("div", { class: "option check" }, chatInput, el("label", { for: "spectator-chat" }, _("Spectators may write in the chat")),
    el("small", { id: "spectator-chat-help" }, _("Players always may; spectators always read it.")));
  const nameBox = el("div", { class: "option", id: "name-box" }, el("label", { for: "creator-name" }, _("Your name")), nameInput,
    el("small", {}, _("You take the seat marked “You”; choose no such seat to only watch.")));
  const accountNote = el("p", { class: "note", id: "playing-as", hidden: true });
  const positionInput = el("textarea", {
    id: "position", name: "position", rows: 4, maxlength: MAX_POSITION_CHARS, spellcheck: "false",
    autocomplete: "off", autocapitalize: "off", "aria-describedby": "position-help position-error",
  });
  const positionError = el("p", { class: "error", id: "position-error", role: "alert" });
  const positionBox = el("details", { id: "position-box" },
    el("summary", {}, _("Start from a position")),
    el("div", { class: "option" },
      el("label", { for: "position" }, _("Position")), positionInput,
      el("small", { id: "position-help" },
        _("Paste a position to practise it: take one seat and give the others to bots. Without a seed field, the server picks one at random; the game and options are those chosen above.")),
      el("small", { class: "doc-link" },
        el("a", { href: POSITION_HELP, target: "_blank", rel: "noopener" }, _("How to write a position")))),
    positionError);
  let fields = [];
  const form = el("form", { id: "create", class: "panel create" },
    el("h2", {}, _("New table")),
    el("div", { class: "option" }, el("label", { for: "game" }, _("Game")), gameSelect, blurb),
    nameBox, accountNote,
    el("div", { class: "option" }, el("label", { for: "players" }, _("Players")), countSelect),
    seatsBox, paceBox, ratedBox, chatBox, optionsBox, positionBox,
    el("button", { type: "submit", id: "create-table", class: "primary" }, _("Create table")),
    error);

  const game = () => games.find((g) => g.name === gameSelect.value);
  function seatSelects() {
    return [...seatsBox.querySelectorAll(".seat-kind")];
  }
  function inviteInputs() {
    return [...seatsBox.querySelectorAll(".invite")];
  }
  /** Invitations are for signed-in players, and only open seats can be kept. */
  function drawInvites() {
    const selects = seatSelects();
    inviteInputs().forEach((input, i) => {
      input.parentElement.hidden = !user || selects[i].value !== "open";
    });
  }
  function drawSeats() {
    const before = seatSelects().map((s) => s.value);
    const invitedBefore = inviteInputs().map((s) => s.value);
    const n = Number(countSelect.value);
    seatsBox.replaceChildren(el("legend", {}, _("Seats")));
    for (let i = 0; i < n; i++) {
      const select = el("select", { class: "seat-kind", id: `seat-${i}` },
        el("option", { value: "you" }, _("You")),
        el("option", { value: "open" }, _("Open seat (a person)")),
        levels.map((b) => el("option", { value: b }, _("Bot: {level}", { level: botWord(b) }))));
      select.value = before[i] || (i === 0 ? "you" : "medium");
      select.addEventListener("change", () => {
        if (select.value === "you") {
          for (const other of seatSelects()) if (other !== select && other.value === "you") other.value = "open";
        }
        drawInvites();
      });
      const invite = el("input", {
        class: "invite", id: `invite-${i}`, maxlength: 32, autocomplete: "off", autocapitalize: "off", spellcheck: "false",
        placeholder: _("a username (optional)"),
      });
      invite.value = invitedBefore[i] || "";
      invite.addEventListener("input", () => invite.removeAttribute("aria-invalid"));
      seatsBox.append(el("div", { class: "seat-row" }, el("label", { for: `seat-${i}` }, seatLabel(i)), select,
        el("div", { class: "invite-box" }, el("label", { for: `invite-${i}` }, _("Keep it for")), invite)));
    }
    drawInvites();
    drawOptions();
  }
  function drawOptions() {
    const g = game();
    const open = optionsBox.open;
    fields = g.options.filter((o) => o.name !== "players").map((o) => optionField(o, Number(countSelect.value)));
    optionsBox.replaceChildren(el("summary", {}, _("Rules options")), ...fields.map((f) => f.node));
    optionsBox.open = open;
  }
  function drawGame() {
    const g = game();
    blurb.textContent = gameBlurb(g.name);
    countSelect.replaceChildren();
    for (let n = g.min_players; n <= g.max_players; n++) countSelect.append(el("option", { value: n }, n));
    countSelect.value = String(Math.min(Math.max(3, g.min_players), g.max_players));
    drawSeats();
  }
  gameSelect.addEventListener("change", drawGame);
  countSelect.addEventListener("change", drawSeats);
  gameSelect.value = ordered[0].name;
  drawGame();

  /** What a signed-in player may do more: rate the table, keep seats; their name is their account's. */
  function drawAccount() {
    ratedBox.hidden = !user;
    ratedInput.disabled = !user;
    if (!user) ratedInput.checked = false;
    nameBox.hidden = Boolean(user);
    accountNote.hidden = !user;
    accountNote.textContent = user ? _("You play as {name}.", { name: user.username }) : "";
    drawInvites();
  }
  drawAccount(); // signing in or out reloads the page

  function positionRefused(text) {
    positionBox.open = true;
    positionError.textContent = text;
    positionInput.setAttribute("aria-invalid", "true");
    positionInput.focus();
  }
  positionInput.addEventListener("input", () => {
    positionInput.removeAttribute("aria-invalid");
    positionError.textContent = "";
  });

  form.addEventListener("submit", async (event) => {
    event.preventDefault();
    error.textContent = "";
    positionError.textContent = "";
    positionInput.removeAttribute("aria-invalid");
    const kinds = seatSelects().map((s) => s.value);
    const mine = kinds.indexOf("you");
    const name = nameInput.value.trim();
    const position = positionInput.value.trim();
    if (position && kinds.filter((k) => k === "you" || k === "open").length !== 1) {
      positionRefused(_("A table started from a position is for practice: one seat for a person, bots in all the others."));
      return;
    }
    if (mine >= 0 && !user && (name.length < 1 || name.length > 32)) {
      error.textContent = _("Type your name (1 to 32 letters) to take your seat.");
      nameInput.focus();
      return;
    }
    const options = {};
    for (const f of fields) {
      const value = f.read();
      if (JSON.stringify(value) !== JSON.stringify(f.option.default)) options[f.option.name] = value;
    }
    const body = { game: gameSelect.value, seats: kinds.map((k) => (k === "you" ? "open" : k)), options };
    if (overDays.checked) body.move_time = Number(moveTime.value);
    else if (clockInput.value) body.clock = Number(clockInput.value);
    if (user && ratedInput.checked) body.rated = true;
    if (chatInput.checked) body.spectator_chat = true;
    const invited = inviteInputs().map((input) => (!input.parentElement.hidden && input.value.trim()) || null);
    if (invited.some((u) => u)) body.invited = invited;
    if (position) body.position = position;
    let table;
    try {
      ({ table } = await postJSON("/api/tables", body));
    } catch (e) {
      if (e.code === "bad_position") positionRefused(positionProblem(e));
      else error.textContent = failure(e);
      if (e.code === "unknown_player") {
        const named = inviteInputs().filter((input, i) => invited[i]);
        named.forEach((input) => input.setAttribute("aria-invalid", "true"));
        if (named.length) named[0].focus();
      }
      return;
    }
    if (mine >= 0) {
      try {
        const joined = await postJSON(`/api/tables/${encodeURIComponent(table.id)}/join`, user ? { seat: mine } : { name, seat: mine });
        localStorage.setItem(`closingbell.seat.${table.id}`, JSON.stringify({ seat: joined.seat, token: joined.token }));
        if (!user) localStorage.setItem(NAME_KEY, name);
      } catch {
        // The table exists: its page offers the seat again.
      }
    }
    location.href = `/t/${encodeURIComponent(table.id)}`;
  });

  const onlineCount = el("span", { class: "online", id: "online", "aria-live": "polite" });
  const list = el("section", { class: "panel tables", id: "tables", "aria-labelledby": "tables-title" },
    el("h2", { id: "tables-title" }, _("Tables")));
  async function drawOnline() {
    try {
      const players = await online(); // this page's heartbeat too
      onlineCount.textContent = _("Players online: {n}", { n: players });
    } catch {
      onlineCount.textContent = "";
    }
  }
  document.querySelector(".top .game-title").replaceChildren(onlineCount);
  const ul = el("ul", { class: "table-list" });
  const empty = el("p", { class: "note" });
  list.append(empty, ul);
  async function drawTables() {
    let tables;
    try {
      ({ tables } = await fetchJSON("/api/tables"));
    } catch {
      return;
    }
    empty.textContent = tables.length ? "" : _("No table yet.");
    ul.replaceChildren(...tables.map((t) => {
      const g = games.find((x) => x.name === t.game);
      const titleText = gameTitle(t.game, g ? g.title : t.title);
      const who = seatNames(t.seats, labels).map((n, i) => {
        const s = t.seats[i];
        if (s.kind !== "open") return n;
        return s.invited ? _("{seat}: kept for {name}", { seat: n, name: s.name }) : _("{seat}: open", { seat: n });
      });
      const head = t.status === "unavailable" ? el("span", { class: "t-title" }, titleText)
        : el("a", { class: "t-title", href: `/t/${encodeURIComponent(t.id)}` }, titleText);
      return el("li", { class: `table-${t.status}` }, head,
        el("span", { class: `t-status status-${t.status}` }, statusLabel(t.status)),
        t.from_position ? el("span", { class: "t-status t-position" }, _("from a position")) : null,
        t.hints_used ? el("span", { class: "t-status t-hints", title: _("A hint was taken at this table: its result counts for no rating.") }, _("hints used")) : null,
        t.tutorial ? el("span", { class: "t-status t-tutorial" }, _("guided first game")) : null,
        tableFacts(t),
        who.length ? el("span", { class: "t-seats" }, who.join(_(", "))) : null);
    }));
  }
  const learn = learnPanel(ordered, user);
  main.replaceChildren(...(learn ? [learn] : []), el("div", { class: "lobby" }, form, list));
  await Promise.all([drawTables(), drawOnline()]);
  setInterval(() => { if (!document.hidden) { drawTables(); drawOnline(); } }, 10_000);
}

main();
