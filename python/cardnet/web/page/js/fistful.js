// A Fistful of Gold: the duel, the scores, both rows of played cards in their owners' colours, the hand, and
// the moves the open decision allows, worded as the terminal client words them (cardnet.ui.render.fistful).

import { el } from "./dom.js";
import { drawCard, glyph } from "./segments.js";
import { FISTFUL as W, FISTFUL_EVENTS as EV, FISTFUL_STEPS as STEPS, agree, count, say } from "./words.js";

const DYNAMITE = 9;

function colourOf(pub, seat) {
  return (pub.colours || [])[seat] || "";
}

function colourWord(pub, seat) {
  const colour = colourOf(pub, seat);
  return colour === "pink" ? W.pink : colour === "green" ? W.green : "";
}

function face(card) {
  return card === DYNAMITE ? W.dynamiteShort : String(card);
}

/** A seat's card by name: "Pink 7", "Green Dynamite". */
function cardName(pub, seat, card) {
  const faceWord = card === DYNAMITE ? W.dynamite : String(card);
  return `${colourWord(pub, seat)} ${faceWord}`.trim();
}

/** A card face as a seven-segment digit in its owner's colour (the Dynamite shows "d" and reads "D"). */
function cardFace(pub, seat, card, small = false) {
  const lit = glyph(card === DYNAMITE ? "d" : String(card));
  return el(
    "span",
    { class: `fcard ${small ? "small" : ""} deck-${colourOf(pub, seat)}` },
    drawCard(lit, "", { title: cardName(pub, seat, card) }),
    el("span", { class: "card-caption", text: face(card) }),
  );
}

function perspective(ctx) {
  // A spectator sees the duel from seat 0's side, as the terminal client draws it.
  const me = ctx.me === 0 || ctx.me === 1 ? ctx.me : 0;
  return [me, 1 - me];
}

function stepText(ctx, step) {
  const kind = step.step || step.type;
  const who = ctx.name(step.seat);
  if (kind === "tie") return say(STEPS.tie, { pot: step.pot });
  if (kind === "six_takes_pot") return agree(step.gold ? STEPS.six_takes_pot : STEPS.six_takes_empty, who, { gold: step.gold });
  if (kind === "green8_retrieve") return agree(STEPS.green8_retrieve, who, { card: cardName(ctx.pub, step.seat, step.card) });
  if (kind in STEPS) return agree(STEPS[kind], who, { gold: step.gold });
  return String(kind);
}

function special(pub, seat, card) {
  const colour = colourOf(pub, seat);
  if (card === DYNAMITE) return W.specialDynamite;
  if (card === 6) return W.specialSix;
  if (card === 7) return colour === "pink" ? W.specialPink7 : W.specialGreen7;
  if (card === 8) return colour === "pink" ? W.specialPink8 : W.specialGreen8;
  return "";
}

function moveNote(ctx, move) {
  const { pub, priv } = ctx;
  const me = perspective(ctx)[0];
  if (move.type !== "pick") return move.type === "retrieve" && move.card >= 6 ? special(pub, me, move.card) : "";
  const card = move.card;
  const notes = [];
  if (card === 6) notes.push(pub.six_played ? W.noteSixNoPot : say(W.noteSixPot, { pot: pub.pot }));
  else if (card === 7 && colourOf(pub, me) === "pink") notes.push(pub.duel >= 3 ? W.notePink7Now : W.notePink7Later);
  else if (card >= 7) notes.push(special(pub, me, card));
  const hand = (priv && priv.hand) || [];
  if (card < 8 && hand.includes(card + 1) && pub.duel < pub.duels_in_round) {
    notes.push(say(W.noteBars, { next: face(card + 1) }));
  }
  return notes.join("; ");
}

function effects(ctx) {
  const { pub } = ctx;
  const notes = [];
  if (pub.six_played) notes.push(W.sixPlayed);
  if (pub.green7_played_at !== null && pub.green7_played_at !== undefined) {
    const green = (pub.colours || []).indexOf("green");
    notes.push(say(W.green7At, { who: ctx.name(green), duel: pub.green7_played_at }));
  }
  if (pub.retrieved) {
    notes.push(say(W.retrievedNote, { who: ctx.name(pub.retrieved.seat), card: cardName(pub, pub.retrieved.seat, pub.retrieved.card) }));
  }
  return notes;
}

function prompt(pub) {
  switch (pub.phase) {
    case "setup_discard":
      return W.promptSetup;
    case "pick":
      return say(W.promptPick, { duel: pub.duel });
    case "green8_retrieve":
      return W.promptRetrieve;
    case "round_end_discard":
      return W.promptRoundEnd;
    default:
      return "";
  }
}

