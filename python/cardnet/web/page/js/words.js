// Every word the page shows, in English, keyed by the protocol's codes and the games' event and move types.
// A translation replaces this module's tables (issue 32): no other module holds player-facing text. Templates
// name their parts in braces ({who}, {card}); `say` fills them in. Verbs agree with "You" through the pair
// {you, other}: "You pick" / "ann picks".

export const UI = {
  title: "cardnet",
  connecting: "Connecting to the table…",
  connected: "Connected",
  reconnecting: "Connection lost; reconnecting (attempt {attempt})…",
  silent: "The host is not answering; reconnecting…",
  closed: "Disconnected.",
  nameLabel: "Your name",
  guestName: "Guest",
  passwordLabel: "Table password",
  passwordNeeded: "This table needs its password.",
  namePlaceholder: "e.g. Ann",
  join: "Join",
  watch: "Watch",
  rejoin: "Take my seat back",
  joinHint: "Join takes the lowest open seat; Watch follows the game without playing.",
  tableLine: "{game} at “{table}”: {players} seats",
  nameEmpty: "Type a name first.",
  nameTooLong: "A name is at most 32 characters.",
  nameControl: "A name cannot hold control characters.",
  seatOpen: "open",
  seatGone: "gone",
  seatAuto: "auto",
  you: "You",
  bot: "Bot {seat} · {level}",
  botLevel: "built-in",
  seat: "Seat {seat}",
  sameName: "{name} (seat {seat})",
  youSit: "You sit at seat {seat}.",
  youWatch: "You are watching.",
  waitingSeats: "Waiting for players: {open} still open.",
  watching: "{n} watching",
  nobodyWatching: "nobody watching",
  yourTurn: "Your turn.",
  yourTurnTimed: "Your turn: {s} s left.",
  waitTurn: "Waiting for {who}.",
  waitOthers: "Waiting for the others.",
  sent: "Sent; waiting for the table…",
  clear: "Clear",
  log: "What happened",
  chat: "Chat",
  chatPlaceholder: "Say something",
  send: "Send",
  earlier: "(earlier)",
  spectatorTag: "(watching)",
  gameOver: "Game over",
  rematch: "Play again",
  rematchVotes: "Rematch votes: {votes} of {needed}.",
  rematchVoted: "You voted for a rematch; waiting for the others.",
  newGame: "A new game begins.",
  reconnected: "Reconnected to the table.",
  replacedStop: "This seat is now played from another window or device. Reload to take it back here.",
  hostStopped: "The host closed the table.",
  badTokenDropped: "Your old seat is gone; join again.",
  fullWatch: "Every seat is taken: you can watch.",
  noLegal: "None of the selected cards can be played together now.",
  rulesTitle: "The rules of {game}",
};

// The host's refusals and fatal errors (PROTOCOL.md § 11), and the core's refusal codes of the two games
// (`detail` of `illegal_move`), as the terminal client words them. Unknown codes fall back to the host's reason.
export const ERRORS = {
  bad_utf8: "The host could not read a message: it was not UTF-8.",
  bad_json: "The host could not read a message: it was not valid JSON.",
  bad_message: "The host could not read a message: {reason}",
  unknown_type: "The host does not know that kind of message.",
  stale_decision: "Too late: the table moved on before your move arrived.",
  wrong_seat: "It is not your turn.",
  not_started: "The game has not started: some seats are still open.",
  game_over: "The game is over.",
  spectator: "Spectators watch; they cannot move.",
  chat_disabled: "Chat is off at this table.",
  chat_too_long: "That message is too long.",
  chat_rate: "You are chatting too fast; wait a moment.",
  not_over: "The game is not over yet.",
  invalid_move: "The host could not read that move.",
  illegal_move: "That move is not allowed now.",
  table_full: "Every seat is taken.",
  no_seat: "That seat is not open.",
  bad_token: "Your seat token is not valid at this table.",
  replaced: "Your seat was taken over by a newer connection.",
  shutting_down: "The host is stopping.",
  auth_failed: "That password is not this table's.",
  unsupported_version: "This host speaks another version of the protocol.",
  handshake_required: "The host refused the greeting: {reason}",
  handshake_timeout: "The greeting took too long.",
  idle_timeout: "The host heard nothing from this page for too long.",
  rate_limited: "Too many messages at once.",
  too_many_errors: "Too many malformed messages.",
  line_too_long: "A message was too long.",
  internal: "The host hit a bug; the table is unchanged.",
};

