// Guided first games (docs/web.md, "A guided first game"): the lobby's "Learn to play",
// which opens one (POST /api/learn), and at its table the lessons the server sends the
// learner ("lessons" messages), each in a panel over the board with "OK, go on", a list to
// read them again, and at the end what the game did not show and the way to a real game.
// Which lessons this browser has shown is kept in localStorage, per table, so that a reload
// shows only the ones not yet read.
import { _, el, failure, gameTitle, postJSON } from "/static/i18n.js";

const NAME_KEY = "closingbell.name";
const shownKey = (tableId) => `closingbell.lessons.${tableId}`;

function learnBlurb(name) {
  return {
    take_stock: _("Three players, two rounds: raise prices, keep certificates, play an event."),
    card_stock_market: _("Three players: buy shares, move prices, meet the bank running short."),
  }[name] || "";
}

/**
 * The lobby's "Learn to play": for each game of ``games`` (``GET /api/games``) that has a
 * guided first game, a button that opens one and takes its table's page, the learner
 * seated. A guest types a name first; a signed-in ``user`` plays under their account's.
 */
export function learnPanel(games, user) {
  const error = el("p", { class: "error", id: "learn-error", role: "alert" });
  const name = el("input", { id: "learn-name", maxlength: 32, autocomplete: "nickname" });
  name.value = localStorage.getItem(NAME_KEY) || "";
  const nameBox = user ? null : el("div", { class: "option learn-name" },
    el("label", { for: "learn-name" }, _("Your name")), name);
  const busy = [];
  async function start(game) {
    error.textContent = "";
    const typed = name.value.trim();
    if (!user && (typed.length < 1 || typed.length > 32)) {
      error.textContent = _("Type your name (1 to 32 letters) to take your seat.");
      name.focus();
      return;
    }
    busy.forEach((b) => { b.disabled = true; });
    try {
      const answer = await postJSON("/api/learn", user ? { game } : { game, name: typed });
      localStorage.setItem(`closingbell.seat.${answer.table.id}`, JSON.stringify({ seat: answer.seat, token: answer.token }));
      if (!user) localStorage.setItem(NAME_KEY, typed);
      location.href = `/t/${encodeURIComponent(answer.table.id)}`;
    } catch (e) {
      error.textContent = failure(e);
      busy.forEach((b) => { b.disabled = false; });
    }
  }
  const choices = games.filter((g) => g.learn).map((g) => {
    const title = gameTitle(g.name, g.title);
    const button = el("button", { type: "button", class: "primary", id: `learn-${g.name}`, "aria-describedby": `learn-${g.name}-blurb`, onclick: () => start(g.name) },
      _("Learn {game}", { game: title }));
    busy.push(button);
    return el("div", { class: "learn-game" }, button, el("small", { id: `learn-${g.name}-blurb` }, learnBlurb(g.name)));
  });
  if (!choices.length) return null;
  return el("section", { class: "panel learn", id: "learn", "aria-labelledby": "learn-title" },
    el("h2", { id: "learn-title" }, _("Learn to play")),
    el("p", { class: "note" }, _("A guided first game against two bots: the same deal every time, with a short lesson at each moment that matters. Play as you like.")),
    nameBox, el("div", { class: "learn-games" }, choices), error);
}

function loadShown(tableId) {
  try {
    const saved = JSON.parse(localStorage.getItem(shownKey(tableId)));
    return Array.isArray(saved) ? new Set(saved) : null;
  } catch {
    return null;
  }
}

/**
 * The lessons of a table's page. The page tells it ``welcome(table, seat)`` on every
 * (re)connection and ``receive(message)`` for each ``lessons`` message; ``active()`` says
 * whether the table is a guided game. It gives the page ``element`` (the lessons so far,
 * for the side panel), ``summary()`` (for the final screen: what the game did not show)
 * and ``endButtons(where)`` (the way on from the final screen and the side panel).
 */
