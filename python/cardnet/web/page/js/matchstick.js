// Matchstick Tycoon: the order, every seat's cards and matchsticks, the trick as seven-segment cards (turned
// cards marked "~", added matchsticks drawn as sticks, as the terminal client shows them), the hand, and the
// legal plays of the selected cards (cardnet.ui.render.matchstick and its full-screen Screen).

import { el } from "./dom.js";
import { cardLabel, drawCard, minCost, shape } from "./segments.js";
import { MATCHSTICK as W, MATCHSTICK_EVENTS as EV, UI, agree, count, ordinal, say } from "./words.js";

function handTypes(priv) {
  const types = new Map();
  for (const card of (priv && priv.hand) || []) types.set(card.id, card.card);
  return types;
}

/** A multiset of printed types as a comparable key. */
function typeKey(types) {
  return [...types].sort().join(",");
}

/** The table's top play, each card as it lies. */
function trick(ctx) {
  const { pub } = ctx;
  const top = pub.table;
  const parts = [];
  if (top) {
    const sticks = top.cost ? say(W.trickSticks, { n: count(top.cost, "matchstick") }) : "";
    const text = agree(W.trickPlay, ctx.name(top.seat), { count: top.count, value: top.value }) + sticks;
    parts.push(el("h3", {}, `${W.trick}: `, el("span", { text })));
    const row = el("div", { class: "cards trick-cards" });
    for (const card of top.cards) {
      const caption = (card.rotated ? "~" : "") + cardLabel(card.card);
      const title = `${card.rotated ? `${W.turned} ` : ""}${cardLabel(card.card)} → ${top.value}`;
      row.append(
        el("span", { class: "mcard" }, drawCard(card.lit, card.added, { title }), el("span", { class: "card-caption", text: caption })),
      );
    }
    parts.push(row);
    if (top.cards.some((card) => card.rotated || card.added)) parts.push(el("p", { class: "dim legend", text: W.legend }));
  } else {
    const leader = pub.turn;
    const text = Number.isInteger(leader) && !pub.over ? agree(W.trickEmpty, ctx.name(leader)) : W.trickEmptyNobody;
    parts.push(el("h3", {}, `${W.trick}: `, el("span", { class: "dim", text })));
  }
  return el("div", { class: "trick" }, parts);
}

/** The order, the seats with their counts, the trick. */
export function board(ctx) {
  const { pub } = ctx;
  const order = pub.revolution
    ? el("p", { class: "order" }, el("span", { class: "revolution", text: W.revolution }), ` ${W.revolutionOrder}`)
    : el("p", { class: "order dim", text: W.normalOrder });
  order.append(el("span", { class: "dim pile", text: ` · ${say(W.pile, { n: pub.pile_size || 0 })}` }));
  const passed = new Set(pub.passed || []);
  const list = el("ul", { class: "players" });
  for (const player of pub.players) {
    const seat = player.seat;
    const turn = seat === pub.turn && !pub.over;
    let status;
    if (player.out) status = player.finish ? say(W.outPlace, { place: ordinal(player.finish) }) : W.out;
    else {
      status = say(W.seatCounts, { cards: count(player.hand_size, "card"), sticks: count(player.matchsticks, "matchstick") });
      if (passed.has(seat)) status += `, ${W.passed}`;
    }
    const classes = [turn ? "turn" : "", seat === ctx.me ? "me" : "", player.out ? "out" : ""].join(" ").trim();
    list.append(
      el("li", { class: classes }, el("span", { class: "who", text: `${ctx.name(seat)}${ctx.marker(seat)}` }), el("span", { class: "counts", text: status })),
    );
  }
  return el("div", { class: "board matchstick" }, order, list, trick(ctx));
}

/** Card types some legal play of the open decision uses. */
function playableTypes(ctx) {
  const types = handTypes(ctx.priv);
  const usable = new Set();
  for (const move of (ctx.decision && ctx.decision.legal) || []) {
    if (move.type === "play") for (const id of move.cards) usable.add(types.get(id));
  }
  return usable;
}

function maxSelection(ctx) {
  const top = ctx.pub.table;
  return top ? top.count : 5;
}