export const REFUSALS = {
  game_over: "The game is over.",
  not_your_turn: "It is not your turn.",
  wrong_phase: "That move does not fit this moment of the game.",
  not_in_hand: "That card is not in your hand.",
  wrong_count: "That is the wrong number of cards.",
  plus_one: "The +1 rule: you may not play the card one higher than your card in the previous duel.",
  not_in_discard: "That card is not in your discard pile.",
  must_discard: "Your hand is empty: your turn is to discard one matchstick.",
  no_such_value: "That value exists only with the expansion, which is not in play.",
  duplicate_card: "The same card is listed twice.",
  not_stronger: "Your play must show a stronger value than the table's.",
  cannot_show: "That card can never show that value, turned or with matchsticks.",
  bad_detail: "The matchsticks or the turning given for a card do not make that value.",
  too_few_matchsticks: "You do not have enough matchsticks for this play.",
  illegal_play: "This play is not allowed now.",
  not_forced: "You discard a matchstick only when your hand is empty: play or pass.",
  must_lead: "The table is empty: you lead and must play 1 to 5 cards.",
  // Cherki
  already_drawn: "You have already drawn this turn: discard a card.",
  call_with_discard: "After drawing, you call Cherki as you discard, not as a move of its own.",
  draw_first: "Draw from the stock or take the discard before you discard.",
  no_discard: "There is no discard to take: draw from the stock.",
  took_last_turn: "You took the discard on your previous turn, so now you must draw from the stock.",
  not_pair_kind: "You have called: you may take only a card of your pair kind.",
  already_called: "You have already called Cherki this deal.",
  not_ready: "Your eight cards are not two triples and a pair, so you cannot call.",
  must_discard_drawn: "Your hand is locked: discard the card you drew.",
  just_taken: "You cannot discard the card you took from the discard pile this turn.",
  // TEN
  draw_pile_empty: "The draw pile is empty: you must stop.",
  empty_tableau: "You may stop only with a number or currency card in the tableau: draw.",
  prize_absent: "The tableau holds no card of that kind, so that prize is not available.",
  not_in_market: "That card is not in the market.",
  duplicate: "You already have a number card of that colour and number.",
  cannot_afford: "You cannot pay that much.",
  bid_too_low: "A bid must be higher than the highest bid so far.",
  no_tokens: "You have no currency tokens.",
  no_bust_tokens: "You have no bust tokens.",
  card_being_paid_for: "You cannot pay with the card you are buying.",
  not_in_collection: "That card is not in your collection.",
  overpayment: "A bust token now would pay more than the price while a piece already paid was not needed.",
  not_minimal: "After this piece, what you have left could no longer pay the rest exactly.",
};

export const GAMES = {
  fistful: "A Fistful of Gold",
  matchstick: "Matchstick Tycoon",
  cherki: "Cherki",
  ten: "TEN",
};

export const FISTFUL = {
  heading: "Round {round}, duel {duel} of {duels}",
  length: "{length} match: first to {stars}",
  short: "short",
  long: "long",
  stars: "Stars",
  gold: "Gold",
  pot: "Pot",
  pink: "Pink",
  green: "Green",
  dynamite: "Dynamite",
  dynamiteShort: "D",
  noCard: "no card yet",
  sizes: "hand {hand}, discards {discards}",
  hasPicked: "has picked",
  barred: "barred",
  barredLine: "Barred by the +1 rule: {whose} {card}",
  your: "your",
  whose: "{name}'s",
  lastDuel: "Last duel ({duel}): {a} vs {b}",
  nothingHappens: "nothing happens",
  yourHand: "Your hand ({colour})",
  yourPile: "Your discard pile: take one back",
  pile: "Discard pile: {cards}",
  yourPick: "Your pick: {card}",
  sixPlayed: "a 6 was played (no more pot taking)",
  green7At: "Green 7 played by {who} in duel {duel} (+1 per duel won after it)",
  retrievedNote: "{who} took back {card} (Green 8)",
  promptSetup: "Setup: discard 2 of your 9 cards face down; you keep 7 for round 1.",
  promptPick: "Pick your card for duel {duel}; both cards are revealed together.",
  promptRetrieve: "Green 8: take one card back from your discard pile (your opponent sees it).",
  promptRoundEnd: "The round ended early: discard unplayed cards face down, then take back the played ones.",
  chooseDiscard: "Tap {n} to discard ({k} chosen).",
  choosePick: "Tap the card to play.",
  chooseRetrieve: "Tap the card to take back.",
  offerPick: "Play {card}",
  offerDiscard: "Discard {cards}",
  offerRetrieve: "Take back {card}",
  and: " and ",
  noteSixPot: "first 6 takes the pot ({pot} gold)",
  noteSixNoPot: "a 6 was already played: no pot",
  notePink7Now: "Pink 7: ends the round after this duel",
  notePink7Later: "Pink 7: ends the round from duel 3",
  noteBars: "bars your {next} next duel",
  specialDynamite: "Dynamite: beats 1-4, loses to 5-8, the winner gets 3",
  specialSix: "the round's first 6 takes the pot",
  specialPink7: "Pink 7: ends the round from duel 3",
  specialGreen7: "Green 7: +1 gold per later duel won",
  specialPink8: "Pink 8: wins 3 against a 1",
  specialGreen8: "Green 8: take a discard back, discard 2 at round end",
  outcomeLine: "{place}. {who} ({colour}): {stars}",
  winner: "winner",
  drawNoDuels: "No duel was left to play, and the stars were equal: a draw.",
};

