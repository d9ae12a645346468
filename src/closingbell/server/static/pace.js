// The pace at which this page shows the bots' moves. The server plays a bot's turn briskly
// (a short pause before its first decision, shorter ones between the others); the page holds
// the states it receives in a small queue and shows each bot move at the pace the player
// chose (remembered in this browser), so that every move is seen, however fast it came.
// Within a bot's turn the page waits as the server does: a pause before the turn's first
// move, shorter ones before the others, which shrink so that the whole turn is shown within
// the pace's time. Nothing else is held back longer than the moves before it: a person's
// move, the seats, and the moment it is your turn come as soon as the bot's moves are shown.
import { _, el } from "/static/i18n.js";

const KEY = "closingbell.pace";

/** Milliseconds before a bot turn's first move, before each following move, and a turn's most. */
export const PACES = {
  fast: { first: 0, next: 0, turn: 0 },
  normal: { first: 500, next: 250, turn: 1500 },
  slow: { first: 1400, next: 700, turn: 4000 },
};

/** The pace the player chose: "fast", "normal" (the default) or "slow". */
export function pace() {
  const chosen = localStorage.getItem(KEY);
  return chosen in PACES ? chosen : "normal";
}

/** Remember a pace. */
export function setPace(value) {
  if (value in PACES) localStorage.setItem(KEY, value);
}

/** Whether ``message`` is a bot's move (or a stand-in's) that the page shows at its pace. */
function paced(message) {
  const by = message.type === "state" && message.last_action ? message.last_action.by : null;
  return (by === "bot" || by === "stand_in") && message.first_event > 0;
}

/**
 * A queue between the connection and the page: ``deliver(message, arrived)`` is called for
 * each message pushed, in order, a bot's moves no sooner than the pace allows; ``arrived`` is
 * when it was received (``performance.now()``).
 */
export function createPacer(deliver) {
  const queue = [];
  let timer = null;
  let shown = 0; // when the last message was delivered (performance.now())
  let turn = null; // the bot turn being shown: { seat, began }

  function wait(item, now) {
    const p = PACES[pace()];
    if (!paced(item.body)) { turn = null; return 0; }
    const seat = item.body.last_action.seat;
    if (!turn || turn.seat !== seat) {
      // The turn began when its first pause did: after the move before it was shown, or
      // later if its first move came later than that pause.
      turn = { seat, began: Math.max(shown, item.arrived - p.first) };
      return p.first;
    }
    const left = Math.max(0, turn.began + p.turn - now);
    return Math.min(p.next, left / 2);
  }

  function pump() {
    timer = null;
    while (queue.length) {
      const now = performance.now();
      const item = queue[0];
      if (item.due === undefined) item.due = shown + wait(item, now);
      if (now < item.due) {
        timer = setTimeout(pump, item.due - now);
        return;
      }
      queue.shift();
      shown = now;
      deliver(item.body, item.arrived);
    }
  }

  return {
    /** Show ``message`` once the moves before it are shown, at the pace if a bot's move. */
    push(message) {
      queue.push({ body: message, arrived: performance.now() });
      if (!timer) pump();
    },
    /** Forget what is waiting (a new connection sends the whole state again). */
    clear() {
      queue.length = 0;
      if (timer) clearTimeout(timer);
      timer = null;
      turn = null;
    },
    /** Whether moves received are still waiting to be shown. */
    behind() {
      return queue.length > 0;
    },
  };
}

/** The control that chooses the pace (a menu in the page's header). */
export function paceControl() {
  const select = el("select", {
    id: "bot-pace", "aria-label": _("How fast the bots' moves are shown"),
    title: _("How fast the bots' moves are shown"),
    onchange: (e) => setPace(e.target.value),
  },
  el("option", { value: "fast" }, _("Bots: fast")),
  el("option", { value: "normal" }, _("Bots: normal")),
  el("option", { value: "slow" }, _("Bots: slow")));
  select.value = pace();
  return select;
}
