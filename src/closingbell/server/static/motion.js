// Movement: cards glide from where they were to where they went (draw, play to a row, buy,
// discard ...). Short, skippable (any click or key finishes it), and off when the system asks
// for reduced motion or the player turns it off. The boards say what moved (their moves()),
// and scene.js shows what the market's events did where they happened.
import * as scene from "/static/scene.js";

const KEY = "closingbell.motion";
const DURATION = 380;
const STAGGER = 70;
const running = new Set();

/** Whether cards move: the player's choice, and never under prefers-reduced-motion. */
export function motionOn() {
  if (window.matchMedia && window.matchMedia("(prefers-reduced-motion: reduce)").matches) return false;
  return localStorage.getItem(KEY) !== "off";
}

/** Whether the system asks for reduced motion (then the toggle cannot turn it on). */
export function reducedBySystem() {
  return Boolean(window.matchMedia && window.matchMedia("(prefers-reduced-motion: reduce)").matches);
}

/** Turn movement on or off (remembered). */
export function setMotion(on) {
  localStorage.setItem(KEY, on ? "on" : "off");
  if (!on) skip();
}

/** Where every zone and card of ``root`` is now, to animate from after the next drawing
 * (nothing when cards do not move: measuring where they are costs a layout of the page). */
export function snapshot(root) {
  const zones = new Map();
  const cards = [];
  const prices = new Map();
  if (!root || !motionOn()) return { zones, cards, prices, counters: new Map() };
  for (const z of root.querySelectorAll("[data-zone]")) {
    if (!zones.has(z.dataset.zone)) zones.set(z.dataset.zone, z.getBoundingClientRect());
  }
  for (const c of root.querySelectorAll("[data-card]")) {
    const zone = c.closest("[data-zone]");
    cards.push({ zone: zone ? zone.dataset.zone : null, card: c.dataset.card, rect: c.getBoundingClientRect(), node: c });
  }
  for (const p of root.querySelectorAll("[data-price]")) {
    const [key, value] = p.dataset.price.split(":");
    prices.set(key, Number(value));
  }
  return { zones, cards, prices, counters: scene.counters(root) };
}

function visible(rect) {
  return rect && rect.width > 0 && rect.height > 0;
}

function zoneOf(root, name) {
  return root.querySelector(`[data-zone="${name}"]`);
}

function centre(rect) {
  return [rect.left + rect.width / 2, rect.top + rect.height / 2];
}

function track(animation, after) {
  running.add(animation);
  const done = () => { running.delete(animation); if (after) after(); };
  animation.addEventListener("finish", done);
  animation.addEventListener("cancel", done);
}

function glide(node, from, to, delay) {
  const [fx, fy] = centre(from);
  const [tx, ty] = centre(to);
  const scale = to.width > 0 ? from.width / to.width : 1;
  const animation = node.animate(
    [{ translate: `${fx - tx}px ${fy - ty}px`, scale: String(scale), zIndex: 50 },
      { translate: "0px 0px", scale: "1", zIndex: 50 }],
    { duration: DURATION, delay, easing: "cubic-bezier(.2,.7,.3,1)", fill: "backwards" });
  track(animation);
}

function ghost(model, from, to, delay) {
  const node = model.cloneNode(true);
  node.removeAttribute("id");
  node.setAttribute("aria-hidden", "true");
  node.classList.add("ghost");
  node.style.left = `${from.left}px`;
  node.style.top = `${from.top}px`;
  node.style.width = `${from.width}px`;
  node.style.height = `${from.height}px`;
  node.style.setProperty("--cw", `${from.width}px`);
  document.body.append(node);
  const [fx, fy] = centre(from);
  const [tx, ty] = centre(to);
  const scale = from.width > 0 ? Math.min(to.width / from.width, 1.5) : 1;
  const animation = node.animate(
    [{ translate: "0px 0px", scale: "1", opacity: 1 },
      { translate: `${tx - fx}px ${ty - fy}px`, scale: String(scale), opacity: 0.85 }],
    { duration: DURATION, delay, easing: "cubic-bezier(.2,.7,.3,1)", fill: "both" });
  track(animation, () => node.remove());
}

/**
 * Move what ``moves`` says moved, from where ``snap`` saw it to where it is now in ``root``.
 * A move is ``{card, from, to, back}``: zones by name; ``back`` draws a face-down card when
 * the card is unknown. ``makeBack(kind)`` makes such a card. A move ``{effect, zone}`` is
 * what an event did there (a split, a crash, a bankruptcy: see scene.js).
 */
export function play(root, snap, moves, makeBack) {
  if (!root || !motionOn()) return;
  scene.play(root, snap, moves.filter((m) => m.effect));
  let delay = 0;
  for (const m of moves.filter((x) => !x.effect).slice(-12)) {
    const key = m.card === null || m.card === undefined ? null : String(m.card);
    const seen = key === null ? [] : snap.cards.filter((c) => c.zone === m.from && c.card === key);
    const source = seen.length ? seen[seen.length - 1] : null;
    const fromRect = source ? source.rect : snap.zones.get(m.from);
    const toZone = zoneOf(root, m.to);
    if (!visible(fromRect) || !toZone) continue;
    const targets = key === null ? [] : [...toZone.querySelectorAll(`[data-card="${key}"]`)];
    const target = targets.length ? targets[targets.length - 1] : null;
    if (target && visible(target.getBoundingClientRect())) {
      glide(target, fromRect, target.getBoundingClientRect(), delay);
    } else {
      const model = source ? source.node : makeBack(m.back || "share");
      const toRect = toZone.getBoundingClientRect();
      if (!visible(toRect)) continue;
      const size = source ? source.rect : { width: 40, height: 56 };
      const [cx, cy] = centre(fromRect);
      const start = source ? fromRect : { left: cx - size.width / 2, top: cy - size.height / 2, width: size.width, height: size.height };
      const [tx, ty] = centre(toRect);
      const end = { left: tx - start.width / 2, top: ty - start.height / 2, width: start.width, height: start.height };
      ghost(model, start, end, delay);
    }
    delay = Math.min(delay + STAGGER, 700);
  }
}

/** Finish every movement at once (the cards' and the prices' flashes). */
export function skip() {
  scene.stop();
  for (const a of [...running]) a.finish();
  for (const a of document.getAnimations()) if (a.playState === "running") a.finish();
}

/** Whether something is moving. */
export function moving() {
  return running.size > 0;
}

function skipIfMoving() {
  if (running.size || document.getAnimations().length) skip();
}
document.addEventListener("pointerdown", skipIfMoving, true);
document.addEventListener("keydown", skipIfMoving, true);
