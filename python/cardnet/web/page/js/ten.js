// TEN: the tableau with its sums, the bust margin and the risk of the next draw, the market, every collection
// with its current best score, the auction, the solo offer and payments in progress (cardnet.ui.render.ten and
// its full-screen Screen). Cards are chips: a colour and, so that colour is never the only signal, a letter
// (R5 a red 5, B# a blue wild, *8 an 8 of any colour, *# anything, $3 currency 3).

import { el } from "./dom.js";
import { TEN as W, TEN_EVENTS as EV, agree, count, ordinal, say } from "./words.js";

const COLOURS = ["red", "blue", "orange", "green"];
const LETTERS = { red: "R", blue: "B", orange: "O", green: "G" };
// A tableau busts when numbers - currency, or currency alone, reaches this.
const BUST_AT = 11;
const MAX_NUMBER = 9;
const MAX_CURRENCY = 5;
const BUST_VALUE = 3;

// The deck of each player count (ten-deck.json, written from the core by scripts/web_ten_deck.py), loaded the
// first time a TEN table is drawn: until then the risk line says it is counting.
let deck = null;
let deckLoading = false;

function loadDeck(ctx) {
  if (deck || deckLoading) return;
  deckLoading = true;
  fetch("ten-deck.json")
    .then((response) => (response.ok ? response.json() : Promise.reject(new Error(`ten-deck.json: HTTP ${response.status}`))))
    .then((data) => {
      deck = data;
      ctx.redraw();
    })
    .catch(() => {
      deckLoading = false;
    });
}

// The bid chosen with +/- in the open auction: {decision, amount}.
let bidChoice = null;

function isWild(card) {
  return String(card.type || "").endsWith("wild");
}

/** A card in words: "blue 5", "red wild (any number)", "currency 4". */
export function cardWords(card) {
  const colour = W.colours[card.colour] || card.colour;
  switch (card.type) {
    case "number":
      return say(W.number, { colour, value: card.value });
    case "colour_wild":
      return say(W.colourWild, { colour });
    case "number_wild":
      return say(W.numberWild, { value: card.value });
    case "any_wild":
      return W.anyWild;
    case "currency":
      return say(W.currency, { value: card.value });
    default:
      return String(card.type);
  }
}

/** A card's short face, as the terminal client prints it. */
export function chipFace(card) {
  switch (card.type) {
    case "number":
      return `${LETTERS[card.colour] || "?"}${card.value}`;
    case "colour_wild":
      return `${LETTERS[card.colour] || "?"}#`;
    case "number_wild":
      return `*${card.value}`;
    case "any_wild":
      return "*#";
    default:
      return `$${card.value}`;
  }
}

/** A card as a chip: coloured, with its letter and number, read out in words. */
function chip(card) {
  const tint = card.colour ? `chip-${card.colour}` : card.type === "currency" ? "chip-currency" : "chip-wild";
  return el("span", { class: `chip ${tint}`, role: "img", "aria-label": cardWords(card), title: cardWords(card), text: chipFace(card) });
}

/** Numbers by colour then value, wilds after them: a collection reads as its runs. */
function byColour(cards) {
  const key = (card) => [isWild(card) ? 1 : 0, COLOURS.includes(card.colour) ? COLOURS.indexOf(card.colour) : 9, card.value || 0];
  return [...cards].sort((a, b) => {
    const ka = key(a);
    const kb = key(b);
    return ka[0] - kb[0] || ka[1] - kb[1] || ka[2] - kb[2];
  });
}

function chips(cards, extra = "") {
  return el("span", { class: `chips ${extra}`.trim() }, byColour(cards).map(chip));
}

/** Which next card is still safe (the terminal client's margin). */
function margin(numbers, currency) {
  const roomNumber = BUST_AT - 1 - (numbers - currency);
  const roomCurrency = BUST_AT - 1 - currency;
  const number = roomNumber >= MAX_NUMBER ? W.anyNumber : roomNumber >= 1 ? say(W.numberUpTo, { n: roomNumber }) : W.noNumber;
  const money = roomCurrency >= MAX_CURRENCY ? W.anyCurrency : roomCurrency >= 1 ? say(W.currencyUpTo, { n: roomCurrency }) : W.noCurrency;
  return say(W.safe, { number, currency: money });
}

