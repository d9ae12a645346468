// The account in every page's header: "Sign in" for a guest (a dialog that signs in or makes
// an account), and for a signed-in player "My games", their name (a dialog with their profile,
// a password change and "Sign out"). Signing in hands over the seats this browser took as a
// guest (their tokens in localStorage), so that a guest who signs up mid-game keeps the seat.
import { _, el, errorText, failure, fetchJSON, nameNode, postJSON } from "/static/i18n.js";
import { waitingCount } from "/static/waiting.js";

const SEAT_PREFIX = "closingbell.seat.";
const PASSWORD_MIN = 8;
const USERNAME = /^[A-Za-z0-9][A-Za-z0-9_.-]{2,31}$/;

/**
 * What is wrong with what the sign-in form holds: the field at fault ("username" or
 * "password") and why, in the page's words; ``null`` when nothing is. The page checks it
 * itself, so that a mistake is said in the page's language, not in the browser's.
 */
function formProblem(username, password, making) {
  if (!username) return { field: "username", text: _("Type an account name.") };
  if (making && !USERNAME.test(username)) return { field: "username", text: errorText("bad_username") };
  if (!password) return { field: "password", text: _("Type a password.") };
  if (making && password.length < PASSWORD_MIN) {
    return { field: "password", text: _("A password has 8 characters or more.") };
  }
  return null;
}

let current; // undefined until asked; then null (a guest) or { username, bot }

/** The signed-in account ({ username, bot }), or null for a guest. */
export async function account() {
  if (current === undefined) {
    try {
      current = (await fetchJSON("/api/account")).user;
    } catch {
      current = null;
    }
  }
  return current;
}

/** The seats this browser took as a guest: { table, token } for each. */
function heldSeats() {
  const held = [];
  for (let i = 0; i < localStorage.length; i++) {
    const key = localStorage.key(i);
    if (!key || !key.startsWith(SEAT_PREFIX)) continue;
    try {
      const seat = JSON.parse(localStorage.getItem(key));
      if (seat && typeof seat.token === "string") held.push({ table: key.slice(SEAT_PREFIX.length), token: seat.token });
    } catch {
      // not one of ours
    }
  }
  return held.slice(0, 200);
}

function dialog(id, titleText, ...body) {
  const close = el("button", { type: "button", class: "dialog-close", "aria-label": _("Close") }, "×");
  const box = el("dialog", { id, class: "panel account-dialog", "aria-labelledby": `${id}-title` },
    el("div", { class: "dialog-head" }, el("h2", { id: `${id}-title` }, titleText), close), ...body);
  close.addEventListener("click", () => box.close());
  box.addEventListener("close", () => box.remove());
  document.body.append(box);
  box.showModal();
  return box;
}

function field(id, label, attrs) {
  const input = el("input", { id, name: id, required: true, ...attrs });
  return [el("div", { class: "option" }, el("label", { for: id }, label), input), input];
}

/** The sign-in dialog; ``signUp`` opens it on "Create an account". */
function openSignIn(signUp) {
  let making = Boolean(signUp);
  const [nameRow, name] = field("account-username", _("Account name"), {
    maxlength: 32, autocomplete: "username", autocapitalize: "off", spellcheck: "false",
  });
  const [passRow, password] = field("account-password", _("Password"), { type: "password", maxlength: 1024 });
  const hint = el("small", { id: "account-hint", class: "note" });
  const error = el("p", { class: "error", id: "account-error", role: "alert" });
  const submit = el("button", { type: "submit", class: "primary", id: "account-submit" });
  const other = el("button", { type: "button", id: "account-switch" });
  const form = el("form", { class: "account-form", novalidate: true }, nameRow, passRow, hint, error,
    el("div", { class: "dialog-buttons" }, submit, other));
  const box = dialog("account-dialog", "", form);
  const heading = box.querySelector("h2");
  function draw() {
    heading.textContent = making ? _("Create an account") : _("Sign in");
    submit.textContent = making ? _("Create account") : _("Sign in");
    other.textContent = making ? _("I have an account") : _("Create an account");
    password.autocomplete = making ? "new-password" : "current-password";
    password.minLength = making ? 8 : 1;
    hint.textContent = making
      ? _("3 to 32 letters, digits, “_”, “.” or “-”; a password of 8 characters or more. Your seats as a guest stay yours.")
      : "";
  }
  other.addEventListener("click", () => { making = !making; error.textContent = ""; draw(); });
  form.addEventListener("submit", async (event) => {
    event.preventDefault();
    error.textContent = "";
    name.removeAttribute("aria-invalid");
    password.removeAttribute("aria-invalid");
    const problem = formProblem(name.value.trim(), password.value, making);
    if (problem) {
      const wrong = problem.field === "username" ? name : password;
      error.textContent = problem.text;
      wrong.setAttribute("aria-invalid", "true");
      wrong.focus();
      return;
    }
    submit.disabled = true;
    try {
      const route = making ? "/api/account/signup" : "/api/account/signin";
      await postJSON(route, { username: name.value.trim(), password: password.value, seats: heldSeats() });
      location.reload();
    } catch (e) {
      // A new password the server finds too short is said as the form says it.
      error.textContent = making && e && e.code === "bad_password" ? _("A password has 8 characters or more.") : failure(e);
      submit.disabled = false;
      password.focus();
    }
  });
  draw();
  name.focus();
}

