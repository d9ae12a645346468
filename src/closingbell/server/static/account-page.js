// The account page (/account): the signed-in player's account, and its bot-account panel.
// A new account (one that never sat at a table) can become a bot account, for good; a bot
// account's API tokens are listed here, made (each shown once) and revoked.
import { _, botMark, el, failure, fetchJSON, langPicker, loadMessages, postJSON } from "/static/i18n.js";
import { dateText, headerLink, profileHref } from "/static/ratings.js";
import { accountControls } from "/static/account.js";

const main = document.getElementById("main");
const TOKEN_NAME_MAX = 64;

/** Ask the server to revoke a token: DELETE, with fetchJSON's errors. */
function revoke(id) {
  return fetchJSON(`/api/account/tokens/${encodeURIComponent(id)}`, { method: "DELETE" });
}

/** A text's parts with the bot mark where it says {mark}. */
function withMark(text) {
  const [before, after = ""] = text.split("{mark}");
  return [before, botMark(), after];
}

/** The panel that turns a new account into a bot account (a box to tick, then a button). */
function becomeBot() {
  const sure = el("input", { type: "checkbox", id: "bot-sure" });
  const go = el("button", { type: "button", id: "make-bot", class: "primary", disabled: true }, _("Make this a bot account"));
  const error = el("p", { class: "error", id: "make-bot-error", role: "alert" });
  sure.addEventListener("change", () => { go.disabled = !sure.checked; });
  go.addEventListener("click", async () => {
    error.textContent = "";
    go.disabled = true;
    try {
      await postJSON("/api/account/bot", {});
      location.reload(); // the header's account button is marked too
    } catch (e) {
      error.textContent = failure(e);
      go.disabled = !sure.checked;
    }
  });
  return [
    el("p", {}, ...withMark(_("A bot account is played by a program of yours instead of by you: the program signs in with an API token and plays through the same messages as this page, seeing only its own seat, as every player does. Its name carries the mark {mark} wherever it is shown, and it is rated on its own line."))),
    el("p", {}, _("Only an account that has never sat at a table can become one, and it stays a bot account for good.")),
    el("p", { class: "check-row" }, sure, " ", el("label", { for: "bot-sure" }, _("I understand that this account will stay a bot account."))),
    error,
    el("div", { class: "dialog-buttons" }, go),
  ];
}

/** One token's line: its name, dates, and a button that asks once more before revoking. */
function tokenItem(token, redraw, error) {
  const button = el("button", { type: "button", class: "revoke", "data-token": token.id }, _("Revoke"));
  let armed = false;
  button.addEventListener("click", async () => {
    error.textContent = "";
    if (!armed) {
      armed = true;
      button.textContent = _("Revoke: sure?");
      button.classList.add("danger");
      return;
    }
    button.disabled = true;
    try {
      await revoke(token.id);
      await redraw();
    } catch (e) {
      error.textContent = failure(e);
      button.disabled = false;
    }
  });
  const used = token.used_at ? _("last used {when}", { when: dateText(token.used_at) }) : _("never used");
  return el("li", { class: "token-item" },
    el("div", { class: "token-text" },
      el("strong", { dir: "auto" }, token.name),
      el("small", {}, _("made {when}", { when: dateText(token.created_at) }), " · ", used)),
    button);
}

/** A token just made: shown this once, with a button that copies it. */
function newToken(made) {
  const box = el("input", { id: "new-token", readonly: true, value: made.token, spellcheck: "false", "aria-describedby": "new-token-note" });
  const copy = el("button", {
    type: "button", id: "copy-token", onclick: async () => {
      try { await navigator.clipboard.writeText(made.token); copy.textContent = _("Copied"); } catch { box.select(); }
    },
  }, _("Copy"));
  return el("div", { class: "new-token", id: "new-token-box", role: "status" },
    el("label", { for: "new-token" }, _("Your new token “{name}”:", { name: made.name })),
    el("div", { class: "share-row" }, box, copy),
    el("p", { class: "note", id: "new-token-note" }, _("Copy it now: it is shown only this once. The server keeps only a fingerprint of it.")));
}