/** The cards of the deck seen nowhere in the public view: exactly the draw pile, in some order. */
function unseenCards(pub) {
  const ids = deck && deck.decks[String(pub.seats.length)];
  if (!ids) return null;
  const seen = new Set();
  const places = [pub.tableau.cards, pub.market || [], (pub.discard && pub.discard.cards) || []];
  for (const seat of pub.seats) places.push(seat.collection);
  for (const holder of [pub.auction, pub.offer, pub.payment]) if (holder && holder.card) places.push([holder.card]);
  if (pub.payment) places.push(pub.payment.cards || []);
  for (const cards of places) for (const card of cards) seen.add(card.id);
  return ids.filter((id) => !seen.has(id)).map((id) => deck.cards[String(id)]);
}

/** How many of the cards still in the draw pile would bust the tableau if drawn next (wilds never do). */
function bustRisk(pub) {
  const unseen = unseenCards(pub);
  if (!unseen) return null;
  const { numbers, currency } = pub.tableau;
  const busting = unseen.filter(
    (card) =>
      (card.type === "number" && numbers + card.value - currency >= BUST_AT) ||
      (card.type === "currency" && currency + card.value >= BUST_AT),
  ).length;
  return { busting, unseen: unseen.length };
}

function riskLine(pub) {
  const risk = bustRisk(pub);
  if (!risk) return el("p", { class: "risk dim", text: W.riskCounting });
  const share = risk.unseen ? Math.floor((100 * risk.busting) / risk.unseen) : 0;
  const text = say(W.risk, { busting: risk.busting, unseen: risk.unseen, share });
  return el("p", { class: `risk ${risk.busting ? "risk-some" : "risk-none"}`, text });
}

function tableau(pub) {
  const tab = pub.tableau;
  const parts = [el("h3", {}, `${W.tableau} `, tab.cards.length ? chips(tab.cards) : el("span", { class: "dim", text: W.empty }))];
  if (tab.cards.length) {
    const diff = tab.numbers - tab.currency;
    const close = diff >= 8 || tab.currency >= 8;
    parts.push(el("p", { class: close ? "sums close" : "sums", text: say(W.sums, { diff, currency: tab.currency }) }));
    parts.push(el("p", { class: "dim", text: margin(tab.numbers, tab.currency) }));
  }
  if (pub.phase === "draw") parts.push(riskLine(pub));
  return el("div", { class: "tableau" }, parts);
}

function seatList(ctx) {
  const { pub } = ctx;
  const list = el("ul", { class: "players ten-seats" });
  pub.seats.forEach((info, seat) => {
    const turn = seat === pub.active && pub.phase !== "over";
    const classes = [turn ? "turn" : "", seat === ctx.me ? "me" : ""].join(" ").trim();
    const counts = say(W.seatLine, {
      points: count(info.score, "point"),
      tokens: count(info.tokens, "token"),
      busts: count(info.bust_tokens, "bustToken"),
    });
    list.append(
      el(
        "li",
        { class: classes },
        el("div", { class: "seat-row" }, el("span", { class: "who", text: `${ctx.name(seat)}${ctx.marker(seat)}` }), el("span", { class: "counts", text: counts })),
        info.collection.length ? chips(info.collection, "small") : el("span", { class: "dim", text: W.noCards }),
      ),
    );
  });
  return [el("h3", { text: W.players }), list];
}

