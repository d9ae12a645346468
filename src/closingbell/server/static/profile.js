// A player's profile (/players/<username>, or /players/bot:<level> for a bot): the rating in
// each game with a chart of its history, how it compares with the bots, and the finished
// games with links to their replays. Everything comes from GET /api/players/<username>.
import {
  _, botName, el, failure, fetchJSON, gameTitle, langPicker, loadMessages, nameNode, num, seatLabel, svg,
} from "/static/i18n.js";
import {
  GAMES, LEVELS, dateText, headerLink, playerName, ratingShown, ratingText, scoreText,
} from "/static/ratings.js";
import { accountControls } from "/static/account.js";

const PAGE = 20;
const username = decodeURIComponent(location.pathname.split("/").pop());
const main = document.getElementById("main");
let profile = null;
let shownName = username;
let mine = false;

async function load(offset) {
  return fetchJSON(`/api/players/${encodeURIComponent(username)}?limit=${PAGE}&offset=${offset}`);
}

// ------------------------------------------------------------------ the chart

/** A step for about ``count`` ticks over ``span``: 1, 2 or 5 times a power of ten. */
function niceStep(span, count) {
  const raw = Math.max(span, 1e-9) / count;
  const power = 10 ** Math.floor(Math.log10(raw));
  return [1, 2, 5, 10].map((m) => m * power).find((s) => s >= raw);
}

const ruler = document.createElement("canvas").getContext("2d");

/** How wide ``text`` is drawn as a bot's label (bold, 12 px, in the page's font). */
function textWidth(text) {
  ruler.font = `700 12px ${getComputedStyle(document.body).fontFamily}`;
  return ruler.measureText(text).width;
}

/**
 * The rating history of one game as an SVG chart drawn at the box's width: the rating after
 * each rated game (from the start, when the history is whole), and the bots' ratings as
 * dashed lines. Its title and description say the same in words.
 */
function drawChart(box, game, entry) {
  const width = Math.max(280, Math.min(1200, box.clientWidth || 640));
  const height = width < 500 ? 220 : 260;
  const bots = entry.bots.filter((b) => LEVELS.includes(b.bot) && b.bot !== profile.bot);
  const botLabel = (b) => `${botName(b.bot)} ${ratingText(b.rating)}`;
  const left = 46;
  const right = 16 + Math.max(8, ...bots.map((b) => textWidth(botLabel(b))));
  const top = 14;
  const bottom = 44;
  const first = entry.rated_games - entry.history.length;
  const points = entry.history.map((h, i) => ({ x: first + i + 1, y: h.rating, at: h.at }));
  if (first === 0) points.unshift({ x: 0, y: 0, at: null });
  const values = [...points.map((p) => p.y), ...bots.map((b) => b.rating)];
  let lo = Math.min(...values);
  let hi = Math.max(...values);
  if (hi - lo < 2) { lo -= 1; hi += 1; }
  const yStep = niceStep(hi - lo, 4);
  lo = Math.floor(lo / yStep) * yStep;
  hi = Math.ceil(hi / yStep) * yStep;
  const xMin = points[0].x;
  const xMax = Math.max(points[points.length - 1].x, xMin + 1);
  const X = (x) => left + ((width - left - right) * (x - xMin)) / (xMax - xMin);
  const Y = (y) => top + ((height - top - bottom) * (hi - y)) / (hi - lo);
  const id = `chart-${game}`;
  const last = points[points.length - 1];
  const best = Math.max(...entry.history.map((h) => h.rating));
  const figures = { name: shownName, n: entry.rated_games, from: ratingText(points[0].y), to: ratingText(last.y), best: ratingText(best) };
  const description = entry.rated_games === 1
    ? _("{name}'s rating after 1 rated game: from {from} to {to}. Dashed lines: the bots' ratings.", figures)
    : _("{name}'s rating after each of {n} rated games, from {from} to {to}; the highest was {best}. Dashed lines: the bots' ratings.", figures);
  const parts = [
    svg("title", { id: `${id}-title` }, _("Rating history: {game}", { game: gameTitle(game) })),
    svg("desc", { id: `${id}-desc` }, description),
  ];
  for (let y = lo; y <= hi + yStep / 2; y += yStep) {
    parts.push(svg("line", { class: "grid", x1: left, x2: width - right, y1: Y(y), y2: Y(y) }),
      svg("text", { class: "tick", x: left - 6, y: Y(y) + 4, "text-anchor": "end" }, ratingText(y)));
  }
  const xStep = Math.max(1, Math.round(niceStep(xMax - xMin, width < 500 ? 4 : 8)));
  for (let x = Math.ceil(xMin / xStep) * xStep; x <= xMax; x += xStep) {
    parts.push(svg("line", { class: "axis", x1: X(x), x2: X(x), y1: height - bottom, y2: height - bottom + 5 }),
      svg("text", { class: "tick", x: X(x), y: height - bottom + 18, "text-anchor": "middle" }, String(x)));
  }
  parts.push(
    svg("line", { class: "axis", x1: left, x2: width - right, y1: height - bottom, y2: height - bottom }),
    svg("line", { class: "axis", x1: left, x2: left, y1: top, y2: height - bottom }),
    svg("text", { class: "axis-title", x: (left + width - right) / 2, y: height - 6, "text-anchor": "middle" }, _("Rated games")),
  );
  // The bots' lines, their labels kept apart at the right.
  const labels = bots.map((b) => ({ bot: b, y: Y(b.rating) })).sort((a, b) => a.y - b.y);
  for (let i = 1; i < labels.length; i++) labels[i].y = Math.max(labels[i].y, labels[i - 1].y + 14);
  for (const { bot, y } of labels) {
    parts.push(
      svg("line", { class: `bot-line bot-${bot.bot}`, x1: left, x2: width - right, y1: Y(bot.rating), y2: Y(bot.rating) }),
      svg("text", { class: `bot-label bot-${bot.bot}`, x: width - right + 6, y: y + 4 }, botLabel(bot)),
    );
  }
  parts.push(svg("polyline", { class: "line", points: points.map((p) => `${X(p.x)},${Y(p.y)}`).join(" ") }));
  for (const p of points) {
    parts.push(svg("circle", { class: "dot", cx: X(p.x), cy: Y(p.y), r: points.length > 60 ? 2 : 3.5 },
      svg("title", {}, p.at === null ? _("Start: {rating}", { rating: ratingText(p.y) })
        : _("After game {n}: {rating}", { n: p.x, rating: ratingText(p.y) }))));
  }
  const drawn = svg("svg", {
    class: "chart-svg", width, height, viewBox: `0 0 ${width} ${height}`, role: "img",
    "aria-labelledby": `${id}-title ${id}-desc`,
  }, parts);
  box.replaceChildren(drawn);
}