/** The signed-in player's dialog: their profile, a password change, signing out. */
function openAccount(user) {
  const [oldRow, old] = field("old-password", _("Current password"), { type: "password", autocomplete: "current-password", maxlength: 1024 });
  const [newRow, fresh] = field("new-password", _("New password"), { type: "password", autocomplete: "new-password", minlength: 8, maxlength: 1024 });
  const done = el("p", { class: "note", id: "password-done", "aria-live": "polite" });
  const error = el("p", { class: "error", id: "password-error", role: "alert" });
  const change = el("form", { class: "account-form", id: "password-form", novalidate: true },
    el("h3", {}, _("Change your password")), oldRow, newRow,
    el("small", { class: "note" }, _("Your other devices are signed out when it changes.")),
    error, done, el("div", { class: "dialog-buttons" }, el("button", { type: "submit", id: "password-submit" }, _("Change password"))));
  change.addEventListener("submit", async (event) => {
    event.preventDefault();
    error.textContent = "";
    done.textContent = "";
    if (!old.value) { error.textContent = _("Type your current password."); old.focus(); return; }
    if (fresh.value.length < PASSWORD_MIN) {
      error.textContent = _("A password has 8 characters or more.");
      fresh.focus();
      return;
    }
    try {
      await postJSON("/api/account/password", { old: old.value, new: fresh.value });
      old.value = "";
      fresh.value = "";
      done.textContent = _("Your password was changed.");
    } catch (e) {
      error.textContent = failure(e);
    }
  });
  const out = el("button", { type: "button", id: "sign-out", class: "primary" }, _("Sign out"));
  out.addEventListener("click", async () => {
    try {
      await postJSON("/api/account/signout", {});
    } finally {
      location.reload();
    }
  });
  dialog("account-menu", user.username,
    el("p", {}, el("a", { href: `/players/${encodeURIComponent(user.username)}`, id: "profile-link" }, _("Your profile and ratings"))),
    el("p", {}, el("a", { href: "/account", id: "account-page-link" }, _("Bot account and API tokens"))),
    change, el("div", { class: "dialog-buttons" }, out));
  old.focus();
}

/** The header's account controls, for this page's visitor. */
export async function accountControls() {
  const user = await account();
  if (!user) {
    const signIn = el("button", { type: "button", class: "toggle", id: "sign-in" }, _("Sign in"));
    signIn.addEventListener("click", () => openSignIn(false));
    return [signIn];
  }
  const badge = el("span", { class: "badge", id: "header-badge", hidden: true });
  const mine = el("a", { class: "toggle", id: "my-games-link", href: "/my" }, _("My games"), badge);
  async function drawWaiting() {
    const n = await waitingCount();
    badge.hidden = !n;
    badge.textContent = n ? String(n) : "";
    mine.setAttribute("aria-label", n ? _("My games: {n} waiting for you", { n }) : _("My games"));
  }
  drawWaiting();
  setInterval(() => { if (!document.hidden) drawWaiting(); }, 30_000);
  const who = el("button", { type: "button", class: "toggle", id: "account-button", "aria-haspopup": "dialog" }, user.bot ? nameNode(user.username, true) : user.username);
  who.addEventListener("click", () => openAccount(user));
  return [mine, who];
}