function pending(ctx) {
  const { pub } = ctx;
  const parts = [];
  const auction = pub.auction;
  if (auction) {
    const state = Number.isInteger(auction.high_seat) ? say(W.highBid, { bid: auction.high_bid, who: ctx.name(auction.high_seat) }) : W.noBid;
    const order = auction.order.map((seat) => ctx.name(seat)).join(", ");
    parts.push(el("p", { class: "pending" }, `${W.auction} `, chip(auction.card), `: ${state}. `, say(W.auctionOrder, { order, who: ctx.name(auction.next) })));
  }
  if (pub.offer) parts.push(el("p", { class: "pending" }, `${W.offer} `, chip(pub.offer.card), ` ${say(W.offerPrice, { price: pub.offer.price })}`));
  const pay = pub.payment;
  if (pay) {
    const owes = agree(W.payment, ctx.name(pay.payer), { owed: pay.owed });
    const of = say(W.paymentOf, { purpose: W.purposes[pay.purpose] || pay.purpose, price: pay.price, paid: pay.paid });
    parts.push(el("p", { class: "pending" }, `${owes} `, chip(pay.card), ` ${of}`));
    const pieces = [];
    if (pay.tokens) pieces.push(count(pay.tokens, "token"));
    if (pay.bust_tokens) pieces.push(count(pay.bust_tokens, "bustToken"));
    if (pieces.length || pay.cards.length) parts.push(el("p", { class: "dim" }, `${W.paidSoFar} ${pieces.join(", ")} `, chips(pay.cards)));
  }
  if (pub.final_round) {
    const order = pub.final_round.order.map((seat) => ctx.name(seat)).join(", ");
    parts.push(el("p", { class: "pending", text: say(W.finalRound, { order, who: ctx.name(pub.final_round.next) }) }));
  }
  return parts;
}

/** The turn, the solo label, the tableau, what is in progress, the market and the seats. */
export function board(ctx) {
  const { pub } = ctx;
  loadDeck(ctx);
  const head = el(
    "p",
    { class: "dim ten-head" },
    say(W.head, { turn: pub.turn, who: ctx.name(pub.active), pile: pub.draw_pile, discards: pub.discard.size }),
    pub.discard.top ? [W.headTop, chip(pub.discard.top)] : null,
  );
  const solo = pub.house_rules ? el("p", { class: "solo-label", text: say(W.solo, { target: pub.solo_target }) }) : null;
  const market = pub.market && pub.market.length ? chips(pub.market) : el("span", { class: "dim", text: W.empty });
  return el(
    "div",
    { class: "board ten" },
    head,
    solo,
    tableau(pub),
    // What is in progress (an auction, an offer, a payment) comes before the market and the seats: on a phone
    // it stays in sight above the moves.
    pending(ctx),
    el("div", { class: "market" }, el("h3", {}, `${W.market} `, market)),
    seatList(ctx),
  );
}

/** TEN has no hand: everything is on the board. */
export function hand() {
  return null;
}

/** The score of a collection's number cards alone (wilds left out): each colour's longest run, 1-9 scores 10. */
function runScore(cards) {
  let total = 0;
  for (const colour of COLOURS) {
    const values = new Set(cards.filter((card) => card.type === "number" && card.colour === colour).map((card) => card.value));
    let best = 0;
    let run = 0;
    for (let value = 1; value <= MAX_NUMBER; value++) {
      run = values.has(value) ? run + 1 : 0;
      best = Math.max(best, run);
    }
    total += best === MAX_NUMBER ? best + 1 : best;
  }
  return total;
}

/** `n` cards to pay with that cost the collection the least: each time the one whose loss keeps the most of its
 * runs, number cards before wilds on a tie (a wild may fill any gap). */
function cheapestCards(collection, n) {
  const left = [...collection];
  const chosen = [];
  for (let i = 0; i < n; i++) {
    let best = -1;
    let bestKey = null;
    left.forEach((card, at) => {
      const rest = left.filter((_, j) => j !== at);
      // A wild counts as the point it adds by extending some run (its exact worth needs the core's scorer).
      const key = [runScore(rest) + rest.filter(isWild).length, isWild(card) ? 0 : 1];
      if (!bestKey || key[0] > bestKey[0] || (key[0] === bestKey[0] && key[1] > bestKey[1])) {
        best = at;
        bestKey = key;
      }
    });
    chosen.push(left.splice(best, 1)[0]);
  }
  return chosen;
}

/** The least that settles what the player owes: an exact payment without cards (fewest pieces), else bust tokens
 * alone (their only use is paying), else an exact payment with the fewest cards; null when none is possible. */
