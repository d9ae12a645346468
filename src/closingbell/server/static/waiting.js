// How many tables wait for the signed-in player (their turn, or a seat kept for them), for
// "My games" and for a badge on any page (GET /api/my/games).
import { fetchJSON } from "/static/i18n.js";

/** The player's tables and how many wait for them; ``null`` for a guest. */
export async function myGames() {
  try {
    return await fetchJSON("/api/my/games");
  } catch (e) {
    if (e.code === "sign_in_required") return null;
    throw e;
  }
}

/** How many tables wait for the signed-in player; ``null`` for a guest or when unknown. */
export async function waitingCount() {
  try {
    const answer = await myGames();
    return answer ? answer.waiting : null;
  } catch {
    return null;
  }
}
