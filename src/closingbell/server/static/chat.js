// The table's chat: the messages people wrote (always shown as text, never as markup), a
// labelled box to write in, and mutes. A muted player's messages are hidden and counted;
// mutes are kept in this browser by the player's name, so that they hold at the rematch and
// at every other table (spectators, who have no name, are muted all together). A message
// written by a signed-in account has its name marked and linked to the player's profile, so
// that nobody passes for an account (guests may not sit under an account's name either).
import { _, botMark, el, errorText, lang } from "/static/i18n.js";

const MUTE_KEY = "closingbell.muted";
const MAX = 500;

function loadMutes() {
  try {
    const saved = JSON.parse(localStorage.getItem(MUTE_KEY));
    return { names: new Set(saved.names || []), spectators: Boolean(saved.spectators) };
  } catch {
    return { names: new Set(), spectators: false };
  }
}

function saveMutes(mutes) {
  localStorage.setItem(MUTE_KEY, JSON.stringify({ names: [...mutes.names], spectators: mutes.spectators }));
}

/**
 * The chat panel. ``send(message)`` sends a client message over the table's socket.
 * Returns the panel's element and what the page tells it: ``welcome(table, seat)`` on
 * every (re)connection, ``receive(message)`` for each ``chat`` message, ``error(code)``
 * for a refused message, ``seats(list)`` when the seats change.
 */
