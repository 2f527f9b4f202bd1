// Seven-segment cards as SVG, from segments.json (written from the rules core by scripts/web_segments.py): the
// page has no segment table of its own.
import { svgEl } from "./dom.js";

// Until the file has loaded, cards draw blank and values read as themselves; the page redraws once it has.
let data = { cards: {}, glyphs: {} };

/** Load the segment data once (the page connects to the host meanwhile). */
export async function loadSegments(url = "segments.json") {
  const response = await fetch(url);
  if (!response.ok) throw new Error(`segments.json: HTTP ${response.status}`);
  data = await response.json();
}

/** The segments printed on a card type, upright or turned 180°. */
export function shape(card, turned = false) {
  const info = data.cards[card];
  return info ? (turned ? info.turned : info.shape) : "";
}

/** What a printed card reads: its upright value, then its turned one where that differs ("6/9"). */
export function cardLabel(card) {
  const info = data.cards[card];
  return info ? info.label : card;
}

/** The segments a value lights. */
export function glyph(value) {
  return data.glyphs[value] || "";
}

/** The fewest matchsticks a card type needs to show `value` (either way up), or null. */
export function minCost(card, value) {
  const info = data.cards[card];
  if (!info) return null;
  const costs = info.ways.filter((way) => way[0] === value).map((way) => way[2]);
  return costs.length ? Math.min(...costs) : null;
}

// Each segment as a line in a 40 x 64 card: a top, b upper right, c lower right, d bottom, e lower left,
// f upper left, g middle.
const GEOMETRY = {
  a: [11, 9, 29, 9],
  b: [31, 11, 31, 29],
  c: [31, 35, 31, 53],
  d: [11, 55, 29, 55],
  e: [9, 35, 9, 53],
  f: [9, 11, 9, 29],
  g: [11, 32, 29, 32],
};

/**
 * A card drawn as an SVG: `lit` segments printed, `added` ones as matchsticks (a stick with a head), the rest
 * faint. `extra` is a class for the frame (a deck colour); `title` is read out by screen readers.
 */
export function drawCard(lit, added = "", { extra = "", title = "" } = {}) {
  const parts = [svgEl("rect", { class: "card-frame", x: 1, y: 1, width: 38, height: 62, rx: 5 })];
  for (const [name, [x1, y1, x2, y2]] of Object.entries(GEOMETRY)) {
    const kind = added.includes(name) ? "added" : lit.includes(name) ? "lit" : "blank";
    parts.push(svgEl("line", { class: `seg seg-${kind}`, x1, y1, x2, y2 }));
    if (kind === "added") parts.push(svgEl("circle", { class: "seg-head", cx: x1, cy: y1, r: 2.6 }));
  }
  const svg = svgEl("svg", { class: `card-svg ${extra}`.trim(), viewBox: "0 0 40 64", role: "img" }, parts);
  if (title) svg.prepend(svgEl("title", { text: title }));
  return svg;
}
