// A finished game's review: one seat's decisions, each valued by the analysis from what that
// seat knew at the time. The server works it out in its helper processes (POST, then GET
// /api/tables/{id}/review?seat=N, docs/protocol.md); this module shows its progress, then a
// chart of the seat's chance of winning with the mistakes marked, the list of decisions and,
// for the decision chosen, what every legal action was worth. Choosing a decision (in the
// list or on the chart) steps the replay's board to that moment.
import { _, el, failure, fetchJSON, lang, num, postJSON, seatLabel, svg } from "/static/i18n.js";

const POLL = 1000;

/** A step for ticks about ``raw`` apart: 1, 2 or 5 times a power of ten. */
function niceStep(raw) {
  const power = 10 ** Math.floor(Math.log10(Math.max(raw, 1)));
  return [1, 2, 5, 10].map((m) => m * power).find((s) => s >= raw);
}
const BUSY_RETRY = 10000;
const MARK_HEIGHT = 22; // a mistake's numbered mark on the chart: big enough to tap
const MARK_GAP = 4; // between two marks side by side
const MARK_ROW = MARK_HEIGHT + 6; // from one row of marks to the next

/**
 * Where the marks of points at ``xs`` (ascending) go: in rows, each mark at least ``spacing``
 * from the next in its row, as near its point as the others allow, within ``lo`` to ``hi``.
 * As few rows as hold them all; point i goes to row i modulo their number. Returns
 * ``{ placed: [{ x, row }, ...], rows }``.
 */
function spread(xs, lo, hi, spacing) {
  const perRow = Math.max(1, Math.floor((hi - lo) / spacing) + 1);
  const rows = Math.max(1, Math.ceil(xs.length / perRow));
  const placed = xs.map((x, i) => ({ x, row: i % rows }));
  for (let r = 0; r < rows; r += 1) {
    const row = placed.filter((p) => p.row === r);
    let edge = -Infinity;
    for (const p of row) { p.x = Math.max(p.x, lo, edge + spacing); edge = p.x; }
    edge = Infinity;
    for (const p of row.reverse()) { p.x = Math.min(p.x, hi, edge - spacing); edge = p.x; }
  }
  return { placed, rows };
}

/**
 * The review's part of the page, for the finished table ``tableId``. ``hooks``:
 * ``names()`` and ``seats()`` (the seats as the page names them), ``mine()`` (the reader's
 * seat or null), ``money`` (whether margins are dollars), ``stepTo(seat, index)`` (the
 * replay's board at the state before action ``index``, as ``seat`` saw it; a promise) and
 * ``onClose()``. ``panel`` goes beside the board, ``detail`` above it; ``open(seat)`` starts;
 * ``stepped(seat, index)`` is told of every step the replay shows.
 */
