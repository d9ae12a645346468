// Hints at a practice table (unrated, nobody but the player seated): a Hint button on the
// player's turn, with what taking one costs written beside it, and what the analysis prefers
// with what it is worth (docs/protocol.md, "Hints"). A rated table offers none. The page
// highlights the preferred action's card, row or button; a chip in the banner says that
// hints were used here, which keeps the table's result out of the ratings.
import { _, el, errorText, lang, money } from "/static/i18n.js";

function locale() {
  return lang() === "zh-Hant" ? "zh-TW" : "en";
}

/**
 * The hints' part of the page. ``send(message)`` sends a client message; ``gameOf()`` names
 * the table's game. The page tells it ``welcome(table, seat)``, ``show(state, seats, replaying)``
 * after each state, ``receive(message)`` for each ``hint`` message and ``error(code)`` for a
 * refusal (whether it was the hint's). ``best(version)`` is the action to highlight.
 */
export function createHints(send, gameOf) {
  let seat = null;
  let state = null;
  let seats = [];
  let rated = false;
  let replaying = false;
  let used = false;
  let asked = null; // the version a hint was asked for, until it comes
  let hint = null; // the hint of the current version
  let problem = "";

  const chip = el("span", {
    id: "hints-used", class: "chip chip-hints", hidden: true,
    title: _("A hint was taken at this table: its result counts for no rating."),
  }, _("Hints used"));
  const button = el("button", {
    type: "button", id: "hint-button", class: "hint-button", "aria-describedby": "hint-what hint-cost",
    onclick: ask,
  }, _("Hint"));
  const what = el("span", { id: "hint-what", class: "visually-hidden" },
    _("What the analysis would choose now, and what it is worth."));
  // What a hint costs, in sight before one is taken.
  const cost = el("small", { id: "hint-cost", class: "hint-cost" },
    _("A hint marks this game “Hints used” for good; rated tables give none."));
  const result = el("div", { id: "hint-result", class: "hint-result", "aria-live": "polite" });
  const element = el("div", { id: "hint-box", class: "hint-box", hidden: true },
    el("div", { class: "hint-ask" }, button, what, cost), result);

  function practice() {
    return !rated && seat !== null && seats.length > 0 && seats.every((s) => s.seat === seat || s.kind === "bot");
  }

  function myTurn() {
    return Boolean(state && state.status === "playing" && state.seat === seat && state.legal.length);
  }

  function ask() {
    if (!myTurn() || asked !== null) return;
    asked = state.version;
    problem = "";
    refresh();
    send({ type: "hint", version: state.version });
  }

  function margin(x) {
    if (gameOf() === "card_stock_market") {
      const dollars = Math.round(x);
      return dollars > 0 ? `+${money(dollars)}` : money(dollars);
    }
    const text = new Intl.NumberFormat(locale(), { maximumFractionDigits: 1, signDisplay: "exceptZero" }).format(x);
    return text.replace("-", "−"); // the minus sign, as money() writes it
  }

  function chance(x) {
    // Written out rather than with Intl's percent format, whose option's name the page's
    // check for inline styles would take for one.
    return `${new Intl.NumberFormat(locale(), { maximumFractionDigits: 0 }).format(x * 100)}%`;
  }

  function card(h) {
    const best = h.best;
    const [lowMargin, highMargin] = best.margin_interval;
    const [lowWin, highWin] = best.win_interval;
    return el("div", { class: "hint-card", id: "hint-card" },
      el("p", { class: "hint-best" }, _("Hint: {action}", { action: best.label || best.text })),
      // The place of the narrator's reason, once it gives one.
      h.reason ? el("p", { class: "hint-reason" }, h.reason) : null,
      el("p", { class: "hint-figures", id: "hint-margin" },
        _("Expected lead at the end: {margin} (95%: {low} to {high})",
          { margin: margin(best.margin), low: margin(lowMargin), high: margin(highMargin) })),
      el("p", { class: "hint-figures", id: "hint-win" },
        _("Chance of winning: {win} (95%: {low} to {high})",
          { win: chance(best.win), low: chance(lowWin), high: chance(highWin) })),
      el("p", { class: "note hint-note" },
        _("Worked out from {n} deals of the cards you cannot see: it knows what you know, no more.", { n: h.worlds })));
  }

  function refresh() {
    chip.hidden = !used;
    const shown = practice() && myTurn() && !replaying;
    element.hidden = !shown;
    if (!shown) return;
    const waiting = asked !== null && asked === state.version;
    const have = hint && hint.version === state.version;
    button.disabled = waiting || Boolean(have);
    button.textContent = waiting ? _("Working out a hint…") : _("Hint");
    cost.hidden = used; // once taken, the chip says so
    if (have) result.replaceChildren(card(hint));
    else if (problem) result.replaceChildren(el("p", { class: "error", id: "hint-error" }, problem));
    else result.replaceChildren();
  }

  return {
    chip,
    element,

    welcome(info, mySeat) {
      seat = mySeat;
      seats = info.seats;
      rated = Boolean(info.rated);
      used = used || Boolean(info.hints_used);
      refresh();
    },

    show(newState, newSeats, isReplaying) {
      if (state && newState.version !== state.version) { hint = null; problem = ""; }
      state = newState;
      seats = newSeats;
      replaying = Boolean(isReplaying);
      refresh();
    },

    receive(message) {
      asked = null;
      used = true;
      if (state && message.version === state.version) hint = message;
      refresh();
    },

    error(code) {
      if (asked === null) return false;
      asked = null;
      // The decision was played meanwhile: the next state says so, and a new hint may be asked.
      problem = code === "stale_version" ? "" : errorText(code);
      refresh();
      return true;
    },

    best(version) {
      return hint && hint.version === version && !replaying ? hint.best.id : null;
    },
  };
}
