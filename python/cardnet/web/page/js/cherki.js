// Cherki: the deal, every seat's cards, calls and scores, the discard pile with the top discard, the hand grouped
// by kind, the progress towards a call, and the moves the open decision allows, worded as the terminal client
// words them (cardnet.ui.render.cherki and its full-screen Screen). Only the host's legal moves are offered.

import { el } from "./dom.js";
import { CHERKI as W, CHERKI_EVENTS as EV, agree, count, say } from "./words.js";

const HONOURS = ["white-flower", "red-flower", "old-thousand"];
// The faces printed with the red stamp: the 9 of Strings, Red Flower and Old Thousand (display only).
const RED_STAMP = new Set([17, 28, 29]);
const SUITS = ["coins", "strings", "myriads"];
// Discards drawn on the table; older ones are only counted.
const DISCARDS_SHOWN = 6;

/** A card's kind as the core writes it: "1"-"9" or the honour's name. */
export function cardKind(card) {
  const face = Math.floor(card / 4);
  return face >= 27 ? HONOURS[face - 27] : String((face % 9) + 1);
}

function suitOf(card) {
  const face = Math.floor(card / 4);
  return face >= 27 ? "honour" : SUITS[Math.floor(face / 9)];
}

function stamped(card) {
  return RED_STAMP.has(Math.floor(card / 4));
}

/** A kind for people: "8", "Red Flower". */
function kindName(kind) {
  return W.kinds[kind] || kind;
}

/** A card's face in words: "3 Coins", "9 Strings*", "Red Flower*" (* = the red stamp). */
export function cardName(card) {
  const kind = cardKind(card);
  const suit = suitOf(card);
  const name = suit === "honour" ? kindName(kind) : say(W.numberCard, { rank: kind, suit: W.suits[suit] });
  return name + (stamped(card) ? W.stamp : "");
}

/** The short face on a chip: "3C", "9S*", "WF", "RF*"; the letter says the suit, not only the colour. */
function shortFace(card) {
  const kind = cardKind(card);
  const suit = suitOf(card);
  const face = suit === "honour" ? W.honourShort[kind] : kind + W.suitShort[suit];
  return face + (stamped(card) ? W.stamp : "");
}

/** A card as a chip in its suit's colour (red for the stamp). */
function chip(card, small = false) {
  const classes = ["ccard", `suit-${suitOf(card)}`, stamped(card) ? "stamp" : "", small ? "small" : ""];
  return el(
    "span",
    { class: classes.join(" ").trim(), title: cardName(card) },
    el("span", { class: "ccard-face", text: shortFace(card), "aria-hidden": "true" }),
    el("span", { class: "sr-only", text: cardName(card) }),
  );
}

function kindOrder(a, b) {
  const da = /^\d$/.test(a);
  const db = /^\d$/.test(b);
  if (da !== db) return da ? -1 : 1;
  return da ? Number(a) - Number(b) : HONOURS.indexOf(a) - HONOURS.indexOf(b);
}

/** Cards grouped by kind, numbers first then honours: [[kind, [cards]]]. */
function grouped(cards) {
  const groups = new Map();
  for (const card of [...cards].sort((a, b) => a - b)) {
    const kind = cardKind(card);
    if (!groups.has(kind)) groups.set(kind, []);
    groups.get(kind).push(card);
  }
  return [...groups.entries()].sort(([a], [b]) => kindOrder(a, b));
}

/** The pair kind when 8 cards make two triples and a pair, else null. */
function pairKindOf(cards) {
  if (cards.length !== 8) return null;
  const counts = new Map();
  for (const card of cards) counts.set(cardKind(card), (counts.get(cardKind(card)) || 0) + 1);
  const pairs = [...counts].filter(([, n]) => n % 3 === 2).map(([kind]) => kind);
  const restOk = [...counts].every(([kind, n]) => pairs.includes(kind) || n % 3 === 0);
  return pairs.length === 1 && restOk ? pairs[0] : null;
}