export function createLessons(tableId) {
  let tutorial = false;
  let seat = null;
  let missed = null;
  const all = new Map(); // id → lesson, in the order they came
  const queue = [];
  let shown = loadShown(tableId);

  const kicker = el("p", { class: "lesson-kicker", id: "lesson-kicker" });
  const heading = el("h2", { id: "lesson-title" });
  const happened = el("p", { class: "lesson-happened", id: "lesson-happened" });
  const explanation = el("p", { class: "lesson-explanation", id: "lesson-explanation" });
  const more = el("span", { class: "note lesson-more", id: "lesson-more" });
  const ok = el("button", { type: "button", class: "primary", id: "lesson-ok", onclick: () => next() }, _("OK, go on"));
  const dialog = el("dialog", {
    id: "lesson", class: "lesson-dialog", "aria-labelledby": "lesson-title", "aria-describedby": "lesson-text",
  }, kicker, heading, el("div", { id: "lesson-text" }, happened, explanation),
  el("div", { class: "lesson-actions" }, more, ok));
  // Escape reads on, like the button: the lesson is not lost (the list keeps it).
  dialog.addEventListener("cancel", (event) => { event.preventDefault(); next(); });

  const list = el("ol", { class: "lesson-list", id: "lesson-list" });
  const element = el("details", { class: "lessons-box", id: "lessons-box", hidden: true },
    el("summary", { id: "lessons-summary" }, _("Lessons")), list);
  const endBox = el("section", { class: "lessons-end", id: "lessons-end", "aria-labelledby": "lessons-end-title", hidden: true });

  function saveShown() {
    localStorage.setItem(shownKey(tableId), JSON.stringify([...shown]));
  }

  function draw() {
    if (!queue.length) {
      if (dialog.open) dialog.close();
      return;
    }
    const lesson = queue[0];
    kicker.textContent = _("Lesson");
    heading.textContent = lesson.title;
    happened.textContent = lesson.happened || "";
    happened.hidden = !lesson.happened;
    explanation.textContent = lesson.explanation;
    const left = queue.length - 1;
    more.textContent = left === 0 ? "" : left === 1 ? _("1 more lesson") : _("{n} more lessons", { n: left });
    // Over everything else (a round's results opened after it): shown again on top.
    if (dialog.open) dialog.close();
    if (!dialog.isConnected) (document.getElementById("main") || document.body).append(dialog);
    dialog.showModal();
    ok.focus();
  }

  function next() {
    const done = queue.shift();
    if (done) {
      shown.add(done.lesson);
      saveShown();
    }
    draw();
  }

  function drawList() {
    element.hidden = all.size === 0;
    element.querySelector("summary").textContent = _("Lessons ({n})", { n: all.size });
    list.replaceChildren(...[...all.values()].map((l) => el("li", {},
      el("details", {}, el("summary", {}, l.title),
        l.happened ? el("p", { class: "lesson-happened" }, l.happened) : null,
        el("p", {}, l.explanation)))));
  }

  function drawEnd() {
    endBox.hidden = missed === null;
    if (missed === null) return;
    const parts = [];
    if (missed.length) {
      parts.push(el("h3", { id: "lessons-end-title" }, _("What this game did not show")),
        el("p", { class: "note" }, _("These moments did not come in your game; here is what they would have taught.")),
        el("ul", { class: "lessons-missed", id: "lessons-missed" }, missed.map((m) => el("li", {},
          el("strong", {}, m.title), " ", m.explanation))));
    } else {
      parts.push(el("h3", { id: "lessons-end-title", class: "lessons-missed-none" }, _("Every lesson's moment came in your game.")));
    }
    parts.push(el("p", { class: "lessons-next" }, _("What to try next: a whole game against the bots, from the lobby.")));
    endBox.replaceChildren(...parts);
  }

  return {
    element,

    active() {
      return tutorial;
    },

    welcome(info, mySeat) {
      tutorial = Boolean(info.tutorial);
      seat = mySeat;
      const title = document.getElementById("game-title");
      if (tutorial && title && !title.querySelector(".chip-lesson")) {
        title.append(" ", el("span", { class: "chip chip-lesson" }, _("Guided first game")));
      }
    },

    receive(message) {
      if (seat === null) return;
      for (const l of message.lessons) all.set(l.lesson, l);
      let fresh;
      if (message.history) {
        if (shown === null) {
          // A browser that has shown none of this game's lessons: the latest only.
          const last = Math.max(-1, ...message.lessons.map((l) => l.version));
          fresh = message.lessons.filter((l) => l.version === last);
          shown = new Set(message.lessons.filter((l) => l.version !== last).map((l) => l.lesson));
          saveShown();
        } else {
          fresh = message.lessons.filter((l) => !shown.has(l.lesson));
        }
      } else {
        fresh = message.lessons.filter((l) => !(shown && shown.has(l.lesson)));
      }
      if (shown === null) {
        shown = new Set();
        saveShown();
      }
      for (const l of fresh) if (!queue.some((q) => q.lesson === l.lesson)) queue.push(l);
      if (message.missed) missed = message.missed;
      drawList();
      drawEnd();
      if (fresh.length) draw();
    },

    summary() {
      return tutorial ? endBox : null;
    },

    endButtons(where) {
      return el("a", { class: "button primary real-game", id: `real-game-${where}`, href: "/" }, _("Play a real game"));
    },
  };
}
