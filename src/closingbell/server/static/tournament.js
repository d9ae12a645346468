// The tournaments: /tournaments lists them (to come, running, over) with the form that makes
// one; /tournaments/<id> shows one: its countdown, the viewer's buttons (enter, withdraw,
// come back, start now), the live standings and every round's tables, or one entrant's
// games (its count of games in the standings shows them). Everything comes from
// /api/tournaments (docs/protocol.md, "Tournaments"), read again every few seconds.
import { _, botName, el, failure, fetchJSON, gameTitle, langPicker, loadMessages, nameNode, num, postJSON } from "/static/i18n.js";
import { GAMES, LEVELS, dateText, headerLink, profileHref } from "/static/ratings.js";
import { account, accountControls } from "/static/account.js";

const main = document.getElementById("main");
const POLL = 3000;
const tournamentId = location.pathname.split("/")[2] || null;

/** Seconds from now to an ISO time, by the server's clock (``now`` of its answer). */
function secondsTo(iso, serverNow) {
  return (new Date(iso) - new Date(serverNow)) / 1000;
}

/** "4:05" or "1:02:03" for a number of seconds (never below 0). */
function clockText(seconds) {
  const s = Math.max(0, Math.round(seconds));
  const h = Math.floor(s / 3600), m = Math.floor((s % 3600) / 60), r = s % 60;
  const two = (n) => String(n).padStart(2, "0");
  return h ? `${h}:${two(m)}:${two(r)}` : `${m}:${two(r)}`;
}

function kindText(t) {
  if (t.kind === "swiss") return t.rounds === 1 ? _("Swiss, 1 round") : _("Swiss, {n} rounds", { n: t.rounds });
  return _("Arena, {n} minutes", { n: num(t.minutes) });
}

function statusText(t) {
  return { open: _("to come"), running: _("being played"), finished: _("finished"), cancelled: _("cancelled") }[t.status] || t.status;
}

/** What the page calls an entrant in words (a bot by its level and number). */
function entrantText(s) {
  return s.bot ? _("{bot} {n}", { bot: botName(s.bot), n: s.name.split(":")[2] }) : s.name;
}

/** An entrant's name: an account's links to its profile (a bot account marked), a bot by its level. */
function entrantName(s) {
  if (s.bot) return el("span", { class: "t-bot" }, entrantText(s));
  return el("a", { href: profileHref(s.name), dir: "auto" }, nameNode(s.name, s.bot_account));
}

// ------------------------------------------------------------------ the list

function tournamentItem(t) {
  return el("li", { class: `tournament-item status-${t.status}` },
    el("a", { href: `/tournaments/${encodeURIComponent(t.id)}`, class: "t-title", dir: "auto" }, t.name),
    el("span", { class: `t-status status-${t.status}` }, statusText(t)),
    el("span", { class: "t-facts" }, [gameTitle(t.game), kindText(t), _("tables of {n}", { n: t.table_size }),
      _("{n} entrants", { n: t.entrants }), t.rated ? _("rated") : _("not rated"),
      t.status === "open" ? _("starts {when}", { when: dateText(t.starts_at) }) : null].filter(Boolean).join(" · ")));
}

function levelCounts() {
  return LEVELS.map((level) => {
    const input = el("input", { type: "number", id: `bots-${level}`, min: 0, max: 16, value: 0, inputmode: "numeric" });
    return [el("div", { class: "option" }, el("label", { for: `bots-${level}` }, botName(level)), input), level, input];
  });
}