export function createReview(tableId, hooks) {
  let seat = null;
  let found = null; // the review once done
  let chosen = null; // the place (index) of the decision shown
  let timer = null;
  let mistakesOnly = false;
  let asked = 0; // a counter, so that an old seat's answers are dropped
  let resizing = null; // redraws the chart at the panel's width

  const panel = el("section", { id: "review", class: "review", hidden: true, "aria-labelledby": "review-title" });
  const detail = el("section", { id: "review-detail", class: "review-detail", hidden: true, "aria-live": "polite", "aria-label": _("The decision") });

  function percent(p) {
    return `${num(Math.round(p * 100))}%`;
  }

  function margin(m) {
    const shown = new Intl.NumberFormat(lang() === "zh-Hant" ? "zh-TW" : "en", { maximumFractionDigits: 1, minimumFractionDigits: 1 }).format(Math.abs(m));
    const sign = m > 0.05 ? "+" : (m < -0.05 ? "−" : "");
    return `${sign}${hooks.money() ? "$" : ""}${shown}`;
  }

  function interval([lo, hi], format) {
    return _("{low} to {high}", { low: format(lo), high: format(hi) });
  }

  function clearTimer() {
    if (timer) clearTimeout(timer);
    timer = null;
  }

  // ---------------------------------------------------------------- asking the server

  function path() {
    return `/api/tables/${encodeURIComponent(tableId)}/review?seat=${seat}&lang=${encodeURIComponent(lang())}`;
  }

  async function ask(post) {
    const mine = asked;
    clearTimer();
    let answer;
    try {
      answer = post ? await postJSON(path(), {}) : await fetchJSON(path());
    } catch (e) {
      if (mine !== asked) return;
      if (e.code === "review_not_started") { ask(true); return; } // another server, or dropped
      if (e.code === "too_many_reviews") {
        progress(null, failure(e));
        timer = setTimeout(() => ask(true), BUSY_RETRY);
        return;
      }
      progress(null, failure(e), true);
      return;
    }
    if (mine !== asked) return;
    if (answer.status === "done") { show(answer.review); return; }
    if (answer.status === "failed") { progress(null, _("The review could not be worked out."), true); return; }
    progress(answer);
    timer = setTimeout(() => ask(false), POLL);
  }

  // ---------------------------------------------------------------- the panel's parts

  function seatPicker() {
    const select = el("select", { id: "review-seat" },
      hooks.seats().map((s) => el("option", { value: s.seat }, `${hooks.names()[s.seat]} (${seatLabel(s.seat)})`)));
    select.value = String(seat);
    select.addEventListener("change", () => open(Number(select.value)));
    return el("div", { class: "review-seat" }, el("label", { for: "review-seat" }, _("Seat to review")), select);
  }

  function head() {
    const name = hooks.names()[seat];
    return [
      el("div", { class: "review-head" },
        el("h2", { id: "review-title" }, _("Review of {name}", { name })),
        el("button", { type: "button", id: "review-close", class: "review-close", onclick: close }, _("Close the review"))),
      seatPicker(),
      el("p", { class: "review-views", id: "review-views" },
        _("The analysis uses only what {name} knew at each decision: that seat's own cards and what everyone could see, never the cards hidden from it. So it judges the decision, not the luck.", { name })),
    ];
  }

  function timeLeft(seconds) {
    if (seconds === null || seconds === undefined) return "";
    if (seconds < 90) return _("about {n} s left", { n: num(Math.max(1, Math.round(seconds))) });
    return _("about {n} min left", { n: num(Math.round(seconds / 60)) });
  }

  /** The progress while the review is worked out, or a problem (``again``: a button to retry). */
  function progress(answer, problem, again) {
    const parts = [...head()];
    if (problem) {
      parts.push(el("p", { class: "error", role: "alert", id: "review-problem" }, problem));
      if (again) parts.push(el("button", { type: "button", id: "review-again", onclick: () => { asked += 1; ask(true); } }, _("Try again")));
    } else {
      const known = answer && answer.total !== null;
      const bar = el("progress", { id: "review-progress", max: known ? Math.max(1, answer.total) : 1 });
      if (known) bar.value = answer.done;
      const words = known
        ? [_("Decision {done} of {total}", { done: num(answer.done), total: num(answer.total) }), timeLeft(answer.seconds_left)].filter(Boolean).join(_(", "))
        : _("Counting the decisions…");
      parts.push(el("div", { class: "review-working", role: "status" },
        el("p", { id: "review-status" }, _("Working out the review: every legal action of every decision, played out in many possible deals.")),
        bar, el("p", { class: "review-count", id: "review-count" }, words)));
    }
    panel.replaceChildren(...parts);
    panel.dataset.state = problem ? "problem" : "working";
  }

  // ---------------------------------------------------------------- the chart

  function chart(box) {
    const decisions = found.decisions;
    const width = Math.max(260, Math.min(900, box.clientWidth || 320));
    const left = 40;
    const right = 10;
    const bottom = 42;
    const plot = 148; // the height of the plot itself
    const n = Math.max(decisions.length, 2);
    const X = (k) => left + ((width - left - right) * k) / (n - 1);
    // The mistakes' numbered marks, in rows above the plot, each tied to its point.
    const mistakes = decisions.map((d, k) => [d, k]).filter(([d]) => d.mistake);
    const markWidth = Math.max(24, 10 + 8 * String(decisions.length).length);
    const { placed, rows } = spread(mistakes.map(([, k]) => X(k)), markWidth / 2 + 2, width - markWidth / 2 - 2, markWidth + MARK_GAP);
    const top = mistakes.length ? 6 + rows * MARK_ROW + 4 : 10;
    const height = top + plot + bottom;
    const Y = (p) => top + plot * (1 - p);
    const parts = [
      svg("title", { id: "review-chart-title" }, _("Chance of winning through the game")),
      svg("desc", { id: "review-chart-desc" }, _("{name}'s chance of winning after each of {n} decisions, from {from} to {to}; {m} mistakes are marked in red.", {
        name: found.name, n: num(decisions.length), m: num(found.mistakes),
        from: decisions.length ? percent(decisions[0].taken.win) : "", to: decisions.length ? percent(decisions[decisions.length - 1].taken.win) : "",
      })),
    ];
    for (const p of [0, 0.25, 0.5, 0.75, 1]) {
      parts.push(svg("line", { class: p === 0.5 ? "grid even" : "grid", x1: left, x2: width - right, y1: Y(p), y2: Y(p) }),
        svg("text", { class: "tick", x: left - 6, y: Y(p) + 4, "text-anchor": "end" }, percent(p)));
    }
    const step = niceStep(decisions.length / (width < 500 ? 4 : 8));
    for (let k = step; k <= decisions.length; k += step) {
      parts.push(svg("text", { class: "tick", x: X(k - 1), y: height - bottom + 16, "text-anchor": "middle" }, num(k)));
    }
    parts.push(
      svg("line", { class: "axis", x1: left, x2: width - right, y1: height - bottom, y2: height - bottom }),
      svg("text", { class: "axis-title", x: (left + width - right) / 2, y: height - 4, "text-anchor": "middle" }, _("Decisions")),
    );
    if (chosen !== null) {
      const k = decisions.findIndex((d) => d.index === chosen);
      if (k >= 0) parts.push(svg("line", { class: "chosen", x1: X(k), x2: X(k), y1: top, y2: height - bottom }));
    }
    parts.push(svg("polyline", { class: "line best-line", points: decisions.map((d, k) => `${X(k)},${Y(d.best.win)}`).join(" ") }));
    parts.push(svg("polyline", { class: "line", points: decisions.map((d, k) => `${X(k)},${Y(d.taken.win)}`).join(" ") }));
    // Points of mistakes a few decisions apart overlap: the marks above, spread out so that
    // none covers another, are what is clicked or focused.
    const marks = mistakes.map(([d, k], i) => {
      const { x, row } = placed[i];
      const y = 6 + (rows - 1 - row) * MARK_ROW;
      const label = _("Mistake at decision {k}: {action}", { k: num(k + 1), action: d.taken.label });
      parts.push(
        svg("polyline", { class: "mistake-lead", points: `${x},${y + MARK_HEIGHT} ${X(k)},${top} ${X(k)},${Y(d.taken.win)}` }),
        svg("circle", { class: "mistake-dot", cx: X(k), cy: Y(d.taken.win), r: 4 }));
      const mark = svg("g", {
        class: d.index === chosen ? "mistake-mark current" : "mistake-mark", tabindex: "0", role: "button",
        "aria-label": label, "aria-current": d.index === chosen ? "true" : null, "data-index": d.index,
      },
      svg("title", {}, label),
      svg("rect", { x: x - markWidth / 2, y, width: markWidth, height: MARK_HEIGHT, rx: 5 }),
      svg("text", { x, y: y + MARK_HEIGHT / 2 + 4, "text-anchor": "middle" }, num(k + 1)));
      mark.addEventListener("click", () => choose(d.index));
      mark.addEventListener("keydown", (e) => { if (e.key === "Enter" || e.key === " ") { e.preventDefault(); choose(d.index); } });
      return mark;
    });
    parts.push(...marks); // last: above the lines
    // Drawn anew when a decision is chosen: the focus stays on the mark it was on.
    const focused = box.contains(document.activeElement) ? document.activeElement.getAttribute("data-index") : null;
    box.replaceChildren(svg("svg", {
      class: "chart-svg review-chart-svg", width, height, viewBox: `0 0 ${width} ${height}`,
      role: "group", "aria-labelledby": "review-chart-title review-chart-desc",
    }, parts));
    const again = marks.find((m) => m.getAttribute("data-index") === focused);
    if (again) again.focus({ preventScroll: true });
  }

  // ---------------------------------------------------------------- the list

  function item(d, k) {
    const current = d.index === chosen;
    return el("li", { class: d.mistake ? "mistake" : "" },
      el("button", {
        type: "button", class: "review-item", "data-index": d.index, "aria-current": current ? "true" : null,
        onclick: () => choose(d.index),
      },
      el("span", { class: "review-k" }, num(k + 1)),
      el("span", { class: "review-label" }, d.taken.label),
      el("span", { class: "review-win" }, percent(d.taken.win)),
      d.mistake ? el("span", { class: "tag mistake-tag" }, _("Mistake")) : null));
  }

  function list() {
    const shown = found.decisions.map((d, k) => [d, k]).filter(([d]) => !mistakesOnly || d.mistake);
    return el("ol", { class: "review-list", id: "review-list", "aria-label": _("Decisions") },
      shown.map(([d, k]) => item(d, k)));
  }

  function show(review) {
    found = review;
    const box = el("div", { class: "chart review-chart", id: "review-chart" });
    const filter = el("input", { type: "checkbox", id: "review-only-mistakes", checked: mistakesOnly });
    filter.addEventListener("change", () => { mistakesOnly = filter.checked; redrawList(); });
    const summary = found.mistakes === 1
      ? _("1 mistake in {n} decisions.", { n: num(found.decisions.length) })
      : _("{m} mistakes in {n} decisions.", { m: num(found.mistakes), n: num(found.decisions.length) });
    panel.replaceChildren(...head(),
      el("p", { class: "review-summary", id: "review-summary" }, summary),
      box,
      el("p", { class: "chart-key note" },
        el("span", { class: "key-taken" }, _("Solid: after the action taken")), " · ",
        el("span", { class: "key-best" }, _("dashed: after the preferred action")), " · ",
        el("span", { class: "key-mistake" }, _("red: a mistake"))),
      el("p", { class: "note review-method" }, _("Each action was played out in the same {budget} possible deals; the figures are the expected final margin ({name}'s score minus the best other score) and the chance of winning, each with its 95% interval. A mistake costs clearly more than chance explains.", { budget: num(found.budget), name: hooks.names()[seat] })),
      el("div", { class: "check review-filter" }, filter, el("label", { for: "review-only-mistakes" }, _("Show only the mistakes"))),
      list());
    panel.dataset.state = "done";
    requestAnimationFrame(() => { if (found === review) chart(box); }); // not if another seat was asked for meanwhile
    let width = 0;
    if (resizing) resizing.disconnect();
    resizing = new ResizeObserver(() => {
      if (!found || Math.abs(box.clientWidth - width) < 8) return;
      width = box.clientWidth;
      chart(box);
    });
    resizing.observe(box);
  }

  function redrawList() {
    const old = panel.querySelector("#review-list");
    if (old) old.replaceWith(list());
  }

  // ---------------------------------------------------------------- one decision

  function worthTable(d) {
    const rows = d.actions.map((v) => {
      const tags = [];
      if (v.action === d.taken.action) tags.push(el("span", { class: "tag taken-tag" }, _("Played")));
      if (v.action === d.best.action) tags.push(el("span", { class: "tag best-tag" }, _("Preferred")));
      const cls = [
        v.action === d.best.action ? "best" : "",
        v.action === d.taken.action ? "taken" : "",
        v.action === d.taken.action && d.mistake ? "mistake" : "",
      ].join(" ").trim();
      return el("tr", { class: cls || null },
        el("th", { scope: "row" }, el("span", { class: "worth-label" }, v.label), " ", tags),
        el("td", {}, el("span", { class: "worth-main" }, margin(v.margin)), el("span", { class: "worth-range" }, interval(v.margin_interval, margin))),
        el("td", {}, el("span", { class: "worth-main" }, percent(v.win)), el("span", { class: "worth-range" }, interval(v.win_interval, percent))));
    });
    return el("div", { class: "worth-box", id: "review-worth-box", tabindex: "0", "aria-labelledby": "review-worth-caption" },
      el("table", { class: "worth", id: "review-worth" },
        el("caption", { id: "review-worth-caption" }, _("What each legal action was worth")),
        el("thead", {}, el("tr", {},
          el("th", { scope: "col" }, _("Action")),
          el("th", { scope: "col" }, _("Final margin")),
          el("th", { scope: "col" }, _("Chance of winning")))),
        el("tbody", {}, rows)));
  }

  function drawDetail() {
    const k = found ? found.decisions.findIndex((d) => d.index === chosen) : -1;
    if (k < 0) { detail.hidden = true; detail.replaceChildren(); return; }
    const d = found.decisions[k];
    const parts = [
      el("h2", { id: "review-detail-title" }, _("Decision {k} of {n}", { k: num(k + 1), n: num(found.decisions.length) }),
        d.mistake ? el("span", { class: "tag mistake-tag" }, _("Mistake")) : null),
      el("p", { class: "review-taken" }, el("strong", {}, _("Played:")), " ", d.taken.label),
    ];
    if (d.best.action !== d.taken.action) parts.push(el("p", { class: "review-best" }, el("strong", {}, _("The analysis prefers:")), " ", d.best.label));
    else parts.push(el("p", { class: "review-best" }, _("The analysis prefers this action too.")));
    if (d.reason) parts.push(el("p", { class: "review-reason", id: "review-reason" }, d.reason));
    parts.push(worthTable(d));
    const nav = el("div", { class: "review-nav" },
      el("button", { type: "button", id: "review-prev", disabled: k === 0, onclick: () => choose(found.decisions[k - 1].index) }, _("Previous decision")),
      el("button", { type: "button", id: "review-next", disabled: k === found.decisions.length - 1, onclick: () => choose(found.decisions[k + 1].index) }, _("Next decision")));
    const mistakes = found.decisions.filter((x) => x.mistake);
    const next = mistakes.find((x) => x.index > d.index);
    if (next) nav.append(el("button", { type: "button", id: "review-next-mistake", onclick: () => choose(next.index) }, _("Next mistake")));
    parts.push(nav);
    detail.replaceChildren(...parts);
    detail.classList.toggle("is-mistake", d.mistake);
    detail.hidden = false;
    fitWorth(detail.querySelector(".worth-box"));
  }

  /**
   * Scroll the worth table's ``box`` so that the action played and the preferred one both
   * show. A long list scrolls under the table's header and the preferred row (the first),
   * which stay in place (style.css); when the row played is beyond the box, the rows move up
   * just enough to show it whole, and by whole rows, so that the first in sight starts right
   * under the preferred row and none is half hidden under it (with room below the last row
   * when the list must scroll further than its end for that).
   */
  function fitWorth(box) {
    const table = box && box.querySelector(".worth");
    if (!table) return;
    box.style.setProperty("--worth-head", `${table.tHead.getBoundingClientRect().height}px`);
    box.scrollTop = 0;
    const rows = [...table.tBodies[0].rows];
    const taken = rows.findIndex((r) => r.classList.contains("taken"));
    if (taken < 1) return;
    const origin = box.getBoundingClientRect().top + box.clientTop;
    const top = (r) => r.getBoundingClientRect().top - origin;
    const end = top(rows[taken]) + rows[taken].getBoundingClientRect().height;
    if (end <= box.clientHeight) return;
    const pinned = top(rows[0]) + rows[0].getBoundingClientRect().height - top(table.tHead);
    for (let j = 1; j <= taken; j += 1) {
      const scroll = top(rows[j]) - pinned;
      if (end - scroll <= box.clientHeight || j === taken) {
        // Near the end of the list, room below the last row lets it scroll that far.
        const short = scroll - (box.scrollHeight - box.clientHeight);
        if (short > 0) box.style.paddingBottom = `${Math.ceil(short)}px`;
        box.scrollTop = scroll;
        return;
      }
    }
  }

  function mark() {
    for (const b of panel.querySelectorAll(".review-item")) {
      if (Number(b.dataset.index) === chosen) b.setAttribute("aria-current", "true");
      else b.removeAttribute("aria-current");
    }
    const box = panel.querySelector("#review-chart");
    if (box && found) chart(box);
  }

  /** Step the board to the decision at ``index`` and show what each action was worth. */
  async function choose(index) {
    chosen = index;
    mark();
    drawDetail();
    await hooks.stepTo(seat, index);
    // The replay's controls, then this decision and the board as the seat saw it; on a short
    // screen, the page goes on up to the decision's top so that the worth table shows whole.
    (detail.previousElementSibling || detail).scrollIntoView({ block: "start", behavior: "instant" });
    const box = detail.querySelector(".worth-box");
    if (!box || detail.hidden) return;
    const over = box.getBoundingClientRect().bottom - window.innerHeight;
    const room = detail.getBoundingClientRect().top;
    if (over > 0 && room > 0) window.scrollBy({ top: Math.min(over + 8, room), behavior: "instant" });
  }

  // ---------------------------------------------------------------- open and close

  /** Open the review of ``which`` (a seat from 0). */
  function open(which) {
    asked += 1;
    seat = which;
    found = null;
    if (resizing) { resizing.disconnect(); resizing = null; }
    chosen = null;
    detail.hidden = true;
    panel.hidden = false;
    document.body.classList.add("reviewing");
    progress({ total: null, done: 0, seconds_left: null });
    panel.scrollIntoView({ block: "start", behavior: "instant" });
    ask(true);
  }

  function close() {
    asked += 1;
    clearTimer();
    panel.hidden = true;
    detail.hidden = true;
    found = null;
    chosen = null;
    document.body.classList.remove("reviewing");
    hooks.onClose();
  }

  /** The replay showed step ``index`` as ``which`` saw it: show that decision, if it is one. */
  function stepped(which, index) {
    if (!found || which !== seat) { detail.hidden = true; return; }
    if (index === chosen) return;
    chosen = found.decisions.some((d) => d.index === index) ? index : null;
    mark();
    drawDetail();
  }

  return { panel, detail, open, close, stepped, get seat() { return panel.hidden ? null : seat; } };
}