export const FISTFUL_STEPS = {
  tie: "tie: 2 gold into the pot (pot {pot})",
  base: { you: "You win {gold} gold", other: "{who} wins {gold} gold" },
  pink8: { you: "Pink 8 beats the 1: You win {gold} gold instead", other: "Pink 8 beats the 1: {who} wins {gold} gold instead" },
  green7_bonus: { you: "Green 7 bonus: You get {gold} more gold", other: "Green 7 bonus: {who} gets {gold} more gold" },
  six_takes_pot: { you: "first 6: You take the pot ({gold} gold)", other: "first 6: {who} takes the pot ({gold} gold)" },
  six_takes_empty: { you: "first 6: You take the pot, but it is empty", other: "first 6: {who} takes the pot, but it is empty" },
  green8_retrieve: { you: "Green 8: You take back {card}", other: "Green 8: {who} takes back {card}" },
  pink7_end: "Pink 7 in duel 3 or later: the round ends",
};

export const FISTFUL_EVENTS = {
  pick_card: { you: "You pick {card}.", other: "{who} picks {card}." },
  pick_hidden: { you: "You have picked a card.", other: "{who} has picked a card." },
  discard_cards: { you: "You discard {cards} face down ({when}).", other: "{who} discards {cards} face down ({when})." },
  discard_count: { you: "You discard {count} face down ({when}).", other: "{who} discards {count} face down ({when})." },
  setup: "setup",
  round_end: "round end",
  forced: ", forced",
  reveal: "Duel {duel}: {a} {ca} vs {b} {cb}",
  round_end_star: { you: "Round {round} over, gold {gold}: You win a sheriff star. Stars: {stars}.", other: "Round {round} over, gold {gold}: {who} wins a sheriff star. Stars: {stars}." },
  round_end_none: "Round {round} over, gold {gold}: equal gold, no star. Stars: {stars}.",
  take_back: "Played cards go back to hand (hands: {a} and {b} cards).",
  round_start: "Round {round} begins: {duels}.",
};

export const MATCHSTICK = {
  normalOrder: "normal order: F is the strongest",
  revolution: "REVOLUTION",
  revolutionOrder: "0 is the strongest",
  pile: "pile {n}",
  trick: "Trick",
  trickPlay: "{who} played {count} × {value}",
  trickSticks: " with {n}",
  trickEmpty: { you: "empty: You lead", other: "empty: {who} leads" },
  trickEmptyNobody: "empty",
  legend: "~ turned card; orange sticks: added matchsticks",
  seatCounts: "{cards}, {sticks}",
  passed: "passed",
  out: "out",
  outPlace: "out ({place})",
  yourHand: "Your hand ({cards}, {sticks})",
  chooseCards: "Tap the cards to play together.",
  offerPlay: "Play {value}",
  offerPass: "Pass (take a matchstick)",
  offerDiscard: "Discard a matchstick",
  turned: "turned",
  noteSticks: "{n}",
  outcomeLine: "{place}. {who}",
  winner: "winner",
};

