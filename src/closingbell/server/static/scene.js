// The market's moves, shown where they happen: a price counts to its new value, flashes, and
// its row or pile glows green or red; a split card is stamped on its row, a crash shakes the
// row, a freeze settles on it; a bankruptcy shakes the suit's pile and its certificates fall
// to the discard pile; scores, cash and the worth of certificates count up or down.
// motion.js calls ``play`` only while movement is on (see its ``motionOn``); the boards'
// ``moves`` name the events (``{effect, zone}``). Every movement is a Web Animation, so that
// motion.js's skip ends it; one whose element is drawn anew (the table is redrawn at every
// message) goes on, where it was, on the new drawing.
import { num } from "/static/i18n.js";

const COUNT = 650;
const FLASH = 1400;
const STAGGER = 110;

/** The counters that count to their new value: each by its place (zone) and its name. */
const COUNTERS = [
  [".stat.score .stat-value", () => "score"],
  [".stat.worth .stat-value", () => "worth"],
  [".stat.cash .stat-value", () => "cash"],
  [".stat.debt .stat-value", () => "debt"],
  [".cert-sum b", (node) => node.closest(".cert-group").className],
  ["[data-price]", () => "price"],
];

function zoneName(node) {
  const zone = node.closest("[data-zone]");
  return zone ? zone.dataset.zone : "";
}

/** The number a counter shows ("−$1,240" is −1240), or null. */
function valueOf(text) {
  const digits = text.replace(/[^\d]/g, "");
  if (!digits) return null;
  return /^\s*[−-]/.test(text) ? -Number(digits) : Number(digits);
}

function eachCounter(root, fn) {
  for (const [selector, name] of COUNTERS) {
    for (const node of root.querySelectorAll(selector)) fn(`${zoneName(node)}|${name(node)}`, node, name(node));
  }
}

/** Every counter of ``root`` with its value, by key (for ``play``, after the next drawing). */
export function counters(root) {
  const out = new Map();
  if (!root) return out;
  eachCounter(root, (key, node) => {
    const value = valueOf(node.textContent);
    if (value !== null) out.set(key, value);
  });
  return out;
}

function counterAt(root, key) {
  let found = null;
  eachCounter(root, (k, node) => { if (k === key && !found) found = node; });
  return found;
}

// ------------------------------------------------------------------ movements that outlive a redraw

let active = [];
let watched = null;

/**
 * Run ``run(node)`` (which returns its animations) on what ``find(root)`` finds, now and, while
 * it lasts, again on each new drawing of it, from where it had got to.
 */
function keep(root, key, find, run, duration) {
  const node = find(root);
  if (!node) return;
  active = active.filter((e) => e.key !== key);
  const entry = { key, find, run, node, start: performance.now(), duration };
  active.push(entry);
  entry.animations = run(node);
}

function carry() {
  if (!watched || !active.length) return;
  const now = performance.now();
  active = active.filter((e) => now - e.start < e.duration);
  for (const e of active) {
    const node = e.find(watched);
    if (!node) continue;
    // A new drawing may keep the node and take away the class that moved it (patch.js).
    if (node === e.node && e.animations.every((a) => a.playState !== "idle")) continue;
    e.node = node;
    e.animations = e.run(node);
    for (const a of e.animations) a.currentTime = now - e.start;
  }
}

function watch(root) {
  if (watched === root) return;
  watched = root;
  new MutationObserver(carry).observe(root, { childList: true, subtree: true, attributes: true, attributeFilter: ["class"] });
}

/** Forget the movements under way (they were finished at once, or movement is off). */
export function stop() {
  active = [];
}

// ------------------------------------------------------------------ the movements

const GLOW = {
  up: "46, 158, 104", down: "192, 57, 43", gold: "242, 193, 78", ice: "143, 211, 255", grey: "200, 200, 200", blue: "120, 170, 255",
};

const glow = (colour, delay = 0, duration = 900) => (node) => {
  const c = GLOW[colour];
  return [node.animate(
    [{ boxShadow: `inset 0 0 0 3px rgba(${c}, .95), 0 0 18px 3px rgba(${c}, .7)` },
      { boxShadow: `inset 0 0 0 3px rgba(${c}, 0), 0 0 18px 3px rgba(${c}, 0)` }],
    { duration, delay, easing: "ease-out" })];
};

const shake = (delay = 0) => (node) => [node.animate(
  [{ translate: "0 0" }, { translate: "-7px 1px" }, { translate: "6px -1px" }, { translate: "-5px 2px" },
    { translate: "4px 0" }, { translate: "-2px 0" }, { translate: "0 0" }],
  { duration: 560, delay, easing: "ease-in-out" })];

const pop = (delay = 0, from = 1.6) => (node) => [node.animate(
  [{ scale: String(from), opacity: 0.2 }, { scale: "1", opacity: 1 }],
  { duration: 480, delay, easing: "cubic-bezier(.2,1.5,.4,1)", fill: "backwards" })];

/** The price's flash, green up or red down: a Web Animation named ``went-up`` or ``went-down``
 * (not a CSS class, which a redraw that comes before the next frame would take away unseen). */
const flash = (up) => (node) => [node.animate(
  [{ background: up ? "#2e9e68" : "#c0392b", color: "#fff" }, {}],
  { duration: FLASH, easing: "ease-out", id: up ? "went-up" : "went-down" })];