export function leastPayment(pay, seat) {
  const owed = pay.owed;
  const exact = [];
  for (let cards = 0; cards <= Math.min(owed, seat.collection.length); cards++) {
    for (let busts = Math.min(seat.bust_tokens, Math.floor((owed - cards) / BUST_VALUE)); busts >= 0; busts--) {
      const tokens = owed - cards - BUST_VALUE * busts;
      if (tokens <= seat.tokens) exact.push({ tokens, busts, cards });
    }
  }
  const pieces = (way) => way.tokens + way.busts + way.cards;
  exact.sort((a, b) => a.cards - b.cards || pieces(a) - pieces(b));
  const bustsAlone = Math.ceil(owed / BUST_VALUE);
  const onlyBustsPaid = pay.tokens === 0 && pay.cards.length === 0;
  let way = exact.length && exact[0].cards === 0 ? exact[0] : null;
  if (!way && onlyBustsPaid && seat.bust_tokens >= bustsAlone) way = { tokens: 0, busts: bustsAlone, cards: 0 };
  if (!way && exact.length) way = exact[0];
  if (!way) return null;
  return { tokens: way.tokens, busts: way.busts, cards: cheapestCards(seat.collection, way.cards) };
}

function sameKind(a, b) {
  return a.type === b.type && a.colour === b.colour && a.value === b.value;
}

/** The one-tap settling offer: its first piece now, the rest as the plan played at the next decisions. */
function settleOffer(ctx, legal) {
  const pay = ctx.pub.payment;
  const seat = ctx.pub.seats[ctx.me];
  const least = leastPayment(pay, seat);
  if (!least) return null;
  const steps = [];
  for (let i = 0; i < least.busts; i++) steps.push((move) => move.type === "pay_bust");
  for (let i = 0; i < least.tokens; i++) steps.push((move) => move.type === "pay_token");
  for (const card of least.cards) {
    steps.push((move) => {
      const held = move.type === "pay_card" && seat.collection.find((c) => c.id === move.card);
      return Boolean(held) && sameKind(held, card);
    });
  }
  const index = legal.findIndex(steps[0]);
  if (index < 0) return null;
  const words = [];
  if (least.busts) words.push(count(least.busts, "bustToken"));
  if (least.tokens) words.push(count(least.tokens, "token"));
  words.push(...least.cards.map(cardWords));
  return { label: say(W.settle, { pieces: words.join(", ") }), note: say(W.settleNote, { owed: pay.owed }), index, kind: "settle", plan: steps.slice(1) };
}

/** The auction's bid form: - and + within the legal range, the bid button, and the legal range in words. */
function bidForm(ctx, bids) {
  const amounts = [...bids.keys()];
  const low = Math.min(...amounts);
  const high = Math.max(...amounts);
  const id = ctx.decision.id;
  if (!bidChoice || bidChoice.decision !== id || !bids.has(bidChoice.amount)) bidChoice = { decision: id, amount: low };
  const amount = el("output", { class: "bid-amount", "aria-live": "polite", text: String(bidChoice.amount) });
  const submit = el("button", { type: "submit", class: "offer play bid-btn", text: say(W.bid, { n: bidChoice.amount }) });
  const lower = el("button", { type: "button", class: "bid-step bid-lower", "aria-label": W.bidLower, text: "−" });
  const raise = el("button", { type: "button", class: "bid-step bid-raise", "aria-label": W.bidRaise, text: "+" });
  const show = () => {
    amount.textContent = String(bidChoice.amount);
    submit.textContent = say(W.bid, { n: bidChoice.amount });
    lower.disabled = bidChoice.amount <= low;
    raise.disabled = bidChoice.amount >= high;
  };
  const step = (by) => {
    let next = bidChoice.amount + by;
    while (next >= low && next <= high && !bids.has(next)) next += by;
    if (bids.has(next)) bidChoice.amount = next;
    show();
  };
  lower.addEventListener("click", () => step(-1));
  raise.addEventListener("click", () => step(1));
  show();
  return el(
    "form",
    {
      class: "bid-form",
      "aria-label": W.bidLabel,
      onsubmit: (event) => {
        event.preventDefault();
        ctx.play(bids.get(bidChoice.amount));
      },
    },
    el("span", { class: "bid-label", text: W.bidLabel }),
    lower,
    amount,
    raise,
    submit,
    el("span", { class: "dim bid-range", text: say(W.bidRange, { low, high }) }),
  );
}