function createForm() {
  const field = (id, label, input) => el("div", { class: "option" }, el("label", { for: id }, label), input);
  const name = el("input", { id: "t-name", maxlength: 64, required: true, value: _("Tournament") });
  const kind = el("select", { id: "t-kind" }, el("option", { value: "swiss" }, _("Swiss")), el("option", { value: "arena" }, _("Arena")));
  const game = el("select", { id: "t-game" }, GAMES.map((g) => el("option", { value: g }, gameTitle(g))));
  const size = el("select", { id: "t-size" }, [2, 3, 4, 5, 6].map((n) => el("option", { value: n }, String(n))));
  const rounds = el("input", { type: "number", id: "t-rounds", min: 1, max: 30, value: 5 });
  const minutes = el("input", { type: "number", id: "t-minutes", min: 1, max: 1440, value: 30 });
  const starts = el("input", { type: "number", id: "t-starts", min: 0, max: 43200, value: 5 });
  const clock = el("input", { type: "number", id: "t-clock", min: 5, max: 3600, value: 60 });
  const rated = el("input", { type: "checkbox", id: "t-rated" });
  const botAccounts = el("input", { type: "checkbox", id: "t-bot-accounts", checked: true });
  const bots = levelCounts();
  const roundsRow = field("t-rounds", _("Rounds"), rounds);
  const minutesRow = field("t-minutes", _("Minutes"), minutes);
  const shape = () => { roundsRow.hidden = kind.value !== "swiss"; minutesRow.hidden = kind.value !== "arena"; };
  kind.addEventListener("change", shape);
  shape();
  const error = el("p", { class: "error", id: "t-error", role: "alert" });
  const form = el("form", { class: "panel tournament-form", id: "tournament-form", novalidate: true },
    el("h2", {}, _("Make a tournament")),
    el("div", { class: "options-grid" },
      field("t-name", _("Name"), name), field("t-kind", _("Kind"), kind), field("t-game", _("Game"), game),
      field("t-size", _("Seats a table"), size), roundsRow, minutesRow,
      field("t-starts", _("Starts in (minutes)"), starts), field("t-clock", _("Seconds a turn"), clock)),
    el("fieldset", { class: "bots-entered" }, el("legend", {}, _("Bots entered")), el("div", { class: "options-grid" }, bots.map(([row]) => row))),
    el("p", { class: "check-row" }, rated, " ", el("label", { for: "t-rated" }, _("Rated"))),
    el("p", { class: "check-row" }, botAccounts, " ", el("label", { for: "t-bot-accounts" }, _("Bot accounts may enter"))),
    error,
    el("div", { class: "dialog-buttons" }, el("button", { type: "submit", class: "primary", id: "t-create" }, _("Make it"))));
  form.addEventListener("submit", async (event) => {
    event.preventDefault();
    error.textContent = "";
    const body = {
      kind: kind.value, name: name.value.trim(), game: game.value, table_size: Number(size.value),
      starts_in: Math.round(Number(starts.value) * 60), clock: Number(clock.value), rated: rated.checked,
      bot_accounts: botAccounts.checked,
      bots: bots.flatMap(([, level, input]) => Array(Math.max(0, Math.min(16, Number(input.value) || 0))).fill(level)),
    };
    if (kind.value === "swiss") body.rounds = Number(rounds.value); else body.minutes = Number(minutes.value);
    if (!body.name) { error.textContent = _("Name the tournament."); name.focus(); return; }
    try {
      const made = await postJSON("/api/tournaments", body);
      location.href = `/tournaments/${encodeURIComponent(made.tournament.id)}`;
    } catch (e) {
      error.textContent = failure(e);
    }
  });
  return form;
}

async function showList() {
  document.title = `${_("Tournaments")} · closingbell`;
  const list = el("ul", { class: "tournament-list", id: "tournament-list" });
  const empty = el("p", { class: "note", id: "no-tournaments" });
  const user = await account();
  const panel = el("section", { class: "panel" }, el("h1", {}, _("Tournaments")),
    el("p", { class: "note" }, _("Swiss: a set number of rounds, each with the entrants on the same points. Arena: as many games as fit in its time, seated again as soon as a game ends. Entrants are seated by themselves when a round starts.")),
    empty, list);
  main.replaceChildren(el("div", { class: "tournaments-body" }, panel,
    user ? createForm() : el("p", { class: "panel note" }, _("Sign in to make a tournament or to enter one."))));
  async function draw() {
    try {
      const answer = await fetchJSON("/api/tournaments");
      empty.textContent = answer.tournaments.length ? "" : _("No tournament yet.");
      list.replaceChildren(...answer.tournaments.map(tournamentItem));
    } catch (e) {
      empty.textContent = failure(e);
    }
  }
  await draw();
  setInterval(() => { if (!document.hidden) draw(); }, POLL * 2);
}