/** The duel's state: scores, both rows of played cards, the last duel, the effects in play. */
export function board(ctx) {
  const { pub } = ctx;
  const [me, them] = perspective(ctx);
  const length = say(W.length, { length: pub.length === "long" ? W.long : W.short, stars: count(pub.target_stars, "star") });
  const rows = [
    el("h2", { class: "board-heading", text: say(W.heading, { round: pub.round, duel: pub.duel, duels: pub.duels_in_round }) }),
    el("p", { class: "dim", text: length }),
  ];
  const scores = el("table", { class: "scores" });
  scores.append(el("tr", {}, el("td", {}), el("th", { text: W.stars }), el("th", { text: W.gold })));
  for (const seat of [me, them]) {
    const stars = Number(pub.stars[seat]);
    scores.append(
      el(
        "tr",
        { class: ctx.toAct.includes(seat) ? "turn" : "" },
        el("th", { class: `deck-${colourOf(pub, seat)}`, text: ctx.name(seat) }),
        el("td", { class: "stars", text: stars ? "★".repeat(stars) : "–" }),
        el("td", { class: "gold", text: String(pub.gold[seat]) }),
      ),
    );
  }
  scores.append(el("tr", {}, el("th", { text: W.pot }), el("td", {}), el("td", { class: "gold", text: String(pub.pot) })));
  rows.push(scores);
  for (const seat of [them, me]) {
    const played = pub.played[seat];
    const label = `${ctx.name(seat)}${ctx.marker(seat)} (${colourWord(pub, seat)})`;
    const line = el("div", { class: "played-row" }, el("div", { class: `who deck-${colourOf(pub, seat)}`, text: label }));
    const cards = el("div", { class: "cards small" });
    if (played.length) for (const card of played) cards.append(cardFace(pub, seat, card, true));
    else cards.append(el("span", { class: "dim", text: W.noCard }));
    line.append(cards);
    const status = say(W.sizes, { hand: pub.hand_sizes[seat], discards: pub.discard_sizes[seat] });
    line.append(el("div", { class: "dim", text: status }));
    if (pub.phase === "pick" && pub.picked[seat] && seat !== ctx.me) line.append(el("div", { class: "turn-note", text: W.hasPicked }));
    rows.push(line);
  }
  const barred = pub.barred || [null, null];
  if (pub.phase === "pick") {
    for (const seat of [me, them]) {
      if (barred[seat] === null || barred[seat] === undefined) continue;
      const whose = seat === ctx.me ? W.your : say(W.whose, { name: ctx.name(seat) });
      rows.push(el("p", { class: "dim", text: say(W.barredLine, { whose, card: cardName(pub, seat, barred[seat]) }) }));
    }
  }
  const last = pub.last_duel;
  if (last && last.round === pub.round) {
    const a = `${ctx.name(0)} ${cardName(pub, 0, last.cards[0])}`;
    const b = `${ctx.name(1)} ${cardName(pub, 1, last.cards[1])}`;
    const steps = (last.steps || []).map((step) => stepText(ctx, step));
    rows.push(
      el(
        "p",
        { class: "last-duel" },
        el("strong", { text: say(W.lastDuel, { duel: last.duel, a, b }) }),
        `: ${(steps.length ? steps : [W.nothingHappens]).join("; ")}`,
      ),
    );
  }
  for (const note of effects(ctx)) rows.push(el("p", { class: "dim", text: note }));
  return el("div", { class: "board fistful" }, rows);
}

/** The cards the player taps: the hand, or the discard pile after a Green 8. */
function tappable(ctx) {
  const { pub, priv } = ctx;
  if (!priv) return [];
  return pub.phase === "green8_retrieve" ? priv.discard : priv.hand;
}

/** Cards that some legal move of the open decision uses. */
function playable(decision) {
  const cards = new Set();
  for (const move of (decision && decision.legal) || []) {
    for (const card of move.cards || [move.card]) cards.add(card);
  }
  return cards;
}

function discardSize(decision) {
  const first = decision && decision.legal.find((move) => move.type === "discard");
  return first ? first.cards.length : 0;
}