const PROMPTS = {
  draw: W.promptDraw,
  prize: W.promptPrize,
  buy: W.promptBuy,
  final_buy: W.promptBuy,
  auction: W.promptAuction,
  solo_offer: W.promptOffer,
  pay: W.promptPay,
};

/** The open decision's legal moves as buttons (the host's list, nothing else), the bid form in an auction. */
export function offers(ctx) {
  const { decision, pub } = ctx;
  if (!decision) return { hint: "", offers: [] };
  const seat = pub.seats[ctx.me];
  const tab = pub.tableau;
  const found = [];
  const bids = new Map();
  const legal = decision.legal;
  if (pub.phase === "pay" && pub.payment && pub.payment.payer === ctx.me) {
    const settle = settleOffer(ctx, legal);
    if (settle) found.push(settle);
  }
  legal.forEach((move, index) => {
    switch (move.type) {
      case "draw": {
        const risk = bustRisk(pub);
        const note = say(W.drawNote, { pile: pub.draw_pile }) + (risk ? ` · ${risk.busting}/${risk.unseen} bust` : "");
        found.push({ label: W.draw, note, index });
        break;
      }
      case "stop":
        found.push({ label: W.stop, note: tab.cards.length ? W.stopKeep : W.stopEnd, index, kind: "pass" });
        break;
      case "prize":
        if (move.kind === "numbers") {
          const cards = tab.cards.filter((card) => card.type === "number").map(chipFace).join(" ");
          const others = tab.currency && pub.seats.length > 1;
          const note = others ? say(W.numbersOthers, { cards, n: tab.currency }) : say(W.numbersNote, { cards });
          found.push({ label: W.takeNumbers, note, index });
        } else {
          found.push({ label: W.takeCurrency, note: say(W.currencyNote, { n: count(tab.currency, "token") }), index });
        }
        break;
      case "buy": {
        const card = (pub.market || []).find((c) => c.id === move.card);
        if (card) found.push({ label: say(W.buy, { card: cardWords(card) }), note: say(W.buyNote, { price: card.value, tokens: count(seat.tokens, "token") }), index });
        break;
      }
      case "skip_buy":
        found.push({ label: W.skipBuy, note: "", index, kind: "pass" });
        break;
      case "bid":
        bids.set(move.amount, index);
        break;
      case "pass_bid":
        found.push({ label: W.pass, note: W.passNote, index, kind: "pass" });
        break;
      case "accept_wild":
        if (pub.offer) found.push({ label: W.accept, note: say(W.acceptNote, { price: pub.offer.price, card: cardWords(pub.offer.card) }), index });
        break;
      case "decline_wild":
        found.push({ label: W.decline, note: W.declineNote, index, kind: "pass" });
        break;
      case "pay_token":
        found.push({ label: W.payToken, note: say(W.payTokenNote, { owed: pub.payment.owed, n: seat.tokens }), index, kind: "piece" });
        break;
      case "pay_bust": {
        const owed = pub.payment.owed;
        const lost = Math.max(0, BUST_VALUE - owed);
        const note = lost ? say(W.payBustLost, { owed, lost, n: seat.bust_tokens }) : say(W.payBustNote, { owed, n: seat.bust_tokens });
        found.push({ label: W.payBust, note, index, kind: "piece" });
        break;
      }
      case "pay_card": {
        const card = seat.collection.find((c) => c.id === move.card);
        if (card) found.push({ label: say(W.payCard, { card: cardWords(card) }), note: W.payCardNote, index, kind: "piece" });
        break;
      }
      default:
        break;
    }
  });
  const extra = bids.size ? bidForm(ctx, bids) : null;
  const buying = legal.some((move) => move.type === "buy");
  const hint = legal.some((move) => move.type === "skip_buy") && !buying ? W.promptBuyNone : PROMPTS[pub.phase] || "";
  return { hint, offers: found, extra };
}