/** The bot account's tokens: the list, the form that makes one, and how a program uses one. */
async function tokensPanel(redraw, made) {
  const answer = await fetchJSON("/api/account/tokens");
  const error = el("p", { class: "error", id: "token-error", role: "alert" });
  const name = el("input", { id: "token-name", maxlength: TOKEN_NAME_MAX, required: true, autocomplete: "off", placeholder: _("for instance: my trained agent") });
  const full = answer.tokens.length >= answer.most;
  const form = el("form", { class: "account-form", id: "token-form", novalidate: true },
    el("div", { class: "option" }, el("label", { for: "token-name" }, _("Name of a new token")), name),
    el("div", { class: "dialog-buttons" }, el("button", { type: "submit", id: "make-token", class: "primary", disabled: full }, _("Make a token"))));
  form.addEventListener("submit", async (event) => {
    event.preventDefault();
    error.textContent = "";
    const text = name.value.trim();
    if (!text) { error.textContent = _("Name the token first: the name tells your tokens apart."); name.focus(); return; }
    try {
      const token = await postJSON("/api/account/tokens", { name: text });
      await redraw(token);
    } catch (e) {
      error.textContent = failure(e);
    }
  });
  const list = answer.tokens.length
    ? [el("h3", { id: "token-count" }, _("Tokens: {n} of at most {most}", { n: answer.tokens.length, most: answer.most })),
      el("ul", { class: "token-list", id: "token-list", "aria-labelledby": "token-count" }, answer.tokens.map((t) => tokenItem(t, redraw, error)))]
    : el("p", { class: "note", id: "no-tokens" }, _("No token yet: make one for your program."));
  return [
    el("p", {}, _("Your program signs in by sending a token in an HTTP header, on each request and when it opens a table's connection:")),
    el("pre", { class: "code", dir: "ltr" }, "Authorization: Bearer <token>"),
    el("p", { class: "note" }, _("Revoking a token closes every connection it opened at once.")),
    made ? newToken(made) : null,
    list,
    full ? el("p", { class: "note", id: "tokens-full" }, _("This account holds as many tokens as it may: revoke one to make another.")) : form,
    error,
  ];
}

async function draw(made) {
  let user;
  try {
    user = (await fetchJSON("/api/account")).user;
  } catch (e) {
    main.replaceChildren(el("section", { class: "panel" }, el("p", { class: "error", role: "alert" }, failure(e))));
    return;
  }
  if (!user) {
    main.replaceChildren(el("section", { class: "panel account-page-panel" },
      el("h1", {}, _("Your account")),
      el("p", { id: "account-signed-out" }, _("Sign in to see your account (the button at the top of the page).")),
      el("p", {}, el("a", { href: "/" }, _("Back to the lobby")))));
    return;
  }
  let body;
  try {
    body = user.bot ? await tokensPanel(draw, made) : becomeBot();
  } catch (e) {
    body = [el("p", { class: "error", role: "alert" }, failure(e))];
  }
  main.replaceChildren(el("div", { class: "account-page-body" },
    el("section", { class: "panel account-page-panel", "aria-labelledby": "account-title" },
      el("h1", { id: "account-title" }, user.bot ? [botMark(), " "] : null, el("bdi", {}, user.username)),
      el("p", {}, el("a", { href: profileHref(user.username), id: "account-profile" }, _("Your profile and ratings")))),
    el("section", { class: "panel account-page-panel", id: "bot-panel", "aria-labelledby": "bot-title" },
      el("h2", { id: "bot-title" }, user.bot ? _("API tokens") : _("Bot account")), body)));
  const box = document.getElementById("new-token");
  if (box) box.focus();
}

async function start() {
  await loadMessages();
  document.title = `${_("Your account")} · closingbell`;
  document.getElementById("header-right").append(headerLink("/leaderboard", _("Leaderboard")), langPicker(), ...(await accountControls()));
  await draw();
}

start();
