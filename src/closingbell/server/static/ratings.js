// What the profile and leaderboard pages share: how a rating, a player and a date are shown.
// A rating is shown as the server ranks it: mu − 3 sigma (docs/web.md, "Ratings and profiles").
import { _, accountName, botMark, botName, el, fetchJSON, lang, money, num } from "/static/i18n.js";

/** The bot levels, weakest first, as profiles compare with them. */
export const LEVELS = ["easy", "medium", "hard", "expert"];

/** The games, in the order the pages show them. */
export const GAMES = ["take_stock", "card_stock_market"];

/** A rating with one decimal (never "−0.0"). */
export function ratingText(value) {
  const rounded = Math.round(value * 10) / 10 || 0;
  return new Intl.NumberFormat(lang() === "zh-Hant" ? "zh-TW" : "en", {
    minimumFractionDigits: 1, maximumFractionDigits: 1,
  }).format(rounded);
}

/** A rating as people read it: its figure, or "provisional" while the server says it is too
 * unsure to show (about the first five rated games: a figure then would mostly be below 0). */
export function ratingShown(r) {
  return r.provisional ? _("provisional") : ratingText(r.rating);
}

/** A change of rating with its sign: +2.5, −1.8. */
export function changeText(change) {
  const rounded = Math.round(change * 10) / 10 || 0;
  return `${rounded < 0 ? "−" : "+"}${ratingText(Math.abs(rounded))}`;
}

/**
 * The line of a finished table's final screen that says how the game changed the rating of
 * the player in ``seat`` (``null``: nothing to say, the game rated nobody or not them).
 */
export async function ratingChangeLine(tableId, seat) {
  let answer;
  try {
    answer = await fetchJSON(`/api/tables/${encodeURIComponent(tableId)}/ratings`);
  } catch {
    return null;
  }
  const mine = answer.seats.find((s) => s.seat === seat);
  if (!mine) return null;
  const change = changeText(mine.change);
  let text;
  if (mine.after.provisional) {
    text = mine.rated_games === 1
      ? _("Your rating is provisional after 1 rated game ({change} in this game).", { change })
      : _("Your rating is provisional after {n} rated games ({change} in this game).", { n: mine.rated_games, change });
  } else {
    text = _("Your rating: {from} → {to} ({change}).", { from: ratingShown(mine.before), to: ratingText(mine.after.rating), change });
  }
  return el("p", { class: "rating-change", id: "rating-change" }, text);
}

/**
 * A player's name in running text: a bot by its level ("Bot: Hard"), an account by its name
 * ("BOT ana" for a bot account).
 */
export function playerName(username, bot, botAccount) {
  return bot ? _("Bot: {level}", { level: botName(bot) }) : accountName(username, botAccount);
}

/** The address of a player's profile page. */
export function profileHref(username) {
  return `/players/${encodeURIComponent(username)}`;
}

/** A link to a player's profile (a bot account's with the bot mark before it). */
export function playerLink(username, bot, botAccount) {
  const link = el("a", { class: "player", href: profileHref(username) }, playerName(username, bot));
  return botAccount && !bot ? el("span", { class: "marked-name" }, botMark(), " ", link) : link;
}

/** A time (ISO 8601) as a date and time in the chosen language. */
export function dateText(iso) {
  return new Intl.DateTimeFormat(lang() === "zh-Hant" ? "zh-TW" : "en", {
    dateStyle: "medium", timeStyle: "short",
  }).format(new Date(iso));
}

/** The header's link to another of the site's pages. */
export function headerLink(href, text) {
  return el("a", { href, class: "header-link" }, text);
}

/** A final score as the table page shows it: money in Card Stock Market, points in Take Stock. */
export function scoreText(game, score) {
  return game === "card_stock_market" ? money(score) : num(score);
}
