// Tooltips: what a counter or a mark on the table means, in words, for everyone. An element
// given a tip (``tip(node, text)``) shows it when the pointer rests on it, when it has the
// keyboard's focus, and when a finger holds it (a long press, which then clicks nothing).
// Escape hides it. The tooltip sits beside its element, never over it, lets the pointer
// through, and is tied to it with aria-describedby while it shows.

const HOVER_DELAY = 200;
const PRESS = 450;
const SLOP = 10;
const GAP = 8;
const EDGE = 6;
const FOCUSABLE = "button, a[href], input, select, textarea, summary, [tabindex]";

let box = null;
let current = null;
let shownBy = null;
let hoverTimer = null;
let press = null;
let swallowUntil = 0;
let lastPointer = 0;
let dismissed = null;
let frame = 0;
let mouse = null;

/**
 * Give ``node`` the explanation ``text`` (in the page's language) and return it. A node that
 * is not a control is made focusable, so that the keyboard reaches its tip too; so the node
 * must not lie inside a control or an image (the boards tip the control itself instead). A
 * ``title`` the node had is shown with the tip, under it, instead of the browser's own.
 */
export function tip(node, text) {
  if (!node || !text) return node;
  node.dataset.tip = text;
  if (node.title) {
    node.dataset.tipMore = node.title;
    node.removeAttribute("title");
  }
  if (!node.matches(FOCUSABLE)) node.tabIndex = 0;
  return node;
}

/** The tooltip element (made on first use). */
function tooltip() {
  if (!box) {
    box = document.createElement("div");
    box.id = "tip";
    box.className = "tip";
    box.setAttribute("role", "tooltip");
    box.hidden = true;
    document.body.append(box);
  }
  return box;
}

function tipped(target) {
  return target instanceof Element ? target.closest("[data-tip]") : null;
}

function describe(node, on) {
  const ids = (node.getAttribute("aria-describedby") || "").split(/\s+/).filter((id) => id && id !== "tip");
  if (on) ids.push("tip");
  if (ids.length) node.setAttribute("aria-describedby", ids.join(" "));
  else node.removeAttribute("aria-describedby");
}

/** What the mouse rests on now, if it has a tip (the table may have been drawn anew under it). */
function underMouse() {
  return mouse ? tipped(document.elementFromPoint(mouse[0], mouse[1])) : null;
}

/** Put the tooltip above its element (below when there is no room), within the window. */
function place() {
  if (!current) return;
  if (!current.isConnected) {
    // Drawn anew: the pointer's tip follows to the new drawing of what it rests on.
    const again = shownBy === "hover" ? underMouse() : null;
    hide();
    if (again) show(again, "hover");
    return;
  }
  const t = tooltip();
  const r = current.getBoundingClientRect();
  const w = t.offsetWidth;
  const h = t.offsetHeight;
  const cx = r.left + r.width / 2;
  const left = Math.max(EDGE, Math.min(cx - w / 2, window.innerWidth - w - EDGE));
  const below = r.top - h - GAP < EDGE && r.bottom + h + GAP <= window.innerHeight - EDGE;
  t.classList.toggle("tip-below", below);
  t.style.left = `${Math.round(left)}px`;
  t.style.top = `${Math.round(below ? r.bottom + GAP : r.top - h - GAP)}px`;
  t.style.setProperty("--tip-arrow", `${Math.round(Math.max(10, Math.min(cx - left, w - 10)))}px`);
}

function follow() {
  place();
  frame = current ? requestAnimationFrame(follow) : 0;
}

/** Show ``node``'s tip (``how``: "hover", "focus" or "press"). */
export function show(node, how) {
  if (!node || !node.dataset.tip) return;
  if (current && current !== node) hide();
  const t = tooltip();
  t.replaceChildren(document.createTextNode(node.dataset.tip));
  if (node.dataset.tipMore) {
    const more = document.createElement("span");
    more.className = "tip-more";
    more.textContent = node.dataset.tipMore;
    t.append(more);
  }
  current = node;
  shownBy = how;
  t.hidden = false;
  describe(node, true);
  place();
  if (!frame) frame = requestAnimationFrame(follow);
}

/** Hide the tooltip. */
export function hide() {
  clearTimeout(hoverTimer);
  if (current) describe(current, false);
  current = null;
  shownBy = null;
  if (box) box.hidden = true;
  if (frame) cancelAnimationFrame(frame);
  frame = 0;
}

function endPress(e) {
  if (!press) return;
  clearTimeout(press.timer);
  // The click that follows the finger's lift, if the browser sends one, is swallowed.
  if (press.shown && e && e.type === "pointerup") swallowUntil = Date.now() + 400;
  press = null;
}

document.addEventListener("pointermove", (e) => {
  if (e.pointerType === "mouse") mouse = [e.clientX, e.clientY];
}, { passive: true });

document.addEventListener("pointerover", (e) => {
  if (e.pointerType !== "mouse") return;
  mouse = [e.clientX, e.clientY];
  const node = tipped(e.target);
  clearTimeout(hoverTimer);
  if (!node || node === current || node === dismissed) return;
  hoverTimer = setTimeout(() => {
    const now = node.isConnected ? node : underMouse();
    if (now && now !== dismissed) show(now, "hover");
  }, HOVER_DELAY);
});

document.addEventListener("pointerout", (e) => {
  if (e.pointerType !== "mouse") return;
  const node = tipped(e.target);
  if (!node || (e.relatedTarget instanceof Node && node.contains(e.relatedTarget))) return;
  clearTimeout(hoverTimer);
  if (node === dismissed) dismissed = null;
  if (node === current && shownBy === "hover") hide();
});

document.addEventListener("focusin", (e) => {
  const node = tipped(e.target);
  // A click focuses what it clicks: only the keyboard's focus (or a script's) shows the tip.
  if (node && node === e.target && Date.now() - lastPointer > 600) show(node, "focus");
});

document.addEventListener("focusout", (e) => {
  if (e.target === current && shownBy === "focus") hide();
});

document.addEventListener("keydown", (e) => {
  if (e.key === "Escape" && current) {
    dismissed = current;
    hide();
  }
});

document.addEventListener("pointerdown", (e) => {
  lastPointer = Date.now();
  swallowUntil = 0;
  endPress();
  const node = tipped(e.target);
  if (current && (shownBy === "press" || node !== current)) hide();
  clearTimeout(hoverTimer);
  if (!node || e.pointerType === "mouse" || !e.isPrimary) return;
  press = {
    node, x: e.clientX, y: e.clientY,
    shown: false,
    timer: setTimeout(() => {
      show(node, "press");
      press.shown = true;
    }, PRESS),
  };
}, true);

document.addEventListener("pointermove", (e) => {
  if (press && !press.shown && Math.hypot(e.clientX - press.x, e.clientY - press.y) > SLOP) endPress();
}, true);

document.addEventListener("pointerup", endPress, true);
document.addEventListener("pointercancel", endPress, true);

// The click that ends a long press was a question, not a choice.
document.addEventListener("click", (e) => {
  if (Date.now() < swallowUntil) {
    swallowUntil = 0;
    e.preventDefault();
    e.stopImmediatePropagation();
  }
}, true);

// A long press opens no context menu over a tip (a phone's "copy, share ..." bubble).
document.addEventListener("contextmenu", (e) => {
  if (tipped(e.target) && (press || shownBy === "press")) e.preventDefault();
});

window.addEventListener("resize", () => { if (current) place(); });