export const MATCHSTICK_EVENTS = {
  play: { you: "You play {count} × {value}{sticks} (cards {cards}).", other: "{who} plays {count} × {value}{sticks} (cards {cards})." },
  sticks: " with {n}",
  pass: { you: "You pass and take a matchstick (now {n}).", other: "{who} passes and takes a matchstick (now {n})." },
  discard_matchstick: { you: "You discard a matchstick ({n} left).", other: "{who} discards a matchstick ({n} left)." },
  revolution_on: "Revolution! 0 is now the strongest.",
  revolution_off: "Order restored: F is the strongest.",
  went_out: { you: "You go out ({place}).", other: "{who} goes out ({place})." },
  trick_cleared: "Trick over.",
  trick_leader: { you: "Trick over. You lead.", other: "Trick over. {who} leads." },
};

export const CHERKI = {
  heading: "Deal {deal} of {deals}, dealer {dealer}",
  stock: "Stock: {n}",
  called: "CALLED",
  score: "score {n}",
  lastDeal: "Last deal:",
  dealWon: { you: "You won deal {deal} by {how}, total {total} ({gain})", other: "{who} won deal {deal} by {how}, total {total} ({gain})" },
  dealDrawn: "Deal {deal} was drawn (the stock ran out): nobody paid",
  byTake: "taking the discard",
  byDraw: "drawing from the stock",
  topDiscard: "Top discard:",
  from: "from {who}",
  mayTake: "it may be taken",
  cannotTake: "it cannot be taken",
  youMayNotTake: "you may not take it now",
  noTop: "No discard to take: draw from the stock.",
  discards: "Discards",
  discardsOlder: "Discards ({n} older, then)",
  takenBy: "{who}, taken by {taker}",
  yourHand: "Your hand ({cards}, by kind)",
  kindCount: "{kind} ×{n}",
  drawn: "new",
  towards: "Towards a call:",
  triples: "triples {n} of 2",
  pairs: "pairs {n} of 1",
  locked: "You called Cherki: you win with any {kind} you draw or take.",
  ready: "Ready: two triples and a pair of {kind}",
  mayCallNow: " – you may call now.",
  readyAfter: "Ready after discarding {cards}: you may call as you discard.",
  notReadyDrawn: "Not ready: no discard makes two triples and a pair.",
  notReady: "Not ready: you need two triples and a pair to call.",
  offerDraw: "Draw from the stock",
  stockLeft: "{n} left",
  offerTake: "Take {card}",
  wins: ": completes your hand, you win",
  offerCall: "Call Cherki",
  callNote: "lock your hand, then win with any {kind}",
  offerDiscard: "Discard {card}",
  offerDiscardCall: "Discard {card} and call Cherki",
  justDrawn: "just drawn",
  chooseDiscard: "Tap the card to discard.",
  numberCard: "{rank} {suit}",
  stamp: "*",
  suits: { coins: "Coins", strings: "Strings", myriads: "Myriads" },
  suitShort: { coins: "C", strings: "S", myriads: "M" },
  kinds: { "white-flower": "White Flower", "red-flower": "Red Flower", "old-thousand": "Old Thousand" },
  honourShort: { "white-flower": "WF", "red-flower": "RF", "old-thousand": "OT" },
  outcomeLine: "{place}. {who}: {points} points",
  winner: "winner",
  drawGame: "Every score is 0: the game is a draw.",
};

export const CHERKI_EVENTS = {
  draw_card: { you: "You draw {card} ({n} left in the stock).", other: "{who} draws {card} ({n} left in the stock)." },
  draw_hidden: { you: "You draw from the stock ({n} left).", other: "{who} draws from the stock ({n} left)." },
  take_discard: { you: "You take {card}, discarded by {from}.", other: "{who} takes {card}, discarded by {from}." },
  discard: { you: "You discard {card}.", other: "{who} discards {card}." },
  call: { you: "You call Cherki!", other: "{who} calls Cherki!" },
  win: {
    you: "You win deal {deal} by {how}, completing the {pair}s. {cards}. Total {total}: {pays}.",
    other: "{who} wins deal {deal} by {how}, completing the {pair}s. {cards}. Total {total}: {pays}.",
  },
  gets: { you: "You get {n}", other: "{who} gets {n}" },
  pays: { you: "You pay {n}", other: "{who} pays {n}" },
  deal_drawn: "The stock ran out: deal {deal} is drawn, nobody pays.",
  new_deal: "Deal {deal} is dealt, dealer {dealer}.",
};

