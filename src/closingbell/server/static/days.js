// Games over days: how long the seat to move has left, in words, counted on the page from
// the server's own count (``time_left``), so that a browser whose clock is wrong counts right.
import { _, el, lang } from "/static/i18n.js";

const MINUTE = 60;
const HOUR = 3600;
const DAY = 86400;
const REDRAW_EVERY = 30_000;

/** A span of time in words, to the minute above: "2 days 3 h", "5 h 20 min", "12 min". */
export function duration(seconds) {
  if (seconds < MINUTE) return _("under a minute");
  const s = Math.ceil(seconds / MINUTE) * MINUTE;
  const days = Math.floor(s / DAY);
  const hours = Math.floor((s % DAY) / HOUR);
  const minutes = Math.floor((s % HOUR) / MINUTE);
  if (days >= 1) {
    const d = days === 1 ? _("1 day") : _("{n} days", { n: days });
    return hours ? _("{days} {hours} h", { days: d, hours }) : d;
  }
  if (hours >= 1) return minutes ? _("{hours} h {minutes} min", { hours, minutes }) : _("{hours} h", { hours });
  return _("{minutes} min", { minutes });
}

/** The seconds left now of ``timeLeft`` seconds counted from this call (``null`` stays null). */
export function countdown(timeLeft) {
  if (timeLeft === null || timeLeft === undefined) return () => null;
  const from = performance.now();
  return () => Math.max(0, timeLeft - (performance.now() - from) / 1000);
}

/** How long someone has left: "2 days 3 h left", or that the time is up. */
export function leftText(seconds) {
  if (seconds <= 0) return _("time is up: a bot decides");
  return _("{time} left", { time: duration(seconds) });
}

/**
 * The table page's line for a game over days: who must decide within how long, and that a
 * bot decided for a seat whose time ran out. ``update(message, info, names)`` takes each
 * ``state`` message; the line counts down by itself.
 */
export function deadlineLine() {
  const node = el("p", { id: "deadline", class: "deadline-line", hidden: true });
  let shown = null;
  let left = () => null;
  function draw() {
    if (!shown) { node.hidden = true; return; }
    const { message, names } = shown;
    const parts = [];
    const by = message.last_action;
    if (by && by.by === "stand_in") {
      parts.push(by.seat === message.seat ? _("Bot moved for you: time ran out.")
        : _("Bot moved for {name}: time ran out.", { name: names[by.seat] }));
    }
    const seconds = left();
    if (message.status === "playing" && seconds !== null) {
      const time = duration(seconds);
      if (seconds <= 0) parts.push(_("Time is up: a bot decides for {name}.", { name: names[message.current_player] }));
      else if (message.current_player === message.seat) parts.push(_("You have {time} to decide.", { time }));
      else parts.push(_("{name} has {time} to decide.", { name: names[message.current_player], time }));
    }
    node.textContent = parts.join(lang() === "zh-Hant" ? "" : " ");
    node.hidden = !parts.length;
  }
  setInterval(draw, REDRAW_EVERY);
  return {
    node,
    update(message, info, names) {
      if (!info || !info.move_time || !message) {
        shown = null;
      } else {
        if (!shown || shown.message !== message) left = countdown(message.time_left);
        shown = { message, names };
        node.title = _("Time per move: {time}", { time: duration(info.move_time) });
      }
      draw();
    },
  };
}
