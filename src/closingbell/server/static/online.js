// Who is online: every page of the site says it is open with a heartbeat, GET /api/online
// with this browser's visitor id (random, kept in localStorage), and is told how many
// people are online (docs/protocol.md).
import { fetchJSON } from "/static/i18n.js";

const KEY = "closingbell.visitor";

/** This browser's visitor id (made the first time). */
export function visitor() {
  let id = localStorage.getItem(KEY);
  if (!id || !/^[A-Za-z0-9_-]{8,64}$/.test(id)) {
    const bytes = crypto.getRandomValues(new Uint8Array(12));
    id = Array.from(bytes, (b) => b.toString(16).padStart(2, "0")).join("");
    localStorage.setItem(KEY, id);
  }
  return id;
}

/** Say that this page is open; how many people are online. */
export async function online() {
  const { players } = await fetchJSON(`/api/online?visitor=${visitor()}`);
  return players;
}

/** Say every ``every`` milliseconds that this page is open (a table's page). */
export function keepOnline(every = 20_000) {
  const beat = () => online().catch(() => {});
  beat();
  setInterval(beat, every);
}
