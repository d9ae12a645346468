// The leaderboard (/leaderboard?game=take_stock): the rated players and bots of one game,
// best first by the displayed rating (mu − 3 sigma), a tab per game.
import { _, el, failure, fetchJSON, gameTitle, langPicker, loadMessages } from "/static/i18n.js";
import { GAMES, headerLink, playerLink, ratingShown } from "/static/ratings.js";
import { accountControls } from "/static/account.js";

const PAGE = 50;
const main = document.getElementById("main");

async function start() {
  await loadMessages();
  document.title = _("Leaderboard · closingbell");
  document.getElementById("game-title").textContent = _("Leaderboard");
  document.getElementById("header-right").append(headerLink("/", _("Lobby")), langPicker(), ...(await accountControls()));
  const wanted = new URLSearchParams(location.search).get("game");
  let game = GAMES.includes(wanted) ? wanted : GAMES[0];
  let offset = 0;
  const tabs = GAMES.map((name) => el("button", {
    type: "button", role: "tab", id: `tab-${name}`, "aria-controls": "board",
  }, gameTitle(name)));
  const tablist = el("div", { role: "tablist", class: "tabs", "aria-label": _("Games") }, tabs);
  const board = el("div", { id: "board", role: "tabpanel", tabindex: "0" });

  async function show() {
    tabs.forEach((tab, i) => {
      const on = GAMES[i] === game;
      tab.setAttribute("aria-selected", String(on));
      tab.tabIndex = on ? 0 : -1;
    });
    board.setAttribute("aria-labelledby", `tab-${game}`);
    let answer;
    try {
      answer = await fetchJSON(`/api/leaderboard/${game}?limit=${PAGE}&offset=${offset}`);
    } catch (e) {
      board.replaceChildren(el("p", { class: "error", role: "alert" }, failure(e)));
      return;
    }
    if (!answer.players.length) {
      board.replaceChildren(el("p", { class: "note", id: "board-empty" }, _("Nobody is rated in this game yet: play a rated table to be the first.")));
      return;
    }
    const rows = answer.players.map((p) => el("tr", { class: p.bot ? "bot-row" : null },
      el("td", { class: "place" }, String(p.place)),
      el("th", { scope: "row" }, playerLink(p.username, p.bot, p.bot_account)),
      el("td", { class: "strong" }, ratingShown(p)),
      el("td", {}, String(p.games))));
    const move = (by) => () => { offset = Math.max(0, offset + by); show(); };
    const newer = el("button", { type: "button", id: "board-previous", disabled: offset === 0, onclick: move(-PAGE) }, _("Previous places"));
    const later = el("button", { type: "button", id: "board-next", disabled: offset + PAGE >= answer.total, onclick: move(PAGE) }, _("Next places"));
    board.replaceChildren(
      el("div", { class: "scroll-x" },
        el("table", { class: "results leaderboard", id: "leaderboard-table" },
          el("caption", {}, _("{game}: {n} rated players and bots", { game: gameTitle(game), n: answer.total })),
          el("thead", {}, el("tr", {},
            el("th", { scope: "col" }, _("Place")), el("th", { scope: "col" }, _("Player")),
            el("th", { scope: "col" }, _("Rating")), el("th", { scope: "col" }, _("Rated games")))),
          el("tbody", {}, rows))),
      el("div", { class: "pager", hidden: answer.total <= PAGE }, newer, later));
  }

  function choose(name, focus) {
    game = name;
    offset = 0;
    history.replaceState(null, "", `/leaderboard?game=${encodeURIComponent(name)}`);
    show();
    if (focus) document.getElementById(`tab-${name}`).focus();
  }
  tabs.forEach((tab, i) => {
    tab.addEventListener("click", () => choose(GAMES[i], false));
    tab.addEventListener("keydown", (e) => {
      const step = { ArrowRight: 1, ArrowLeft: -1 }[e.key];
      if (!step) return;
      e.preventDefault();
      choose(GAMES[(i + step + GAMES.length) % GAMES.length], true);
    });
  });
  main.replaceChildren(el("section", { class: "panel leaderboard-panel" },
    el("h1", {}, _("Leaderboard")),
    el("p", { class: "note" }, _("Players and bots ranked by rating in rated games. The rating shown is μ − 3σ: it starts at 0 and rises as a player wins and their results become surer.")),
    el("p", { class: "note" }, _("A rating is provisional for about the first five rated games, until the results are sure enough to show it.")),
    tablist, board));
  await show();
}

start();
