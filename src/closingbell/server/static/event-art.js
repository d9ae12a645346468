// The pictures of Take Stock's event cards: one small scene per kind of event, drawn in SVG
// on a 40 × 40 box (our own drawings). Colours come from art.css by class: ``a``, ``b`` and
// ``c`` are the kind's fills, ``w`` white, ``d`` its dark ink; ``ln`` a bold line, ``thin`` a
// fine one. The card's frame, name and words are cards.js's.
import { svg } from "/static/i18n.js";

const p = (d, cls) => svg("path", { d, class: cls });
const c = (cx, cy, r, cls) => svg("circle", { cx, cy, r, class: cls });
const r = (x, y, width, height, cls, rx = 0) => svg("rect", { x, y, width, height, rx, class: cls });
const g = (transform, ...kids) => svg("g", { transform }, kids);

/** A certificate's zigzag cut, top to bottom, at x = 20. */
const CUT = "L18 13 L21 17 L18 21 L21 25 L18 29 L20 33";

const SCENES = {
  // A share certificate cut in two, its halves drawn apart: more, smaller pieces.
  split: () => [
    g("translate(-2.5 1) rotate(-7 13 21)",
      p(`M6 9 H20 ${CUT} H6 Z`, "a"),
      c(11, 15, 2.6, "b"),
      p("M9 24h7M9 28h6", "thin")),
    g("translate(2.5 1) rotate(7 27 21)",
      p("M20 9 H34 V33 H20 L18 29 L21 25 L18 21 L21 17 L18 13 Z", "a"),
      c(29, 27, 2.6, "b"),
      p("M24 15h7M24 19h6", "thin")),
    p("M20 1.5l1.2 2.6 2.6 1.2-2.6 1.2L20 9.1l-1.2-2.6-2.6-1.2 2.6-1.2z", "b"),
    p("M33 3l.7 1.5 1.5.7-1.5.7L33 7.4l-.7-1.5-1.5-.7 1.5-.7z", "b"),
    p("M7 2.5l.7 1.5 1.5.7-1.5.7L7 6.9l-.7-1.5-1.5-.7 1.5-.7z", "b"),
  ],
  // A price line that climbs, then drops through the floor, which cracks.
  crash: () => [
    r(5, 22, 5, 12, "b"), r(12, 16, 5, 18, "b"), r(19, 8, 5, 26, "b"),
    p("M3 25 L10 17 L15 20 L21 7 L28 31", "ln"),
    p("M23.5 28 L28.5 32.5 L32.5 27", "ln"),
    p("M2 34.5 H38", "ln"),
    p("M26 34.5 l-1.5 2.5 2 1.5M31 34.5 l1.5 2 -1.8 1.8", "thin"),
    r(33, 19, 2.4, 2.4, "c"), r(35.5, 24, 1.8, 1.8, "c"), r(31.5, 13, 1.6, 1.6, "c"),
  ],
  // Someone in a hat with the collar up, eyes to one side.
  insider: () => [
    p("M6 38 L12 28 L20 34 L28 28 L34 38 Z", "a"),
    p("M10.5 18 Q20 36 29.5 18 Z", "d"),
    svg("ellipse", { cx: 20, cy: 17.5, rx: 16, ry: 3.2, class: "a" }),
    p("M10.5 17.5 C10.5 8 14 5 20 5 C26 5 29.5 8 29.5 17.5 Z", "a"),
    r(10.5, 12.5, 19, 3, "c"),
    svg("ellipse", { cx: 15, cy: 23, rx: 3.2, ry: 1.9, class: "w" }),
    svg("ellipse", { cx: 25, cy: 23, rx: 3.2, ry: 1.9, class: "w" }),
    c(16.8, 23, 1.2, "d"), c(26.8, 23, 1.2, "d"),
  ],
  // A ledger under a magnifying glass.
  audit: () => [
    r(5, 4, 21, 29, "w", 2),
    p("M9 10h13M9 14h13M9 18h9M9 22h11M9 26h7", "thin"),
    p("M7.5 10l.8.8 1.4-1.6M7.5 14l.8.8 1.4-1.6", "thin"),
    c(25.5, 23.5, 7.5, "b"),
    c(25.5, 23.5, 7.5, "ln"),
    p("M31 29 L37 35", "ln heavy"),
  ],
  // A snowflake under a fringe of icicles.
  freeze: () => [
    p("M1 1 H39 V3.5 L36.5 8 L34 3.5 L31 6.5 L28 3.5 L25 9 L22 3.5 L19 6.5 L16 3.5 L13 8.5 L10 3.5 L7 6.5 L4 3.5 L1 3.5 Z", "a"),
    ...[0, 60, 120, 180, 240, 300].map((turn) => g(`rotate(${turn} 20 23)`,
      p("M20 23 V10.5 M20 14.5 l-3.4 -3.4 M20 14.5 l3.4 -3.4 M20 18.5 l-2.4 -2.4 M20 18.5 l2.4 -2.4", "ln"))),
    c(20, 23, 2.2, "w"),
  ],
  // A balance at rest: nothing moves.
  nochange: () => [
    p("M20 9 V33", "ln"), p("M12 34 H28", "ln heavy"), p("M6 13 H34", "ln"), c(20, 8.5, 2.2, "a"),
    p("M9 13 L4.5 23 M9 13 L13.5 23 M31 13 L26.5 23 M31 13 L35.5 23", "thin"),
    p("M3.5 23 Q9 29 14.5 23 Z", "a"), p("M25.5 23 Q31 29 36.5 23 Z", "a"),
  ],
  // Bars that grow, an arrow that climbs, and a card for each player.
  upturn: () => [
    r(4, 27, 5, 8, "b"), r(11, 22, 5, 13, "b"), r(18, 16, 5, 19, "b"), r(25, 10, 5, 25, "b"),
    p("M3 21 L12 13 L17 17 L30 5", "ln"), p("M23.5 4.5 H30.5 V11.5", "ln"),
    g("rotate(12 35 27)", r(32, 21, 6.5, 9, "w", 1), r(33.2, 22.4, 4.1, 1.3, "c")),
  ],
  // Bars that shrink, an arrow that falls, and a card each player lets go.
  downturn: () => [
    r(4, 10, 5, 25, "b"), r(11, 16, 5, 19, "b"), r(18, 22, 5, 13, "b"), r(25, 27, 5, 8, "b"),
    p("M3 6 L12 14 L17 10 L30 23", "ln"), p("M23.5 23.5 H30.5 V16.5", "ln"),
    g("rotate(-18 34 8)", r(31, 3, 6.5, 9, "w", 1), r(32.2, 4.4, 4.1, 1.3, "c")),
  ],
  // An option token with a plus.
  gained: () => [
    c(17, 23, 12, "d"), c(16, 22, 12, "a"), c(16, 22, 8.5, "thin"), c(13, 18.5, 2.5, "w"),
    c(30.5, 10, 7.5, "c"), p("M30.5 6 V14 M26.5 10 H34.5", "ln light"),
  ],
  // An option token slipping away, with a minus.
  lost: () => [
    p("M2 16 h5 M1 21 h6 M3 26 h4", "thin"),
    c(18, 24, 12, "d"), c(17, 23, 12, "a"), c(17, 23, 8.5, "thin"),
    c(30.5, 10, 7.5, "c"), p("M26.5 10 H34.5", "ln light"),
  ],
  // The whole market's skyline, struck.
  marketcrash: () => [
    r(2, 19, 6, 19, "b"), r(9, 12, 7, 26, "b"), r(17, 21, 5, 17, "b"), r(23, 9, 7, 29, "b"), r(31, 16, 7, 22, "b"),
    p("M11 16h3M11 20h3M25 13h3M25 17h3M33 20h3M4 23h2", "thin"),
    p("M16 2 L25 14 L21 15.5 L29 25 L25.5 26 L33 38 L17 28.5 L21 27 L12 18 L16 16.5 L9 5 Z", "c"),
    p("M2 38 H38", "ln"),
  ],
  // The closing bell, ringing.
  closed: () => [
    p("M20 4 a2.3 2.3 0 0 1 2.3 2.3 v.9 A9.5 9.5 0 0 1 29.5 16.6 V24 l3.4 4.2 v1.6 H7.1 v-1.6 l3.4 -4.2 V16.6 A9.5 9.5 0 0 1 17.7 7.2 v-.9 A2.3 2.3 0 0 1 20 4z", "a"),
    p("M14 14.5 a6.5 6.5 0 0 1 4 -4", "thin light"),
    c(20, 33, 3, "a"),
    p("M5.5 9 q-3 5 0 10 M34.5 9 q3 5 0 10 M2 6 q-2.5 8 0 16 M38 6 q2.5 8 0 16", "ln"),
  ],
};

/** The scene of an event's group (cards.js's ``eventGroup``), as an SVG. */
export function eventArt(group) {
  return svg("svg", { class: `emblem ev-scene scene-${group}`, viewBox: "0 0 40 40", "aria-hidden": "true", focusable: "false" },
    SCENES[group]());
}