/** The history as a table, for reading figure by figure. */
function historyTable(game, entry) {
  const first = entry.rated_games - entry.history.length;
  return el("details", { class: "history" },
    el("summary", {}, _("The rating game by game")),
    el("div", { class: "scroll-x" },
      el("table", { class: "results" },
        el("thead", {}, el("tr", {},
          el("th", { scope: "col" }, _("Game")), el("th", { scope: "col" }, _("Date")),
          el("th", { scope: "col" }, _("Rating")), el("th", { scope: "col" }, _("Replay")))),
        el("tbody", {}, entry.history.map((h, i) => el("tr", {},
          el("th", { scope: "row" }, String(first + i + 1)),
          el("td", {}, dateText(h.at)),
          el("td", {}, ratingText(h.rating)),
          el("td", {}, el("a", { href: `/t/${encodeURIComponent(h.table)}` }, _("Replay")))))))));
}

// ------------------------------------------------------------------ each game

/** How the player compares with each bot level in one game (nothing if no bot is rated). */
function comparison(entry) {
  const own = entry.rating;
  const levels = LEVELS.filter((level) => level !== profile.bot);
  if (!entry.bots.some((b) => levels.includes(b.bot))) return null;
  let heading = _("The bots' ratings");
  if (own && profile.bot) heading = _("How {name} compares with the other bots", { name: shownName });
  else if (own) heading = mine ? _("How you compare with the bots") : _("How {name} compares with the bots", { name: shownName });
  const items = levels.map((level) => {
    const bot = entry.bots.find((b) => b.bot === level);
    let verdict;
    if (!bot) verdict = _("not rated yet");
    else if (!own || own.provisional) verdict = ratingText(bot.rating);
    else {
      const gap = Math.round((own.rating - bot.rating) * 10) / 10;
      const figures = { rating: ratingText(bot.rating), gap: ratingText(Math.abs(gap)), name: shownName };
      if (gap > 0) verdict = mine ? _("{rating}: you are {gap} ahead", figures) : _("{rating}: {name} is {gap} ahead", figures);
      else if (gap < 0) verdict = mine ? _("{rating}: you are {gap} behind", figures) : _("{rating}: {name} is {gap} behind", figures);
      else verdict = mine ? _("{rating}: you are level", figures) : _("{rating}: {name} is level", figures);
    }
    return el("li", { class: `bot-${level}` },
      el("a", { href: `/players/${encodeURIComponent(`bot:${level}`)}` }, playerName(null, level)), " ", el("span", {}, verdict));
  });
  return el("div", { class: "compare" }, el("h3", {}, heading), el("ul", {}, items));
}