function points(n) {
  return n > 0 ? `+${n}` : String(n);
}

function dealSummary(ctx, deal) {
  if (deal.result !== "win") return say(W.dealDrawn, { deal: deal.deal });
  const how = deal.by === "take_discard" ? W.byTake : W.byDraw;
  return agree(W.dealWon, ctx.name(deal.winner), { deal: deal.deal, how, total: deal.total, gain: points(deal.payments[deal.winner]) });
}

function topDiscardLine(ctx) {
  const { pub, priv } = ctx;
  const top = pub.top_discard;
  if (!top) return pub.phase === "over" ? null : el("p", { class: "top-discard dim", text: W.noTop });
  let can = "";
  if (pub.phase === "start") {
    if (!top.takeable) can = W.cannotTake;
    else if (priv && !priv.can_take && pub.turn === ctx.me) can = W.youMayNotTake;
    else can = W.mayTake;
  }
  return el("p", { class: "top-discard" }, `${W.topDiscard} `, chip(top.card), ` ${say(W.from, { who: ctx.name(top.seat) })}`, can ? ` – ${can}` : "");
}

function discardPile(ctx) {
  const discards = ctx.pub.discards || [];
  if (!discards.length) return null;
  const shown = discards.slice(-DISCARDS_SHOWN);
  const older = discards.length - shown.length;
  const row = el("ul", { class: "discards" });
  for (const d of shown) {
    const by = Number.isInteger(d.taken_by) ? agree(W.takenBy, ctx.name(d.taken_by), { who: ctx.name(d.seat), taker: ctx.name(d.taken_by) }) : ctx.name(d.seat);
    row.append(el("li", { class: Number.isInteger(d.taken_by) ? "taken" : "" }, chip(d.card, true), el("span", { class: "dim", text: by })));
  }
  const heading = older > 0 ? say(W.discardsOlder, { n: older }) : W.discards;
  return el("div", { class: "discard-pile" }, el("h3", { text: heading }), row);
}

/** The deal, the seats with their cards, calls and scores, the discards and the top discard. */
export function board(ctx) {
  const { pub } = ctx;
  const rows = [
    el("h2", { class: "board-heading", text: say(W.heading, { deal: pub.deal, deals: pub.deals, dealer: ctx.name(pub.dealer) }) }),
    el("p", { class: "dim", text: say(W.stock, { n: count(pub.stock, "card") }) }),
  ];
  const list = el("ul", { class: "players" });
  pub.players.forEach((player, seat) => {
    const turn = pub.turn === seat;
    let status = count(player.hand_size, "card");
    if (player.called) status += `, ${W.called}`;
    status += `, ${say(W.score, { n: points(pub.scores[seat]) })}`;
    const classes = [turn ? "turn" : "", seat === ctx.me ? "me" : "", player.called ? "called" : ""].join(" ").trim();
    list.append(el("li", { class: classes }, el("span", { class: "who", text: `${ctx.name(seat)}${ctx.marker(seat)}` }), el("span", { class: "counts", text: status })));
  });
  rows.push(list);
  if (pub.last_deal) rows.push(el("p", { class: "dim", text: `${W.lastDeal} ${dealSummary(ctx, pub.last_deal)}` }));
  rows.push(topDiscardLine(ctx));
  rows.push(discardPile(ctx));
  return el("div", { class: "board cherki" }, rows);
}

/** The cards some legal discard of the open decision names. */
function discardable(decision) {
  const cards = new Set();
  for (const move of (decision && decision.legal) || []) if (move.type === "discard") cards.add(move.card);
  return cards;
}