export const TEN = {
  colours: { red: "red", blue: "blue", orange: "orange", green: "green" },
  number: "{colour} {value}",
  colourWild: "{colour} wild (any number)",
  numberWild: "wild {value} (any colour)",
  anyWild: "wild (any colour and number)",
  currency: "currency {value}",
  head: "Turn {turn}: {who} · draw pile {pile} · discards {discards}",
  headTop: " · top ",
  solo: "Solo (house rules): reach {target} points to win.",
  tableau: "Tableau",
  empty: "empty",
  sums: "Numbers − currency {diff}, currency {currency}: either one reaching 11 busts.",
  safe: "Safe next card: {number}, {currency}.",
  anyNumber: "any number",
  anyCurrency: "any currency",
  numberUpTo: "a number up to {n}",
  currencyUpTo: "a currency up to {n}",
  noNumber: "no number",
  noCurrency: "no currency",
  risk: "Next draw: {busting} of {unseen} cards left would bust you ({share}%).",
  riskCounting: "Next draw: counting the cards left…",
  market: "Market (price = number)",
  players: "Players (points: what each collection scores now)",
  seatLine: "{points} · {tokens} · {busts}",
  noCards: "no cards",
  auction: "Auction of",
  highBid: "high bid {bid} by {who}",
  noBid: "no bid yet",
  auctionOrder: "One bid each ({order}); now {who}.",
  offer: "Offer:",
  offerPrice: "for {price} (accept or decline).",
  payment: { you: "You owe {owed} for", other: "{who} owes {owed} for" },
  paymentOf: "({purpose}, price {price}, paid {paid}).",
  purposes: { buy: "a purchase", final_buy: "a final purchase", auction: "an auction win", solo_wild: "a wild" },
  paidSoFar: "Paid so far:",
  finalRound: "Final buy round ({order}): now {who}.",
  promptDraw: "Draw another card, or stop and take a prize.",
  promptPrize: "Choose your prize: the numbers (then buy one card) or the currency.",
  promptBuy: "Buy one market card (price = its number), or buy nothing.",
  promptBuyNone: "There is nothing in the market you can buy: buy nothing.",
  promptAuction: "Bid for the wild (one bid each, higher than the high bid), or pass.",
  promptOffer: "Solo: take the wild for its price, or let it go.",
  promptPay: "Pay exactly (a token or card is worth 1), or with bust tokens alone (3 each, no change).",
  draw: "Draw",
  drawNote: "{pile} left",
  stop: "Stop",
  stopKeep: "keep the tableau and choose a prize",
  stopEnd: "end the turn",
  takeNumbers: "Take the numbers",
  numbersNote: "{cards}; then buy",
  numbersOthers: "{cards}; the others gain {n}; then buy",
  takeCurrency: "Take the currency",
  currencyNote: "gain {n} (10 at most); the numbers go to the market",
  buy: "Buy {card}",
  buyNote: "price {price}; you have {tokens}",
  skipBuy: "Buy nothing",
  pass: "Pass",
  passNote: "no bid",
  bidLabel: "Your bid",
  bid: "Bid {n}",
  bidLower: "Lower the bid",
  bidRaise: "Raise the bid",
  bidRange: "Legal bids: {low} to {high}.",
  accept: "Accept",
  acceptNote: "pay {price} for {card}",
  decline: "Decline",
  declineNote: "the wild is discarded",
  payToken: "Pay a token",
  payTokenNote: "worth 1 of {owed}; you have {n}",
  payBust: "Pay a bust token",
  payBustNote: "worth 3 of {owed}; you have {n}",
  payBustLost: "worth 3 of {owed}, {lost} lost; you have {n}",
  payCard: "Pay {card}",
  payCardNote: "worth 1",
  settle: "Pay the least: {pieces}",
  settleNote: "settles {owed} in one tap",
  outcomeLine: "{place}. {who}: {points}, {tokens}, {cards}",
  runs: "runs: {runs}",
  run: "{colour} {from}–{to} = {points}",
  wildsAs: "wilds as {wilds}",
  noRuns: "no runs",
  soloReached: "Solo target {target}: reached.",
  soloMissed: "Solo target {target}: missed.",
  winner: "winner",
};