/** Count a counter from ``from`` to its value now, its text keeping its form ("$", "−"). */
const count = (from, to) => (node) => {
  const end = node.textContent;
  const digits = end.match(/\d[\d,.\s]*\d|\d/);
  const up = to > from;
  // A Web Animation as the clock (and a flash), so that skipping finishes the count too.
  const clock = node.animate(
    [{ color: up ? "#1e8a4f" : "#c0392b", textShadow: `0 0 6px rgba(${GLOW[up ? "up" : "down"]}, .8)` }, {}],
    { duration: COUNT, easing: "ease-out" });
  if (!digits || (from < 0) !== (to < 0)) return [clock];
  const before = end.slice(0, digits.index);
  const after = end.slice(digits.index + digits[0].length);
  const done = () => { if (node.textContent !== end) node.textContent = end; };
  const step = () => {
    if (!node.isConnected || clock.playState !== "running") { done(); return; }
    const t = Math.min(1, (clock.currentTime || 0) / COUNT);
    const v = Math.round(from + (to - from) * (1 - (1 - t) * (1 - t)));
    node.textContent = `${before}${num(Math.abs(v))}${after}`;
    requestAnimationFrame(step);
  };
  clock.addEventListener("finish", done);
  clock.addEventListener("cancel", done);
  requestAnimationFrame(step);
  return [clock];
};

/** A certificate that was wiped out falls from where it lay to ``to`` and fades. */
function fall(model, rect, to, delay) {
  const node = model.cloneNode(true);
  node.removeAttribute("id");
  node.removeAttribute("tabindex");
  node.setAttribute("aria-hidden", "true");
  node.classList.add("ghost");
  node.style.left = `${rect.left}px`;
  node.style.top = `${rect.top}px`;
  node.style.width = `${rect.width}px`;
  node.style.height = `${rect.height}px`;
  node.style.setProperty("--cw", `${rect.width}px`);
  document.body.append(node);
  const target = to.getBoundingClientRect();
  const dx = target.left + target.width / 2 - (rect.left + rect.width / 2);
  const dy = target.top + target.height / 2 - (rect.top + rect.height / 2);
  const animation = node.animate(
    [{ translate: "0 0", rotate: "0deg", opacity: 1 },
      { translate: "0 14px", rotate: "-8deg", opacity: 1, offset: 0.25 },
      { translate: `${dx}px ${dy}px`, rotate: "24deg", opacity: 0.1 }],
    { duration: 760, delay, easing: "ease-in", fill: "both" });
  const gone = () => node.remove();
  animation.addEventListener("finish", gone);
  animation.addEventListener("cancel", gone);
}

/** What an event did to its place (``effect.zone``) of ``root``, from ``delay`` on. */
function show(root, snap, effect, delay) {
  const zone = `[data-zone="${effect.zone}"]`;
  const at = (selector = "") => (r) => {
    const all = r.querySelectorAll(`${zone}${selector ? ` ${selector}` : ""}`);
    return all.length ? all[all.length - 1] : null;
  };
  const key = `${effect.effect}|${effect.zone}`;
  const here = (part, run, duration = 1600) => keep(root, `${key}|${part}`, at(part), run, duration + delay);
  if (effect.effect === "split") {
    here("", glow("gold", delay));
    here(".split-card", pop(delay, 2.2));
    here(".mult", pop(delay + 120, 1.6));
  } else if (effect.effect === "wasted") {
    here("", glow("grey", delay));
  } else if (effect.effect === "crash") {
    here("", (n) => [...glow("down", delay, 1100)(n), ...shake(delay)(n)]);
  } else if (effect.effect === "freeze") {
    here("", glow("ice", delay, 1100));
    here(".freeze-card", pop(delay, 1.8));
  } else if (effect.effect === "thaw") {
    here("", glow("ice", delay));
  } else if (effect.effect === "audit") {
    here("", glow("blue", delay));
  } else if (effect.effect === "bankrupt") {
    here("", (n) => [...glow("down", delay, 1200)(n), ...shake(delay)(n)]);
    here(".chip-bust", pop(delay + 150, 2.4));
  } else if (effect.effect === "wiped") {
    const discard = root.querySelector('[data-zone="discard"]');
    const lost = snap.cards.filter((c) => c.zone === effect.zone && Math.floor(Number(c.card) / 13) === effect.suit);
    if (discard) lost.forEach((c, i) => fall(c.node, c.rect, discard, delay + 200 + i * 60));
    here("", glow("down", delay + 200));
  }
}

/**
 * Show in ``root`` what changed since ``snap`` (motion.js's snapshot, with ``counters``):
 * prices and counters count to their new values, and each of ``effects`` plays where it
 * happened, one after another.
 */
export function play(root, snap, effects) {
  watch(root);
  const now = counters(root);
  const before = snap.counters || new Map();
  eachCounter(root, (key, node, name) => {
    const was = before.get(key);
    const is = now.get(key);
    if (was === undefined || is === undefined || was === is) return;
    keep(root, key, (r) => counterAt(r, key), count(was, is), COUNT);
    if (name === "price") {
      keep(root, `${key}|flash`, (r) => counterAt(r, key), flash(is > was), FLASH);
      const zone = zoneName(node);
      keep(root, `${key}|zone`, (r) => r.querySelector(`[data-zone="${zone}"]`), glow(is > was ? "up" : "down"), 900);
    }
  });
  const seen = new Map();
  for (const effect of effects) {
    const n = seen.get(effect.effect) || 0;
    seen.set(effect.effect, n + 1);
    show(root, snap, effect, n * STAGGER);
  }
}
