// The lobby: open a table (game, seats, rules options) and list the tables.
import { _, el, langPicker, loadMessages } from "/static/i18n.js";

const BOT_LEVELS = ["easy", "medium", "hard", "expert"];

function botLabel(name) {
  const labels = {
    easy: _("Bot (easy)"),
    medium: _("Bot (medium)"),
    hard: _("Bot (hard)"),
    expert: _("Bot (expert)"),
  };
  return labels[name] || _("Bot ({name})", { name });
}

function statusLabel(status) {
  return {
    waiting: _("waiting for players"), playing: _("playing"), finished: _("finished"),
    unavailable: _("unavailable"),
  }[status];
}

function optionInput(option) {
  const id = `opt-${option.name}`;
  let input;
  if (typeof option.default === "boolean") {
    input = el("input", { type: "checkbox", id, "data-option": option.name });
    input.checked = option.default;
  } else {
    input = el("input", { type: "text", id, size: 12, "data-option": option.name });
    input.value = JSON.stringify(option.default);
  }
  return el("div", { class: "option" },
    el("label", { for: id }, option.name), " ", input, " ", el("small", {}, option.doc));
}

function readOptions(form, game) {
  const options = {};
  for (const option of game.options) {
    if (option.name === "players") continue;
    const input = form.querySelector(`[data-option="${option.name}"]`);
    let value;
    if (input.type === "checkbox") value = input.checked;
    else {
      try { value = JSON.parse(input.value); } catch { value = input.value; }
    }
    if (JSON.stringify(value) !== JSON.stringify(option.default)) options[option.name] = value;
  }
  return options;
}

async function main() {
  await loadMessages();
  document.title = _("closingbell: lobby");
  document.getElementById("header-right").append(langPicker());
  const main = document.getElementById("main");
  const { games, bots } = await (await fetch("/api/games")).json();
  const levels = BOT_LEVELS.filter((b) => bots.includes(b));
  const error = el("p", { class: "error", id: "create-error", role: "alert" });

  const gameSelect = el("select", { id: "game", name: "game" },
    games.map((g) => el("option", { value: g.name }, g.title)));
  const countSelect = el("select", { id: "players", name: "players" });
  const seatsBox = el("div", { id: "seats" });
  const optionsBox = el("details", { id: "options" });
  const clockInput = el("input", { type: "number", id: "clock", min: 1, max: 86400, placeholder: "60" });
  const form = el("form", { id: "create", class: "panel" },
    el("h2", {}, _("New table")),
    el("div", {}, el("label", { for: "game" }, _("Game")), " ", gameSelect),
    el("div", {}, el("label", { for: "players" }, _("Players")), " ", countSelect),
    seatsBox, optionsBox,
    el("div", {}, el("label", { for: "clock" }, _("Turn clock (seconds, optional)")), " ", clockInput),
    el("button", { type: "submit", id: "create-table" }, _("Create table")),
    error);

  const game = () => games.find((g) => g.name === gameSelect.value);
  function drawSeats() {
    seatsBox.replaceChildren();
    for (let i = 0; i < Number(countSelect.value); i++) {
      const select = el("select", { class: "seat-kind", id: `seat-${i}` },
        el("option", { value: "open" }, _("Open seat (a person)")),
        levels.map((b) => el("option", { value: b }, botLabel(b))));
      if (i > 0 && i === Number(countSelect.value) - 1) select.value = "medium";
      seatsBox.append(el("div", {}, el("label", { for: `seat-${i}` }, _("Seat {n}", { n: i + 1 })), " ", select));
    }
  }
  function drawGame() {
    const g = game();
    countSelect.replaceChildren();
    for (let n = g.min_players; n <= g.max_players; n++) countSelect.append(el("option", { value: n }, n));
    countSelect.value = String(Math.min(Math.max(3, g.min_players), g.max_players));
    optionsBox.replaceChildren(el("summary", {}, _("Rules options")),
      ...g.options.filter((o) => o.name !== "players").map(optionInput));
    drawSeats();
  }
  gameSelect.addEventListener("change", drawGame);
  countSelect.addEventListener("change", drawSeats);
  drawGame();

  form.addEventListener("submit", async (event) => {
    event.preventDefault();
    error.textContent = "";
    const body = {
      game: gameSelect.value,
      seats: [...seatsBox.querySelectorAll(".seat-kind")].map((s) => s.value),
      options: readOptions(form, game()),
    };
    if (clockInput.value) body.clock = Number(clockInput.value);
    const response = await fetch("/api/tables", {
      method: "POST", headers: { "Content-Type": "application/json" }, body: JSON.stringify(body),
    });
    const answer = await response.json();
    if (!response.ok) {
      error.textContent = answer.error ? answer.error.message : response.statusText;
      return;
    }
    location.href = `/t/${answer.table.id}`;
  });

  const list = el("section", { class: "panel", id: "tables" }, el("h2", {}, _("Tables")));
  const { tables } = await (await fetch("/api/tables")).json();
  if (!tables.length) list.append(el("p", {}, _("No table yet.")));
  const ul = el("ul", {});
  for (const t of tables) {
    const who = t.seats.map((s) => (s.kind === "open" ? _("(open)") : s.name)).join(", ");
    const title = t.status === "unavailable" ? t.title : el("a", { href: `/t/${t.id}` }, t.title);
    ul.append(el("li", { class: `table-${t.status}` }, title, " · ", statusLabel(t.status),
      who ? [" · ", who] : []));
  }
  list.append(ul);
  main.replaceChildren(form, list);
}

main();