/** A rating's mu and sigma, and the games it rests on. */
function ratingDetail(entry) {
  const figures = { mu: ratingText(entry.rating.mu), sigma: ratingText(entry.rating.sigma), n: entry.rated_games };
  return entry.rated_games === 1 ? _("μ {mu}, σ {sigma} · 1 rated game", figures)
    : _("μ {mu}, σ {sigma} · {n} rated games", figures);
}

/** One game's panel: the rating, its chart, the comparison with the bots. */
function gamePanel(entry) {
  const title = gameTitle(entry.game);
  const headingId = `standing-${entry.game}`;
  const panel = el("section", { class: "panel standing", id: `game-${entry.game}`, "aria-labelledby": headingId },
    el("h2", { id: headingId }, title));
  if (entry.rating) {
    panel.append(el("p", { class: "rating-line" },
      el("span", { class: "rating-label" }, _("Rating")), " ",
      el("span", { class: `rating-value${entry.rating.provisional ? " provisional" : ""}` }, ratingShown(entry.rating)), " ",
      el("span", { class: "rating-detail" }, ratingDetail(entry))));
    const box = el("div", { class: "chart", id: `chart-box-${entry.game}` });
    panel.append(box, historyTable(entry.game, entry));
    requestAnimationFrame(() => drawChart(box, entry.game, entry));
    let width = 0;
    new ResizeObserver(() => {
      if (Math.abs(box.clientWidth - width) < 8) return;
      width = box.clientWidth;
      drawChart(box, entry.game, entry);
    }).observe(box);
  } else {
    panel.append(el("p", { class: "note" }, _("Not rated in this game yet: a rated table's games count.")));
  }
  const compared = comparison(entry);
  if (compared) panel.append(compared);
  return panel;
}

// ------------------------------------------------------------------ the games played

/** The finished games as a table (on a phone, each row a small card: see style.css). */
function gamesTable(answer) {
  const rows = answer.results.map((r) => {
    const when = dateText(r.finished_at);
    return el("tr", { class: r.rank === 0 ? "winner" : null },
      el("th", { scope: "row" }, when),
      el("td", {}, gameTitle(r.game)),
      el("td", {}, seatLabel(r.seat)),
      el("td", {}, _("{place} of {count}", { place: r.rank + 1, count: r.players })),
      el("td", { class: "score", "data-label": _("Score") }, scoreText(r.game, r.score)),
      el("td", {}, r.rated ? _("rated") : _("not rated")),
      el("td", { class: "replay" },
        el("a", { href: `/t/${encodeURIComponent(r.table)}`, "aria-label": _("Replay of the game of {date}", { date: when }) }, _("Replay"))));
  });
  return el("table", { class: "results games-table" },
    el("thead", {}, el("tr", {}, [_("Date"), _("Game"), _("Seat"), _("Place"), _("Score"), _("Rated"), _("Replay")].map((h) => el("th", { scope: "col" }, h)))),
    el("tbody", {}, rows));
}

/** The finished games, a page at a time, newest first. */
function gamesPanel(first) {
  const body = el("div", { id: "games-body" });
  async function go(offset) {
    try {
      draw(await load(Math.max(0, offset)));
    } catch (e) {
      body.replaceChildren(el("p", { class: "error", role: "alert" }, failure(e)));
    }
  }
  function draw(answer) {
    if (!answer.total) {
      body.replaceChildren(el("p", { class: "note" }, _("No finished game yet.")));
      return;
    }
    const from = answer.offset + 1;
    const to = answer.offset + answer.results.length;
    body.replaceChildren(
      el("p", { class: "note", id: "games-range" }, _("Games {from}–{to} of {total}, newest first", { from, to, total: answer.total })),
      el("div", { class: "scroll-x" }, gamesTable(answer)),
      el("div", { class: "pager", hidden: answer.total <= PAGE },
        el("button", { type: "button", id: "games-newer", disabled: answer.offset === 0, onclick: () => go(answer.offset - PAGE) }, _("Newer games")),
        el("button", { type: "button", id: "games-older", disabled: to >= answer.total, onclick: () => go(answer.offset + PAGE) }, _("Older games"))));
  }
  draw(first);
  return el("section", { class: "panel played", id: "games", "aria-labelledby": "games-title" },
    el("h2", { id: "games-title" }, _("Finished games")), body);
}