/** The hand as tappable seven-segment cards, each labelled with the value it shows (6/9: 6 upright, 9 turned). */
export function hand(ctx) {
  const { pub, priv, decision } = ctx;
  if (!priv || ctx.me === null) return null;
  const cards = priv.hand || [];
  const mine = pub.players[ctx.me].matchsticks;
  const usable = playableTypes(ctx);
  const row = el("div", { class: "cards hand" });
  for (const card of cards) {
    const selected = ctx.selected.has(card.id);
    const canPlay = Boolean(decision) && usable.has(card.card);
    const classes = ["card-button"];
    if (selected) classes.push("selected");
    if (decision && !canPlay) classes.push("unplayable");
    row.append(
      el(
        "button",
        {
          type: "button",
          class: classes.join(" "),
          "aria-pressed": selected ? "true" : "false",
          disabled: !canPlay,
          dataset: { card: String(card.id) },
          onclick: () => ctx.toggle(card.id, maxSelection(ctx)),
        },
        el(
          "span",
          { class: "mcard" },
          drawCard(shape(card.card), "", { title: cardLabel(card.card) }),
          el("span", { class: "card-caption", text: cardLabel(card.card) }),
        ),
      ),
    );
  }
  const heading = say(W.yourHand, { cards: count(cards.length, "card"), sticks: count(mine, "matchstick") });
  return el("div", { class: "hand-area" }, el("h3", { text: heading }), row);
}

function playNote(types, move) {
  let sticks = 0;
  const parts = move.cards.map((id) => {
    const card = types.get(id) || "?";
    sticks += minCost(card, move.value) || 0;
    const label = cardLabel(card);
    return card === move.value ? label : `${label}→${move.value}`;
  });
  const note = parts.join(" ");
  return sticks ? `${note}, ${say(W.noteSticks, { n: count(sticks, "matchstick") })}` : note;
}

/** The legal plays of the selected cards (same printed types, any value), then pass or the forced discard. */
export function offers(ctx) {
  const { decision } = ctx;
  if (!decision) return { hint: "", offers: [] };
  const types = handTypes(ctx.priv);
  const wanted = typeKey([...ctx.selected].map((id) => types.get(id)));
  const found = [];
  decision.legal.forEach((move, index) => {
    if (move.type === "play" && ctx.selected.size && typeKey(move.cards.map((id) => types.get(id))) === wanted) {
      found.push({ label: say(W.offerPlay, { value: move.value }), note: playNote(types, move), index });
    }
  });
  decision.legal.forEach((move, index) => {
    if (move.type === "pass") found.push({ label: W.offerPass, note: "", index, kind: "pass" });
    if (move.type === "discard_matchstick") found.push({ label: W.offerDiscard, note: "", index, kind: "pass" });
  });
  const plays = found.filter((offer) => !offer.kind).length;
  const canPlay = decision.legal.some((move) => move.type === "play");
  let hint = "";
  if (!plays && canPlay) hint = ctx.selected.size ? UI.noLegal : W.chooseCards;
  return { hint, offers: found };
}

/** One line of the event log (null: nothing to say). */
export function eventText(ctx, event) {
  const who = ctx.name(event.seat);
  switch (event.type) {
    case "play": {
      const sticks = event.cost ? say(EV.sticks, { n: count(event.cost, "matchstick") }) : "";
      const cards = (event.cards || []).map((card) => cardLabel(card.card)).join(", ");
      return agree(EV.play, who, { count: event.count, value: event.value, sticks, cards });
    }
    case "pass":
      return agree(EV.pass, who, { n: event.matchsticks });
    case "discard_matchstick":
      return agree(EV.discard_matchstick, who, { n: event.matchsticks });
    case "revolution":
      return event.revolution ? EV.revolution_on : EV.revolution_off;
    case "went_out":
      return agree(EV.went_out, who, { place: ordinal(event.position) });
    case "trick_cleared":
      return Number.isInteger(event.leader) ? agree(EV.trick_leader, ctx.name(event.leader)) : EV.trick_cleared;
    default:
      return null;
  }
}

/** The final ranking, first out first. */
export function outcomeLines(ctx, outcome) {
  return outcome.order.map((seat, i) => {
    const line = say(W.outcomeLine, { place: ordinal(i + 1), who: ctx.name(seat) });
    return outcome.winners.includes(seat) ? `${line} – ${W.winner}` : line;
  });
}