// ------------------------------------------------------------------ one tournament

function countdown(t, now) {
  if (t.status === "open") return _("Starts in {time}", { time: clockText(secondsTo(t.starts_at, now)) });
  if (t.status === "running" && t.kind === "arena" && t.ends_at) {
    const left = secondsTo(t.ends_at, now);
    return left > 0 ? _("Ends in {time}", { time: clockText(left) }) : _("Time is up: the last games are being finished.");
  }
  if (t.status === "running") return _("Round {n} of {of}", { n: t.round, of: t.rounds });
  if (t.status === "finished") return _("Finished {when}", { when: dateText(t.finished_at) });
  return _("Cancelled: fewer than two entrants at its start.");
}

function buttons(answer, redraw, error) {
  const you = answer.you;
  if (!you) return [el("p", { class: "note" }, _("Sign in to enter."))];
  const act = (id, text, path, cls = "") => {
    const b = el("button", { type: "button", id, class: cls }, text);
    b.addEventListener("click", async () => {
      error.textContent = "";
      try { await postJSON(`/api/tournaments/${encodeURIComponent(tournamentId)}/${path}`, {}); await redraw(); } catch (e) { error.textContent = failure(e); }
    });
    return b;
  };
  const out = [];
  if (you.table) out.push(el("a", { href: `/t/${encodeURIComponent(you.table)}`, class: "button primary", id: "your-table" }, _("Go to your table")));
  if (you.may_enter && (!you.entered || you.paused)) out.push(act("t-join", you.paused ? _("I'm back") : _("Enter"), "join", "primary"));
  if (you.entered && answer.tournament.status !== "finished" && answer.tournament.status !== "cancelled") out.push(act("t-withdraw", _("Withdraw"), "withdraw"));
  if (you.creator && answer.tournament.status === "open") out.push(act("t-start", _("Start now"), "start"));
  if (you.paused) out.unshift(el("p", { class: "note", id: "t-paused" }, _("You were away for a whole game: you are not seated until you come back.")));
  return out;
}

/** The standings; each entrant's count of games shows its games in the rounds (``pick``). */
function standingsTable(lines, chosen, pick) {
  if (!lines.length) return el("p", { class: "note" }, _("Nobody has entered yet."));
  const mark = (s) => (s.withdrawn ? _("withdrew") : s.paused ? _("away") : "");
  const games = (s) => {
    if (!s.games) return "0";
    const b = el("button", { type: "button", class: "t-games", "data-name": s.name, "aria-pressed": String(chosen === s.name),
      "aria-label": _("Show the games of {name}", { name: entrantText(s) }) }, String(s.games));
    b.addEventListener("click", () => pick(chosen === s.name ? null : s.name));
    return b;
  };
  return el("div", { class: "scroll-x" }, el("table", { class: "results standings", id: "standings" },
    el("caption", {}, _("Standings")),
    el("thead", {}, el("tr", {}, [_("Place"), _("Player"), _("Points"), _("Games"), _("Tie-break"), ""].map((h) => el("th", { scope: "col" }, h)))),
    el("tbody", {}, lines.map((s) => el("tr", {},
      el("td", { class: "place" }, String(s.place)), el("th", { scope: "row" }, entrantName(s)),
      el("td", { class: "strong" }, num(s.score)), el("td", {}, games(s)), el("td", {}, num(s.tiebreak)),
      el("td", {}, mark(s)))))));
}

/** Every round's tables, latest first; with ``chosen``, that entrant's tables alone. */
function roundsList(rounds, kind, chosen) {
  const shown = rounds.map((r) => ({ ...r, tables: r.tables.filter((t) => !chosen || t.seats.some((s) => s.name === chosen)) }));
  return shown.filter((r) => r.tables.length).reverse().map((r) => el("section", { class: "t-round" },
    el("h3", {}, kind === "swiss" ? _("Round {n}", { n: r.round }) : _("Seating {n}", { n: r.round })),
    el("ul", { class: "t-tables" }, r.tables.map((table) => el("li", {},
      el("a", { href: `/t/${encodeURIComponent(table.table)}` }, table.status === "finished" ? _("Replay") : _("Watch")), " ",
      ...table.seats.flatMap((s, i) => [i ? _(", ") : "", entrantName(s), table.points ? ` (${num(table.points[i])})` : ""]))))));
}