export const TEN_EVENTS = {
  draw: { you: "You draw {card}.", other: "{who} draws {card}." },
  stop: { you: "You stop drawing.", other: "{who} stops drawing." },
  prize: { you: "You take the {kind}.", other: "{who} takes the {kind}." },
  prizeNumbers: "numbers",
  prizeCurrency: "currency",
  gain: { you: "You gain {tokens}{lost}.", other: "{who} gains {tokens}{lost}." },
  gainLost: " ({n} lost to the cap of 10)",
  bust: "BUST! {who} ({which}): the numbers go to the market{token}.",
  bustNumbers: "numbers − currency reached 11",
  bustCurrency: "currency reached 11",
  bustToken: ", +1 bust token",
  auction: "Wild drawn: {card} goes to auction.",
  bid: { you: "You bid {n}.", other: "{who} bids {n}." },
  pass_bid: { you: "You pass.", other: "{who} passes." },
  auction_won: { you: "You win {card} for {n}.", other: "{who} wins {card} for {n}." },
  wild_discarded: "Nobody takes {card}: it is discarded.",
  offer: "Wild drawn: {card} is offered for {price}.",
  buy: { you: "You buy {card}.", other: "{who} buys {card}." },
  skip_buy: { you: "You buy nothing.", other: "{who} buys nothing." },
  pay: { you: "You pay {piece}{left}.", other: "{who} pays {piece}{left}." },
  payToken: "a token",
  payBust: "a bust token",
  payCard: "a card",
  owed: ", {n} still owed",
  paidInFull: ", paid in full",
  collect: { you: "You collect {card}.", other: "{who} collects {card}." },
  turn: "Turn {turn}: {who}.",
  final_round: "The draw pile is empty: final buy round, starting with {who}.",
};

// Counted nouns: [one, more]. `count(2, "card")` is "2 cards".
export const NOUNS = {
  card: ["{n} card", "{n} cards"],
  token: ["{n} token", "{n} tokens"],
  bustToken: ["{n} bust token", "{n} bust tokens"],
  point: ["{n} point", "{n} points"],
  matchstick: ["{n} matchstick", "{n} matchsticks"],
  star: ["{n} star", "{n} stars"],
  duel: ["{n} duel", "{n} duels"],
  seat: ["{n} seat", "{n} seats"],
};

export const OTHER_EVENT = "{who}: {type}";

/** `template` with each {name} replaced by `params[name]` (left as is when absent). */
export function say(template, params = {}) {
  return template.replace(/\{(\w+)\}/g, (whole, key) => (key in params ? String(params[key]) : whole));
}

/** The form of a {you, other} pair that agrees with `who` (the seat's label), filled in. */
export function agree(pair, who, params = {}) {
  const template = typeof pair === "string" ? pair : who === UI.you ? pair.you : pair.other;
  return say(template, { who, ...params });
}

/** `n` with its noun, singular or plural. */
export function count(n, noun) {
  const forms = NOUNS[noun];
  return say(n === 1 ? forms[0] : forms[1], { n });
}

/** "1st", "2nd", "3rd", "4th". */
export function ordinal(n) {
  const teen = n % 100 >= 10 && n % 100 <= 20;
  const suffix = teen ? "th" : { 1: "st", 2: "nd", 3: "rd" }[n % 10] || "th";
  return `${n}${suffix}`;
}

/** The words for a host error: the code's sentence, else the host's own reason. */
export function errorText(error, game) {
  if (error.code === "illegal_move" && error.detail && REFUSALS[error.detail]) {
    // In English the core's own sentence names the cards involved; the code's sentence is the fallback.
    return error.reason || REFUSALS[error.detail];
  }
  const template = ERRORS[error.code];
  if (!template) return error.reason || error.code;
  return say(template, { reason: error.reason || "" });
}

/** What every client calls each seat (PROTOCOL.md § 7, cardnet.ui.render.seat_labels). */
export function seatLabels(seats, me) {
  const labels = seats.map((info, i) => {
    const name = info && info.name;
    if (i === me) return UI.you;
    if (info && info.kind === "bot") {
      const level = typeof name === "string" && name ? name.replace(/ bot$/, "") : UI.botLevel;
      return say(UI.bot, { seat: i, level });
    }
    if (!info || info.kind === "open" || typeof name !== "string" || !name) return say(UI.seat, { seat: i });
    return name;
  });
  return labels.map((label, i) =>
    label !== UI.you && labels.filter((l) => l === label).length > 1 ? say(UI.sameName, { name: label, seat: i }) : label,
  );
}
