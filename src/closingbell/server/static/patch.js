// Drawing the table anew without rebuilding what did not change. Each message draws the whole
// board afresh (the boards are plain functions of a view); ``patch`` then brings the page's
// nodes to that drawing, keeping every node whose drawing is the same. The browser then lays
// out, styles and paints only what changed, which on a phone is most of a message's cost.

/**
 * A node that answers the player (a card, row or button that is a choice): it carries its
 * own listeners, which an attribute cannot show, so it is kept only when drawn exactly the same.
 */
function live(node) {
  return node.classList.contains("playable") || node.classList.contains("targetable");
}

/** Whether ``old`` may be turned into ``wanted`` in place. */
function alike(old, wanted) {
  if (old.nodeType !== wanted.nodeType) return false;
  if (old.nodeType !== Node.ELEMENT_NODE) return true;
  return old.namespaceURI === wanted.namespaceURI && old.tagName === wanted.tagName
    // A card stays the card it shows, for movement's snapshot of where each card was.
    && old.getAttribute("data-card") === wanted.getAttribute("data-card")
    && !live(old) && !live(wanted);
}

function update(old, wanted) {
  if (old.nodeType !== Node.ELEMENT_NODE) {
    if (old.data !== wanted.data) old.data = wanted.data;
    return;
  }
  for (const a of [...old.attributes]) if (!wanted.hasAttribute(a.name)) old.removeAttribute(a.name);
  for (const a of wanted.attributes) {
    if (old.getAttribute(a.name) === a.value) continue;
    // The page's Content-Security-Policy refuses a style attribute set as text; the
    // style's own properties may be set.
    if (a.name === "style") old.style.cssText = wanted.style.cssText;
    else old.setAttribute(a.name, a.value);
  }
  patch(old, [...wanted.childNodes]);
}

/**
 * Make ``parent``'s children what ``wanted`` draws: a node equal to its drawing stays as it
 * is, one of the same kind is changed in place, any other is replaced.
 */
export function patch(parent, wanted) {
  const old = [...parent.childNodes];
  wanted.forEach((node, i) => {
    const now = old[i];
    if (!now) parent.append(node);
    else if (now.isEqualNode(node)) return;
    else if (alike(now, node)) update(now, node);
    else parent.replaceChild(node, now);
  });
  for (const extra of old.slice(wanted.length)) extra.remove();
}