/** The hand as tappable cards, with the discard pile and the pick underneath. */
export function hand(ctx) {
  const { pub, priv, decision } = ctx;
  if (!priv) return null;
  const [me] = perspective(ctx);
  const pile = pub.phase === "green8_retrieve";
  const cards = tappable(ctx);
  const usable = playable(decision);
  const multi = discardSize(decision) > 1;
  const barred = pub.phase === "pick" ? (pub.barred || [])[me] : null;
  const heading = pile ? W.yourPile : say(W.yourHand, { colour: colourWord(pub, me) });
  const row = el("div", { class: "cards hand" });
  for (const card of cards) {
    const selected = ctx.selected.has(card);
    const classes = ["card-button"];
    if (selected) classes.push("selected");
    if (decision && !usable.has(card)) classes.push("unplayable");
    const button = el(
      "button",
      {
        type: "button",
        class: classes.join(" "),
        "aria-pressed": selected ? "true" : "false",
        disabled: !decision || !usable.has(card),
        dataset: { card: String(card) },
        onclick: () => ctx.toggle(card, multi ? discardSize(decision) : 1),
      },
      cardFace(pub, me, card),
    );
    if (card === barred) button.append(el("span", { class: "card-mark", text: W.barred }));
    row.append(button);
  }
  const parts = [el("h3", { text: heading }), row];
  if (!pile && priv.discard.length) {
    parts.push(el("p", { class: "dim", text: say(W.pile, { cards: priv.discard.map(face).join(" ") }) }));
  }
  if (priv.pick !== null && priv.pick !== undefined) {
    parts.push(el("p", { class: "dim", text: say(W.yourPick, { card: cardName(pub, me, priv.pick) }) }));
  }
  const ask = prompt(pub);
  if (ask && decision) parts.push(el("p", { class: "prompt", text: ask }));
  return el("div", { class: "hand-area" }, parts);
}

/** What the player can do with the selection: {hint, offers: [{label, note, index}]}, only legal moves. */
export function offers(ctx) {
  const { pub, decision } = ctx;
  if (!decision) return { hint: "", offers: [] };
  const [me] = perspective(ctx);
  const chosen = [...ctx.selected].sort((a, b) => a - b);
  const found = [];
  decision.legal.forEach((move, index) => {
    if (move.type === "discard" && move.cards.length === chosen.length && move.cards.every((c, i) => c === chosen[i])) {
      const cards = move.cards.map((c) => cardName(pub, me, c)).join(W.and);
      found.push({ label: say(W.offerDiscard, { cards }), note: "", index });
    } else if ((move.type === "pick" || move.type === "retrieve") && chosen.length === 1 && move.card === chosen[0]) {
      const template = move.type === "pick" ? W.offerPick : W.offerRetrieve;
      found.push({ label: say(template, { card: cardName(pub, me, move.card) }), note: moveNote(ctx, move), index });
    }
  });
  let hint = "";
  if (!found.length) {
    const n = discardSize(decision);
    if (n) hint = say(W.chooseDiscard, { n: count(n, "card"), k: chosen.length });
    else hint = pub.phase === "green8_retrieve" ? W.chooseRetrieve : W.choosePick;
  }
  return { hint, offers: found };
}

/** One line of the event log for an event (null: nothing to say). */
export function eventText(ctx, event) {
  const { pub } = ctx;
  const who = ctx.name(event.seat);
  switch (event.type) {
    case "pick":
      return "card" in event ? agree(EV.pick_card, who, { card: cardName(pub, event.seat, event.card) }) : agree(EV.pick_hidden, who);
    case "discard": {
      const when = (event.when === "setup" ? EV.setup : EV.round_end) + (event.auto ? EV.forced : "");
      if (Array.isArray(event.cards)) {
        return agree(EV.discard_cards, who, { cards: event.cards.map((c) => cardName(pub, event.seat, c)).join(W.and), when });
      }
      return agree(EV.discard_count, who, { count: count(event.count, "card"), when });
    }
    case "reveal":
      return say(EV.reveal, {
        duel: event.duel,
        a: ctx.name(0),
        ca: cardName(pub, 0, event.cards[0]),
        b: ctx.name(1),
        cb: cardName(pub, 1, event.cards[1]),
      });
    case "tie":
    case "base":
    case "pink8":
    case "green7_bonus":
    case "six_takes_pot":
    case "green8_retrieve":
    case "pink7_end":
      return `– ${stepText(ctx, event)}`;
    case "round_end": {
      const gold = event.gold.map((g, s) => `${ctx.name(s)} ${g}`).join(", ");
      const stars = event.stars.map((n, s) => `${ctx.name(s)} ${n}`).join(", ");
      if (Number.isInteger(event.star)) return agree(EV.round_end_star, ctx.name(event.star), { round: event.round, gold, stars });
      return say(EV.round_end_none, { round: event.round, gold, stars });
    }
    case "take_back":
      return say(EV.take_back, { a: event.hand_sizes[0], b: event.hand_sizes[1] });
    case "round_start":
      return say(EV.round_start, { round: event.round, duels: count(event.duels, "duel") });
    case "match_end":
      return null;
    default:
      return null;
  }
}

/** The final standings, best first. */
export function outcomeLines(ctx, outcome) {
  const lines = outcome.order.map((seat, i) => {
    const line = say(W.outcomeLine, {
      place: i + 1,
      who: ctx.name(seat),
      colour: colourWord(ctx.pub, seat),
      stars: count(outcome.scores[seat], "star"),
    });
    return outcome.winners.includes(seat) ? `${line} – ${W.winner}` : line;
  });
  if (outcome.detail && outcome.detail.reason === "no_duels_left") lines.push(W.drawNoDuels);
  return lines;
}
