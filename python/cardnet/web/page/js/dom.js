// Building elements safely: text from peers (names, chat) only ever becomes a text node. Nothing in the page
// parses HTML from strings.

const SVG_NS = "http://www.w3.org/2000/svg";

function fill(node, props, children) {
  for (const [key, value] of Object.entries(props || {})) {
    if (value === undefined || value === null || value === false) continue;
    if (key === "class") node.setAttribute("class", value);
    else if (key === "text") node.textContent = String(value);
    else if (key.startsWith("on")) node.addEventListener(key.slice(2), value);
    else if (key === "dataset") Object.assign(node.dataset, value);
    else node.setAttribute(key, value === true ? "" : String(value));
  }
  for (const child of children.flat(Infinity)) {
    if (child === null || child === undefined || child === false) continue;
    node.append(child instanceof Node ? child : document.createTextNode(String(child)));
  }
  return node;
}

/** An HTML element: `el("button", {class: "offer", onclick: f}, "Play 7")`. */
export function el(tag, props = {}, ...children) {
  return fill(document.createElement(tag), props, children);
}

/** An SVG element with attributes. */
export function svgEl(tag, props = {}, ...children) {
  return fill(document.createElementNS(SVG_NS, tag), props, children);
}

/** The element with this id (the page's skeleton is in index.html). */
export function byId(id) {
  return document.getElementById(id);
}

/** Replace a node's children. */
export function setChildren(node, ...children) {
  node.replaceChildren();
  fill(node, {}, children);
}

/** The focused control inside `root` as a selector that finds its successor after a redraw (its id, else its
 * nearest area with an id, its tag, first class and data attributes), or null when the focus is elsewhere. */
export function focusedPlace(root) {
  const node = document.activeElement;
  if (!node || node === document.body || !root.contains(node)) return null;
  if (node.id) return { node, selector: `#${CSS.escape(node.id)}` };
  const area = node.parentElement && node.parentElement.closest("[id]");
  if (!area) return null;
  const kind = node.classList.length ? `.${CSS.escape(node.classList[0])}` : "";
  const data = Object.keys(node.dataset)
    .map((key) => `[data-${key.replace(/[A-Z]/g, (c) => `-${c.toLowerCase()}`)}="${CSS.escape(node.dataset[key])}"]`)
    .join("");
  return { node, selector: `#${CSS.escape(area.id)} ${node.localName}${kind}${data}` };
}

/** After a redraw: a keyboard player whose control was replaced (a card chosen, a move offered again) keeps their
 * place on its successor instead of being thrown back to the top of the page. */
export function refocus(place) {
  if (!place || place.node.isConnected) return;
  const again = document.querySelector(place.selector);
  if (again && !again.disabled) again.focus();
}