/** An account's finished tournaments: each with its place among how many, newest first. */
function tournamentsPanel(p) {
  if (!p.tournaments || !p.tournaments.length) return "";
  return el("section", { class: "panel", id: "tournaments", "aria-labelledby": "tournaments-title" },
    el("h2", { id: "tournaments-title" }, _("Tournaments")),
    el("ul", { class: "tournament-list" }, p.tournaments.map((t) => el("li", {},
      el("a", { href: `/tournaments/${encodeURIComponent(t.id)}`, dir: "auto" }, t.name), " ",
      el("span", {}, _("place {place} of {n}", { place: t.place, n: t.entrants })), " ",
      el("span", { class: "t-facts" }, `${gameTitle(t.game)} · ${dateText(t.finished_at)}`)))));
}

/** An account's puzzle rating in each game it answered puzzles of, with a link to more. */
function puzzlesPanel(p) {
  if (!p.puzzles) return "";
  const rows = GAMES.filter((g) => p.puzzles[g]).map((g) => {
    const r = p.puzzles[g];
    return el("li", { id: `puzzles-${g}` }, el("strong", {}, gameTitle(g)), " ",
      _("puzzle rating {rating}: {solved} of {tried} solved at the first try",
        { rating: ratingText(r.rating), solved: num(r.solved), tried: num(r.tried) }));
  });
  return el("section", { class: "panel", id: "puzzles", "aria-labelledby": "puzzles-title" },
    el("h2", { id: "puzzles-title" }, _("Puzzles")),
    rows.length ? el("ul", { class: "puzzle-ratings" }, rows) : el("p", {}, _("No puzzle answered yet.")),
    el("p", {}, el("a", { href: "/puzzles" }, _("Solve puzzles"))));
}

// ------------------------------------------------------------------ the page

async function start() {
  await loadMessages();
  document.title = _("Player · closingbell");
  document.getElementById("game-title").textContent = _("Player");
  document.getElementById("header-right").append(headerLink("/leaderboard", _("Leaderboard")), langPicker(), ...(await accountControls()));
  try {
    profile = await load(0);
  } catch (e) {
    main.replaceChildren(el("section", { class: "panel" },
      el("h1", {}, username),
      el("p", { class: "error", role: "alert" }, failure(e)),
      el("p", {}, el("a", { href: "/leaderboard" }, _("See the leaderboard")))));
    return;
  }
  try {
    const account = await fetchJSON("/api/account");
    mine = Boolean(account.user) && !profile.bot
      && account.user.username.toLowerCase() === profile.username.toLowerCase();
  } catch {
    mine = false;
  }
  shownName = playerName(profile.username, profile.bot, profile.bot_account);
  document.title = `${shownName} · closingbell`;
  const order = (g) => (g.rating ? 0 : 1) * 10 + Math.max(0, GAMES.indexOf(g.game));
  const games = [...profile.games].sort((a, b) => order(a) - order(b));
  main.replaceChildren(el("div", { class: "profile" },
    el("div", { class: "profile-head" },
      el("h1", {}, profile.bot_account ? nameNode(profile.username, true) : shownName),
      profile.bot_account ? el("p", { class: "note", id: "bot-account-note" }, _("A bot account: a program plays its games, through an API token its owner made. It is rated on its own line, as any player.")) : null,
      el("p", { class: "note" }, _("The rating shown is μ − 3σ: it starts at 0 and rises as a player wins and their results become surer.")),
      el("p", { class: "note" }, _("A rating is provisional for about the first five rated games, until the results are sure enough to show it."))),
    games.map(gamePanel),
    puzzlesPanel(profile),
    tournamentsPanel(profile),
    gamesPanel(profile)));
}

start();