/** Triples and pairs the hand holds towards a call, as the full-screen client counts them. */
function progressLine(hand) {
  const counts = new Map();
  for (const card of hand) counts.set(cardKind(card), (counts.get(cardKind(card)) || 0) + 1);
  const kinds = [...counts.keys()].sort(kindOrder);
  const triples = kinds.flatMap((kind) => Array(Math.floor(counts.get(kind) / 3)).fill(kind));
  const pairs = kinds.filter((kind) => counts.get(kind) % 3 === 2);
  const list = (kinds) => (kinds.length ? ` (${kinds.map(kindName).join(", ")})` : "");
  return el(
    "p",
    { class: "progress" },
    el("strong", { text: W.towards }),
    " ",
    el("span", { class: triples.length >= 2 ? "met" : "", text: say(W.triples, { n: triples.length }) }),
    list(triples),
    ", ",
    el("span", { class: pairs.length ? "met" : "", text: say(W.pairs, { n: pairs.length }) }),
    list(pairs),
  );
}

/** Whether the hand can call, and how: the line under the progress. */
function readyLine(ctx) {
  const { pub, priv, decision } = ctx;
  if (priv.pair_kind !== null && priv.pair_kind !== undefined) return say(W.locked, { kind: kindName(priv.pair_kind) });
  if (priv.ready) return say(W.ready, { kind: kindName(priv.ready_pair_kind) }) + (pub.phase === "start" ? W.mayCallNow : "");
  if (pub.phase === "drawn" && pub.turn === ctx.me && decision) {
    const calls = decision.legal.filter((move) => move.type === "discard" && move.call).map((move) => cardName(move.card));
    return calls.length ? say(W.readyAfter, { cards: calls.join(", ") }) : W.notReadyDrawn;
  }
  return W.notReady;
}

/** The hand grouped by kind as tappable cards, the card just drawn marked, the progress towards a call. */
export function hand(ctx) {
  const { priv, decision } = ctx;
  if (!priv || ctx.me === null) return null;
  const cards = priv.hand || [];
  const usable = discardable(decision);
  const groups = el("div", { class: "kind-groups" });
  for (const [kind, members] of grouped(cards)) {
    // The label runs up the group's side, so an honour goes by its face's letters (as on its chip); the whole
    // name is what a screen reader says and a pointer shows.
    const label = say(W.kindCount, { kind: W.honourShort[kind] || kindName(kind), n: members.length });
    const spoken = say(W.kindCount, { kind: kindName(kind), n: members.length });
    const row = el("div", { class: "cards hand kind-group" }, el("span", { class: "kind-label", text: label, title: spoken, "aria-label": spoken }));
    for (const card of members) {
      const selected = ctx.selected.has(card);
      const canDiscard = usable.has(card);
      const classes = ["card-button", selected ? "selected" : "", decision && usable.size && !canDiscard ? "unplayable" : ""];
      const button = el(
        "button",
        {
          type: "button",
          class: classes.join(" ").trim(),
          "aria-pressed": selected ? "true" : "false",
          disabled: !canDiscard,
          dataset: { card: String(card) },
          onclick: () => ctx.toggle(card, 1),
        },
        chip(card),
      );
      if (card === priv.drawn) button.append(el("span", { class: "card-mark", text: W.drawn }));
      row.append(button);
    }
    groups.append(row);
  }
  const parts = [el("h3", { text: say(W.yourHand, { cards: count(cards.length, "card") }) }), groups];
  if (priv.pair_kind === null || priv.pair_kind === undefined) parts.push(progressLine(cards));
  parts.push(el("p", { class: "dim ready-line", text: readyLine(ctx) }));
  return el("div", { class: "hand-area" }, parts);
}

function takeNote(ctx) {
  const { pub, priv } = ctx;
  const top = pub.top_discard;
  if (!top) return "";
  const note = say(W.from, { who: ctx.name(top.seat) });
  const locked = priv && priv.pair_kind;
  return locked && cardKind(top.card) === locked ? `${note}${W.wins}` : note;
}

