// A finished game's rematch: the button that offers it (or accepts the offer), who agreed
// so far, and the way to the new table once every seated person agreed. The new table keeps
// the seats and their keys: a player's page keeps its seat's key for the new table too, and
// those who agreed are taken there at once.
import { _, el, errorText } from "/static/i18n.js";

const seatKey = (id) => `closingbell.seat.${id}`;

/**
 * The rematch's part of the page, for the table ``tableId``. ``send(message)`` sends a
 * client message. The page tells it ``welcome(table, seat)``, ``update(message)`` for each
 * ``rematch`` message, ``show(names, seats)`` after each state, and ``error(code)``
 * for a refusal; ``box(where)`` makes one more place that shows it (the final screen, the
 * side panel), kept up to date.
 */
export function createRematch(send, tableId) {
  let votes = [];
  let table = null;
  let seat = null;
  let names = [];
  let seats = [];
  let asked = false;
  let problem = "";
  const boxes = new Map();

  function carryKey(id) {
    // The same key opens the same seat at the new table.
    const mine = localStorage.getItem(seatKey(tableId));
    if (mine && !localStorage.getItem(seatKey(id))) localStorage.setItem(seatKey(id), mine);
  }

  function go() {
    carryKey(table);
    location.href = `/t/${encodeURIComponent(table)}`;
  }

  function sentence() {
    if (table) return _("The rematch is open.");
    if (!votes.length) return "";
    // The others still to agree (one's own part is the button).
    const waiting = seats.filter((s) => s.kind === "human" && s.seat !== seat && !votes.includes(s.seat)).map((s) => names[s.seat]);
    const name = names[votes[0]] ?? "?";
    if (!waiting.length) return _("{name} offers a rematch.", { name });
    return _("{name} offers a rematch. Waiting for {names}.", { name, names: waiting.join(_(", ")) });
  }

  function fill(box, where) {
    const parts = [];
    if (table) {
      parts.push(el("a", {
        class: "button primary rematch-go", id: `rematch-go-${where}`, href: `/t/${encodeURIComponent(table)}`,
        onclick: (event) => { event.preventDefault(); go(); },
      }, seat === null ? _("Watch the rematch") : _("Go to the rematch")));
    } else if (seat !== null) {
      const voted = votes.includes(seat);
      const label = voted ? _("Rematch offered") : (votes.length ? _("Accept the rematch") : _("Rematch"));
      parts.push(el("button", {
        type: "button", class: "primary rematch-button", id: `rematch-button-${where}`, disabled: voted || asked,
        onclick: () => { asked = true; problem = ""; refresh(); send({ type: "rematch" }); },
      }, label));
    }
    const text = sentence();
    if (text) parts.push(el("p", { class: "rematch-status", id: `rematch-status-${where}` }, text));
    if (problem) parts.push(el("p", { class: "error", id: `rematch-error-${where}` }, problem));
    const focused = box.contains(document.activeElement);
    box.hidden = parts.length === 0;
    box.replaceChildren(...parts);
    if (focused) {
      // Keyboard players keep their place: on the new button, else on the words.
      const next = box.querySelector("a, button:not([disabled])") || box.querySelector(".rematch-status");
      if (next) { if (!next.matches("a, button")) next.tabIndex = -1; next.focus(); }
    }
  }

  function refresh() {
    for (const [where, box] of boxes) fill(box, where);
  }

  return {
    welcome(info, mySeat) {
      seat = mySeat;
      table = info.rematch || null;
      seats = info.seats;
      refresh();
    },

    update(message) {
      const opened = !table && message.table;
      votes = message.votes;
      table = message.table;
      asked = false;
      refresh();
      if (opened && seat !== null && votes.includes(seat)) go();
    },

    show(newNames, newSeats) {
      names = newNames;
      seats = newSeats;
      refresh();
    },

    error(code) {
      if (!asked) return false;
      asked = false;
      problem = errorText(code);
      refresh();
      return true;
    },

    box(where) {
      // One box per place: a newer one (the side panel drawn again) replaces the last.
      const box = el("div", { class: "rematch-box", id: `rematch-${where}`, role: "status" });
      boxes.set(where, box);
      fill(box, where);
      return box;
    },
  };
}