async function showOne() {
  const head = el("div", { class: "t-head" });
  const actions = el("div", { class: "dialog-buttons", id: "t-actions" });
  const error = el("p", { class: "error", id: "t-action-error", role: "alert" });
  const board = el("div", { id: "t-board" });
  const rounds = el("div", { id: "t-rounds" });
  main.replaceChildren(el("div", { class: "tournaments-body" },
    el("section", { class: "panel" }, head, actions, error, board), el("section", { class: "panel" }, el("h2", {}, _("Rounds")), rounds)));
  let ticking = null;
  let chosen = null; // the entrant whose games alone are shown
  function drawBoard(answer) {
    const pick = (name) => {
      const before = chosen;
      chosen = name;
      drawBoard(answer);
      if (name) rounds.scrollIntoView({ block: "nearest" });
      else if (before) main.querySelector(`.t-games[data-name="${CSS.escape(before)}"]`)?.focus();
    };
    // A redraw keeps the focus on the same entrant's button (or on "Show every table").
    const focused = document.activeElement;
    const refocus = focused?.classList.contains("t-games") ? `.t-games[data-name="${CSS.escape(focused.dataset.name)}"]`
      : focused?.id === "t-show-all" ? "#t-show-all" : null;
    const entrant = answer.standings.find((s) => s.name === chosen);
    if (!entrant) chosen = null;
    board.replaceChildren(standingsTable(answer.standings, chosen, pick));
    const showing = [];
    if (entrant) {
      const all = el("button", { type: "button", id: "t-show-all" }, _("Show every table"));
      all.addEventListener("click", () => pick(null));
      showing.push(el("p", { class: "t-only", id: "t-only" }, _("Games of {name}", { name: entrantText(entrant) }), all));
    }
    rounds.replaceChildren(...showing, ...(answer.rounds.length ? roundsList(answer.rounds, answer.tournament.kind, chosen) : [el("p", { class: "note" }, _("No table yet."))]));
    if (refocus) main.querySelector(refocus)?.focus();
  }
  async function draw() {
    let answer;
    try {
      answer = await fetchJSON(`/api/tournaments/${encodeURIComponent(tournamentId)}`);
    } catch (e) {
      head.replaceChildren(el("h1", {}, _("Tournament")), el("p", { class: "error", role: "alert" }, failure(e)));
      return;
    }
    const t = answer.tournament;
    document.title = `${t.name} · closingbell`;
    const clockLine = el("p", { class: "t-countdown", id: "t-countdown", role: "timer" }, countdown(t, answer.now));
    const fetchedAt = Date.now();
    clearInterval(ticking);
    ticking = setInterval(() => {
      const shifted = new Date(new Date(answer.now).getTime() + (Date.now() - fetchedAt)).toISOString();
      clockLine.textContent = countdown(t, shifted);
    }, 1000);
    head.replaceChildren(el("h1", { dir: "auto" }, t.name),
      el("p", { class: "note" }, [gameTitle(t.game), kindText(t), _("tables of {n}", { n: t.table_size }), t.rated ? _("rated") : _("not rated"),
        _("{n} s a turn", { n: t.clock }), t.bot_accounts ? _("bot accounts welcome") : _("no bot accounts")].join(" · ")),
      el("p", {}, el("span", { class: `t-status status-${t.status}` }, statusText(t)), " ", clockLine));
    actions.replaceChildren(...buttons(answer, draw, error));
    drawBoard(answer);
  }
  await draw();
  setInterval(() => { if (!document.hidden) draw(); }, POLL);
}

async function start() {
  await loadMessages();
  document.getElementById("game-title").textContent = _("Tournaments");
  document.getElementById("header-right").append(headerLink("/tournaments", _("Tournaments")), headerLink("/leaderboard", _("Leaderboard")), langPicker(), ...(await accountControls()));
  if (tournamentId) await showOne(); else await showList();
}

start();