export function createChat(send) {
  const mutes = loadMutes();
  let entries = [];
  let mySeat = null;
  let seatList = [];
  let canWrite = false;
  let pending = null;
  let unread = 0;

  const count = el("span", { class: "chat-unread", id: "chat-unread", hidden: true });
  const summary = el("summary", { id: "chat-title" }, _("Chat"), " ", count);
  const list = el("ol", {
    id: "chat-list", class: "chat-list", tabindex: "0", "aria-label": _("Chat messages"),
    "aria-live": "polite", "aria-relevant": "additions",
  });
  const empty = el("p", { id: "chat-empty", class: "note chat-empty" }, _("No messages yet."));
  const hiddenNote = el("p", { id: "chat-hidden", class: "note chat-hidden", hidden: true });
  const input = el("input", {
    id: "chat-input", class: "chat-input", maxlength: MAX, autocomplete: "off", enterkeyhint: "send",
    placeholder: _("Message to the table"),
    "aria-describedby": "chat-error",
  });
  const button = el("button", { type: "submit", id: "chat-send" }, _("Send"));
  const form = el("form", { id: "chat-form", class: "chat-form" },
    el("label", { for: "chat-input", class: "visually-hidden" }, _("Message to the table")),
    input, button);
  const readOnly = el("p", { id: "chat-read-only", class: "note", hidden: true },
    _("Spectators only read the chat at this table."));
  const error = el("p", { id: "chat-error", class: "error chat-error", role: "alert" });
  const muteList = el("ul", { id: "chat-mute-list", class: "chat-mute-list" });
  const muteBox = el("details", { id: "chat-mutes", class: "chat-mutes" },
    el("summary", {}, _("Mute players")),
    el("p", { class: "note" }, _("A muted player's messages are hidden, here and at other tables.")),
    muteList);
  const panel = el("details", { id: "chat-panel", class: "chat-panel" },
    summary, list, empty, hiddenNote, form, readOnly, error, muteBox);
  panel.open = window.matchMedia("(min-width: 1024px)").matches;
  panel.addEventListener("toggle", () => { if (panel.open) { unread = 0; showUnread(); list.scrollTop = list.scrollHeight; } });

  form.addEventListener("submit", (event) => {
    event.preventDefault();
    const text = input.value.trim();
    error.textContent = "";
    if (!text) return;
    pending = input.value;
    input.value = "";
    send({ type: "chat", text });
  });

  function muted(entry) {
    if (entry.seat === null) return mutes.spectators;
    return entry.seat !== mySeat && mutes.names.has(entry.name);
  }

  function timeOf(entry) {
    const at = new Date(entry.time * 1000);
    return el("time", { class: "chat-time", datetime: at.toISOString() },
      new Intl.DateTimeFormat(lang() === "zh-Hant" ? "zh-TW" : "en", { hour: "2-digit", minute: "2-digit" }).format(at));
  }

  /** The writer's name: an account's links to its profile, with a mark. */
  function writer(entry) {
    if (entry.seat === null) return el("span", { class: "chat-name" }, _("Spectator"));
    if (!entry.account) return el("span", { class: "chat-name" }, entry.name);
    const mark = _("Signed-in player");
    return [
      entry.bot_account ? botMark() : null,
      el("a", { class: "chat-name chat-account", href: `/players/${encodeURIComponent(entry.name)}`, dir: "auto" }, entry.name),
      el("span", { class: "chat-badge", role: "img", "aria-label": mark, title: mark }, "✓"),
    ];
  }

  function line(entry) {
    const mine = entry.seat !== null && entry.seat === mySeat;
    // Text nodes only: whatever was typed is shown as typed, markup included.
    return el("li", { class: `chat-msg${mine ? " chat-mine" : ""}${entry.seat === null ? " chat-spectator" : ""}`, "data-id": entry.id, "data-seat": entry.seat === null ? "spectator" : entry.seat },
      writer(entry), _(": "),
      el("span", { class: "chat-text", dir: "auto" }, entry.text), " ", timeOf(entry));
  }

  function draw() {
    let hidden = 0;
    for (const item of list.children) {
      const entry = entries.find((e) => String(e.id) === item.dataset.id);
      const off = entry ? muted(entry) : false;
      item.hidden = off;
      if (off) hidden += 1;
    }
    empty.hidden = entries.length > 0;
    hiddenNote.hidden = hidden === 0;
    hiddenNote.textContent = hidden === 1 ? _("1 message from a muted player is hidden.")
      : _("{n} messages from muted players are hidden.", { n: hidden });
  }

  function showUnread() {
    count.hidden = unread === 0 || panel.open;
    count.textContent = _("{n} new", { n: unread });
  }

  function drawMutes() {
    const people = seatList.filter((s) => s.kind === "human" && s.seat !== mySeat && s.name);
    const boxes = people.map((s) => {
      const box = el("input", { type: "checkbox", id: `mute-${s.seat}`, "data-name": s.name });
      box.checked = mutes.names.has(s.name);
      box.addEventListener("change", () => {
        if (box.checked) mutes.names.add(s.name); else mutes.names.delete(s.name);
        saveMutes(mutes);
        draw();
      });
      return el("li", {}, box, el("label", { for: `mute-${s.seat}` }, s.name));
    });
    const spectators = el("input", { type: "checkbox", id: "mute-spectators" });
    spectators.checked = mutes.spectators;
    spectators.addEventListener("change", () => {
      mutes.spectators = spectators.checked;
      saveMutes(mutes);
      draw();
    });
    boxes.push(el("li", {}, spectators, el("label", { for: "mute-spectators" }, _("Spectators"))));
    muteList.replaceChildren(...boxes);
  }

  return {
    element: panel,

    welcome(table, seat) {
      mySeat = seat;
      seatList = table.seats;
      canWrite = seat !== null || Boolean(table.spectator_chat);
      form.hidden = !canWrite;
      readOnly.hidden = canWrite;
      entries = [];
      list.replaceChildren();
      drawMutes();
      draw();
    },

    seats(seats) {
      seatList = seats;
      drawMutes();
    },

    receive(message) {
      // The latest messages sent after hello are shown without being read out one by one.
      const quiet = message.history;
      if (quiet) list.setAttribute("aria-live", "off");
      const atEnd = list.scrollTop + list.clientHeight >= list.scrollHeight - 4;
      for (const entry of message.messages) {
        if (entries.some((e) => e.id === entry.id)) continue;
        const at = entries.findIndex((e) => e.id > entry.id);
        const item = line(entry);
        if (at < 0) { entries.push(entry); list.append(item); } else { entries.splice(at, 0, entry); list.children[at].before(item); }
        if (entry.seat !== null && entry.seat === mySeat && pending !== null && pending.trim() === entry.text) pending = null;
        if (!quiet && !panel.open && !muted(entry)) unread += 1;
      }
      draw();
      showUnread();
      if (atEnd || quiet) list.scrollTop = list.scrollHeight;
      if (quiet) setTimeout(() => list.setAttribute("aria-live", "polite"), 0);
    },

    error(code) {
      error.textContent = errorText(code);
      if (pending !== null && !input.value) input.value = pending;
      pending = null;
    },
  };
}