/** The legal moves: draw, take and call at once; a discard (with or without the call) for the card tapped. */
export function offers(ctx) {
  const { pub, priv, decision } = ctx;
  if (!decision) return { hint: "", offers: [] };
  const discards = decision.legal.filter((move) => move.type === "discard");
  // A locked hand has one discard, the card just drawn: offered without a tap.
  const chosen = discards.length === 1 ? discards[0].card : [...ctx.selected][0];
  const found = [];
  const hand = (priv && priv.hand) || [];
  decision.legal.forEach((move, index) => {
    if (move.type === "draw_stock") found.push({ label: W.offerDraw, note: say(W.stockLeft, { n: pub.stock }), index });
    else if (move.type === "take_discard" && pub.top_discard) {
      found.push({ label: say(W.offerTake, { card: cardName(pub.top_discard.card) }), note: takeNote(ctx), index });
    } else if (move.type === "call") {
      const ready = priv && priv.ready_pair_kind;
      found.push({ label: W.offerCall, note: ready ? say(W.callNote, { kind: kindName(ready) }) : "", index });
    }
  });
  decision.legal.forEach((move, index) => {
    if (move.type !== "discard" || move.card !== chosen) return;
    const drawn = move.card === (priv && priv.drawn) ? W.justDrawn : "";
    if (!move.call) {
      found.push({ label: say(W.offerDiscard, { card: cardName(move.card) }), note: drawn, index });
      return;
    }
    const after = pairKindOf(hand.filter((card) => card !== move.card));
    found.push({ label: say(W.offerDiscardCall, { card: cardName(move.card) }), note: after ? say(W.callNote, { kind: kindName(after) }) : "", index });
  });
  const hint = discards.length && chosen === undefined ? W.chooseDiscard : "";
  return { hint, offers: found };
}

function settlement(ctx, event) {
  const pays = event.payments.map((amount, seat) =>
    seat === event.winner ? agree(EV.gets, ctx.name(seat), { n: amount }) : agree(EV.pays, ctx.name(seat), { n: -amount }),
  );
  const cards = grouped(event.hand).map(([kind, members]) => `${kindName(kind)}: ${members.map(cardName).join(", ")}`);
  return agree(EV.win, ctx.name(event.winner), {
    deal: event.deal,
    how: event.by === "take_discard" ? W.byTake : W.byDraw,
    pair: kindName(String(event.pair_kind)),
    cards: cards.join("; "),
    total: event.total,
    pays: pays.join(", "),
  });
}

/** One line of the event log (null: nothing to say). */
export function eventText(ctx, event) {
  const who = ctx.name(event.seat);
  switch (event.type) {
    case "draw_stock":
      return Number.isInteger(event.card)
        ? agree(EV.draw_card, who, { card: cardName(event.card), n: event.stock })
        : agree(EV.draw_hidden, who, { n: event.stock });
    case "take_discard":
      return agree(EV.take_discard, who, { card: cardName(event.card), from: ctx.name(event.from) });
    case "discard":
      return agree(EV.discard, who, { card: cardName(event.card) });
    case "call":
      return agree(EV.call, who);
    case "win":
      return settlement(ctx, event);
    case "deal_drawn":
      return say(EV.deal_drawn, { deal: event.deal });
    case "new_deal":
      return say(EV.new_deal, { deal: event.deal, dealer: ctx.name(event.dealer) });
    default:
      return null;
  }
}

/** The final scores, best first, then how each deal ended. */
export function outcomeLines(ctx, outcome) {
  const lines = outcome.order.map((seat, i) => {
    const line = say(W.outcomeLine, { place: i + 1, who: ctx.name(seat), points: points(outcome.scores[seat]) });
    return outcome.winners.includes(seat) ? `${line} – ${W.winner}` : line;
  });
  if (outcome.kind === "draw") lines.push(W.drawGame);
  for (const deal of (outcome.detail && outcome.detail.deals) || []) lines.push(dealSummary(ctx, deal));
  return lines;
}
