// The page's own words: the "web" catalog, fetched as JSON from /api/messages/{lang}.
// Every fixed word of the page is written _("...") so that Babel's JavaScript extractor
// finds it (python -m closingbell.tui.catalogs web).

const KEY = "closingbell.lang";
let table = {};

/** The chosen language: "en" or "zh-Hant". */
export function lang() {
  const chosen = localStorage.getItem(KEY);
  if (chosen === "en" || chosen === "zh-Hant") return chosen;
  return (navigator.language || "").toLowerCase().startsWith("zh") ? "zh-Hant" : "en";
}

/** Remember a language (the page reloads to apply it). */
export function setLang(value) {
  localStorage.setItem(KEY, value);
}

/** Load the catalog of the chosen language. */
export async function loadMessages() {
  const response = await fetch(`/api/messages/${lang()}`);
  table = response.ok ? (await response.json()).messages : {};
  document.documentElement.lang = lang();
}

/** A fixed word in the chosen language, with {name} placeholders filled from values. */
export function _(text, values) {
  let out = table[text] || text;
  if (values) {
    out = out.replace(/\{(\w+)\}/g, (m, k) => (k in values ? String(values[k]) : m));
  }
  return out;
}

/** An element with text (never markup) and attributes. */
export function el(tag, attrs, ...children) {
  const node = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs || {})) {
    if (v === null || v === undefined || v === false) continue;
    if (k === "class") node.className = v;
    else if (k.startsWith("on")) node.addEventListener(k.slice(2), v);
    else node.setAttribute(k, v === true ? "" : String(v));
  }
  for (const child of children.flat()) {
    if (child === null || child === undefined || child === false) continue;
    node.append(child instanceof Node ? child : document.createTextNode(String(child)));
  }
  return node;
}

/** The language picker shown on every page. */
export function langPicker() {
  const select = el(
    "select",
    { id: "lang", "aria-label": _("Language"), onchange: (e) => { setLang(e.target.value); location.reload(); } },
    el("option", { value: "en" }, "English"),
    el("option", { value: "zh-Hant" }, "繁體中文"),
  );
  select.value = lang();
  return select;
}
