// The game's whole rules on the start page: the host serves the Markdown of `cardnet rules` parsed into a tree of
// elements (/rules/<game>.json, cardnet.web.rules); this builds it element by element, text as text nodes, and
// only the tags below (anything else keeps its text and loses its tag).

import { byId, el, setChildren } from "./dom.js";
import { GAMES, UI, currentLanguage, say } from "./words.js";

const TAGS = new Set([
  "h1", "h2", "h3", "h4", "h5", "h6", "p", "ul", "ol", "li", "blockquote", "pre", "hr",
  "table", "thead", "tbody", "tr", "th", "td", "strong", "em", "code", "a", "br", "s",
]);
// The rules' own title is the page's: headings move down one level under the start page's heading.
const DEMOTE = { h1: "h3", h2: "h4", h3: "h5", h4: "h6", h5: "h6", h6: "h6" };

function build(node) {
  if (typeof node === "string") return node;
  if (!node || typeof node !== "object" || !Array.isArray(node.children)) return null;
  const children = node.children.map(build);
  if (!TAGS.has(node.tag)) return children;
  const props = {};
  if (node.tag === "a") {
    if (typeof node.href !== "string" || !/^https?:\/\//.test(node.href)) return children;
    Object.assign(props, { href: node.href, rel: "noopener noreferrer", target: "_blank" });
  }
  if (node.tag === "ol" && Number.isInteger(node.start)) props.start = node.start;
  return el(DEMOTE[node.tag] || node.tag, props, children);
}

/** The rules of `game` in `lang` as elements, or null when the host has none for it (or could not be reached). */
export async function loadRules(game, lang = "en") {
  const folder = lang === "en" ? "rules" : `rules/${encodeURIComponent(lang)}`;
  try {
    const response = await fetch(`${folder}/${encodeURIComponent(game)}.json`);
    if (!response.ok) return null;
    const document = await response.json();
    if (!document || !Array.isArray(document.rules)) return null;
    return document.rules.map(build);
  } catch {
    return null;
  }
}

let shown = null;

/** Fill the rules box under the start page (and the table) with the rules of `game` in the page's language, once
 * per game and language. */
export async function showRules(game) {
  const wanted = `${currentLanguage()}/${game}`;
  if (shown === wanted) return;
  shown = wanted;
  const nodes = await loadRules(game, currentLanguage());
  if (shown !== wanted) return;
  const box = byId("rules-box");
  box.hidden = !nodes;
  if (!nodes) return;
  byId("rules-title").textContent = say(UI.rulesTitle, { game: GAMES[game] || game });
  setChildren(byId("rules"), nodes);
}