function runsText(breakdown) {
  const runs = [];
  COLOURS.forEach((colour, i) => {
    const run = (breakdown.runs || [])[i];
    if (run) runs.push(say(W.run, { colour: W.colours[colour], from: run[0], to: run[1], points: (breakdown.per_colour || [])[i] }));
  });
  const wilds = (breakdown.wilds || []).map((wild) => say(W.number, { colour: W.colours[wild.colour] || wild.colour, value: wild.value }));
  const parts = [runs.length ? say(W.runs, { runs: runs.join(", ") }) : W.noRuns];
  if (wilds.length) parts.push(say(W.wildsAs, { wilds: wilds.join(", ") }));
  return parts.join("; ");
}

/** One line of the event log (null: nothing to say). */
export function eventText(ctx, event) {
  const who = ctx.name(event.seat);
  switch (event.type) {
    case "draw":
      return agree(EV.draw, who, { card: cardWords(event.card) });
    case "stop":
      return agree(EV.stop, who);
    case "prize":
      return agree(EV.prize, who, { kind: event.kind === "numbers" ? EV.prizeNumbers : EV.prizeCurrency });
    case "gain":
      return agree(EV.gain, who, { tokens: count(event.tokens, "token"), lost: event.lost ? say(EV.gainLost, { n: event.lost }) : "" });
    case "bust":
      return say(EV.bust, { who, which: event.kind === "numbers" ? EV.bustNumbers : EV.bustCurrency, token: event.bust_token ? EV.bustToken : "" });
    case "auction":
      return say(EV.auction, { card: cardWords(event.card) });
    case "bid":
      return agree(EV.bid, who, { n: event.amount });
    case "pass_bid":
      return agree(EV.pass_bid, who);
    case "auction_won":
      return agree(EV.auction_won, who, { card: cardWords(event.card), n: event.amount });
    case "wild_discarded":
      return say(EV.wild_discarded, { card: cardWords(event.card) });
    case "offer":
      return say(EV.offer, { card: cardWords(event.card), price: event.price });
    case "buy":
      return agree(EV.buy, who, { card: cardWords(event.card) });
    case "skip_buy":
      return agree(EV.skip_buy, who);
    case "pay": {
      const piece = event.piece === "token" ? EV.payToken : event.piece === "bust_token" ? EV.payBust : event.card ? cardWords(event.card) : EV.payCard;
      return agree(EV.pay, who, { piece, left: event.owed ? say(EV.owed, { n: event.owed }) : EV.paidInFull });
    }
    case "collect":
      return agree(EV.collect, who, { card: cardWords(event.card) });
    case "turn":
      return say(EV.turn, { turn: event.turn, who });
    case "final_round":
      return say(EV.final_round, { who: ctx.name(event.first) });
    default:
      // turn_end and game_over: the next turn's line and the outcome say it.
      return null;
  }
}

/** The final ranking, best first: points, the tie-breaks, each colour's scoring run; the solo target. */
export function outcomeLines(ctx, outcome) {
  const detail = outcome.detail || {};
  const lines = outcome.order.map((seat, i) => {
    let line = say(W.outcomeLine, {
      place: ordinal(i + 1),
      who: ctx.name(seat),
      points: count(outcome.scores[seat], "point"),
      tokens: count((detail.tokens || [])[seat] || 0, "token"),
      cards: count((detail.cards || [])[seat] || 0, "card"),
    });
    const breakdown = (detail.breakdown || [])[seat];
    if (breakdown) line += ` (${runsText(breakdown)})`;
    return outcome.winners.includes(seat) ? `${line} – ${W.winner}` : line;
  });
  if (Number.isInteger(detail.solo_target)) {
    lines.push(say(outcome.winners.length ? W.soloReached : W.soloMissed, { target: detail.solo_target }));
  }
  return lines;
}
