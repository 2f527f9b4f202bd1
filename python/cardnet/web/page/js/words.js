// Every word the page shows, in English, keyed by the protocol's codes and the games' event and move types.
// No other module holds player-facing text. Each string is marked N_ (a counted noun NN_, its singular and plural)
// so that `scripts/i18n.py extract` copies it into the gettext catalogs (msgctxt "web"); `useLanguage` puts the
// host's /words/<lang>.json (the same catalogs, compiled) in place of the English in these tables. Templates
// name their parts in braces ({who}, {card}); `say` fills them in. Verbs agree with "You" through the pair
// {you, other}: "You pick" / "ann picks".

/** Marks a message for extraction; the English itself until a language is loaded. */
function N_(message) {
  return message;
}

/** Marks a counted noun, singular and plural, for extraction (an ngettext entry). */
function NN_(one, other) {
  return [one, other];
}

//: The languages the page speaks, each by its own name (cardnet.i18n.LANGUAGES).
export const LANGUAGES = { en: "English", id: "Bahasa Indonesia", es: "Español", fi: "Suomi" };

export const UI = {
  title: N_("cardnet"),
  language: N_("Language"),
  connecting: N_("Connecting to the table…"),
  connected: N_("Connected"),
  reconnecting: N_("Connection lost; reconnecting (attempt {attempt})…"),
  silent: N_("The host is not answering; reconnecting (attempt {attempt})…"),
  nextTry: N_("Next try in {s} s."),
  tryingNow: N_("Trying now…"),
  tryNow: N_("Try now"),
  closed: N_("Disconnected."),
  nameLabel: N_("Your name"),
  guestName: N_("Guest"),
  passwordLabel: N_("Table password"),
  passwordNeeded: N_("This table needs its password."),
  namePlaceholder: N_("e.g. Ann"),
  join: N_("Join"),
  watch: N_("Watch"),
  rejoin: N_("Take my seat back"),
  joinHint: N_("Join takes the lowest open seat; Watch follows the game without playing."),
  tableLine: N_("{game} at “{table}”: {players} seats"),
  nameEmpty: N_("Type a name first."),
  nameTooLong: N_("A name is at most 32 characters."),
  nameControl: N_("A name cannot hold control characters."),
  seatOpen: N_("open"),
  seatGone: N_("gone"),
  seatAuto: N_("auto"),
  you: N_("You"),
  bot: N_("Bot {seat} · {level}"),
  botLevel: N_("built-in"),
  seat: N_("Seat {seat}"),
  sameName: N_("{name} (seat {seat})"),
  youSit: N_("You sit at seat {seat}."),
  youWatch: N_("You are watching."),
  waitingSeats: N_("Waiting for players: {open} still open."),
  watching: N_("{n} watching"),
  nobodyWatching: N_("nobody watching"),
  // The seats panel: how each seat is held, in the words of the terminal's seats panel.
  seats: N_("Seats"),
  seatYou: N_("you"),
  seatWaiting: N_("open, waiting for a player"),
  seatBuiltIn: N_("built-in player"),
  seatStandIn: N_("gone; a built-in player plays for them"),
  seatConnected: N_("connected"),
  yourTurn: N_("Your turn."),
  yourTurnTimed: N_("Your turn: {s} s left."),
  waitTurn: N_("Waiting for {who}."),
  waitOthers: N_("Waiting for the others."),
  sent: N_("Sent; waiting for the table…"),
  clear: N_("Clear"),
  log: N_("What happened"),
  chat: N_("Chat"),
  chatPlaceholder: N_("Say something"),
  chatLabel: N_("Chat message"),
  chatLimit: N_("Everyone at the table reads the chat, watchers too. Up to {n} characters a message; a few lines in a row, then the host asks you to wait."),
  send: N_("Send"),
  earlier: N_("(earlier)"),
  spectatorTag: N_("(watching)"),
  gameOver: N_("Game over"),
  rematch: N_("Play again"),
  rematchWaiting: N_("Rematch asked by {names}; waiting for {waiting}."),
  rematchStarts: N_("Rematch asked by {names}; it starts now."),
  and: N_("{names} and {last}"),
  newGame: N_("A new game begins."),
  reconnected: N_("Reconnected to the table."),
  replacedStop: N_("This seat is now played from another window or device. Reload to take it back here."),
  hostStopped: N_("The host closed the table."),
  hostStoppedHint: N_("The host closed the table: the game stops here. If the host opens it again, reload this page to take your seat back."),
  badTokenDropped: N_("Your old seat is gone; join again."),
  fullWatch: N_("Every seat is taken: you can watch."),
  noLegal: N_("None of the selected cards can be played together now."),
  rulesTitle: N_("The rules of {game}"),
};

// The host's refusals and fatal errors (PROTOCOL.md § 11), and the core's refusal codes of the two games
// (`detail` of `illegal_move`), as the terminal client words them. Unknown codes fall back to the host's reason.
export const ERRORS = {
  bad_utf8: N_("The host could not read a message: it was not UTF-8."),
  bad_json: N_("The host could not read a message: it was not valid JSON."),
  bad_message: N_("The host could not read a message: {reason}"),
  unknown_type: N_("The host does not know that kind of message."),
  stale_decision: N_("Too late: the table moved on before your move arrived."),
  wrong_seat: N_("It is not your turn."),
  not_started: N_("The game has not started: some seats are still open."),
  game_over: N_("The game is over."),
  spectator: N_("Spectators watch; they cannot move."),
  chat_disabled: N_("Chat is off at this table."),
  chat_too_long: N_("That message is too long."),
  chat_rate: N_("You are chatting too fast; wait a moment."),
  not_over: N_("The game is not over yet."),
  invalid_move: N_("The host could not read that move."),
  illegal_move: N_("That move is not allowed now."),
  table_full: N_("Every seat is taken."),
  no_seat: N_("That seat is not open."),
  bad_token: N_("Your seat token is not valid at this table."),
  replaced: N_("Your seat was taken over by a newer connection."),
  shutting_down: N_("The host is stopping."),
  auth_failed: N_("That password is not this table's."),
  unsupported_version: N_("This host speaks another version of the protocol."),
  handshake_required: N_("The host refused the greeting: {reason}"),
  handshake_timeout: N_("The greeting took too long."),
  idle_timeout: N_("The host heard nothing from this page for too long."),
  rate_limited: N_("Too many messages at once."),
  too_many_errors: N_("Too many malformed messages."),
  line_too_long: N_("A message was too long."),
  internal: N_("The host hit a bug; the table is unchanged."),
};

export const REFUSALS = {
  game_over: N_("The game is over."),
  not_your_turn: N_("It is not your turn."),
  wrong_phase: N_("That move does not fit this moment of the game."),
  not_in_hand: N_("That card is not in your hand."),
  wrong_count: N_("That is the wrong number of cards."),
  plus_one: N_("The +1 rule: you may not play the card one higher than your card in the previous duel."),
  not_in_discard: N_("That card is not in your discard pile."),
  must_discard: N_("Your hand is empty: your turn is to discard one matchstick."),
  no_such_value: N_("That value exists only with the expansion, which is not in play."),
  duplicate_card: N_("The same card is listed twice."),
  not_stronger: N_("Your play must show a stronger value than the table's."),
  cannot_show: N_("That card can never show that value, turned or with matchsticks."),
  bad_detail: N_("The matchsticks or the turning given for a card do not make that value."),
  too_few_matchsticks: N_("You do not have enough matchsticks for this play."),
  illegal_play: N_("This play is not allowed now."),
  not_forced: N_("You discard a matchstick only when your hand is empty: play or pass."),
  must_lead: N_("The table is empty: you lead and must play 1 to 5 cards."),
  // Cherki
  already_drawn: N_("You have already drawn this turn: discard a card."),
  call_with_discard: N_("After drawing, you call Cherki as you discard, not as a move of its own."),
  draw_first: N_("Draw from the stock or take the discard before you discard."),
  no_discard: N_("There is no discard to take: draw from the stock."),
  took_last_turn: N_("You took the discard on your previous turn, so now you must draw from the stock."),
  not_pair_kind: N_("You have called: you may take only a card of your pair kind."),
  already_called: N_("You have already called Cherki this deal."),
  not_ready: N_("Your eight cards are not two triples and a pair, so you cannot call."),
  must_discard_drawn: N_("Your hand is locked: discard the card you drew."),
  just_taken: N_("You cannot discard the card you took from the discard pile this turn."),
  // TEN
  draw_pile_empty: N_("The draw pile is empty: you must stop."),
  empty_tableau: N_("You may stop only with a number or currency card in the tableau: draw."),
  prize_absent: N_("The tableau holds no card of that kind, so that prize is not available."),
  not_in_market: N_("That card is not in the market."),
  duplicate: N_("You already have a number card of that colour and number."),
  cannot_afford: N_("You cannot pay that much."),
  bid_too_low: N_("A bid must be higher than the highest bid so far."),
  no_tokens: N_("You have no currency tokens."),
  no_bust_tokens: N_("You have no bust tokens."),
  card_being_paid_for: N_("You cannot pay with the card you are buying."),
  not_in_collection: N_("That card is not in your collection."),
  overpayment: N_("A bust token now would pay more than the price while a piece already paid was not needed."),
  not_minimal: N_("After this piece, what you have left could no longer pay the rest exactly."),
};

export const GAMES = {
  fistful: N_("A Fistful of Gold"),
  matchstick: N_("Matchstick Tycoon"),
  cherki: N_("Cherki"),
  ten: N_("TEN"),
};

export const FISTFUL = {
  heading: N_("Round {round}, duel {duel} of {duels}"),
  length: N_("{length} match: first to {stars}"),
  short: N_("short"),
  long: N_("long"),
  stars: N_("Stars"),
  gold: N_("Gold"),
  pot: N_("Pot"),
  pink: N_("Pink"),
  green: N_("Green"),
  dynamite: N_("Dynamite"),
  dynamiteShort: N_("D"),
  noCard: N_("no card yet"),
  sizes: N_("hand {hand}, discards {discards}"),
  hasPicked: N_("has picked"),
  barred: N_("barred"),
  barredLine: N_("Barred by the +1 rule: {whose} {card}"),
  your: N_("your"),
  whose: N_("{name}'s"),
  lastDuel: N_("Last duel ({duel}): {a} vs {b}"),
  nothingHappens: N_("nothing happens"),
  yourHand: N_("Your hand ({colour})"),
  yourPile: N_("Your discard pile: take one back"),
  pile: N_("Discard pile: {cards}"),
  yourPick: N_("Your pick: {card}"),
  sixPlayed: N_("a 6 was played (no more pot taking)"),
  green7At: N_("Green 7 played by {who} in duel {duel} (+1 per duel won after it)"),
  retrievedNote: N_("{who} took back {card} (Green 8)"),
  promptSetup: N_("Setup: discard 2 of your 9 cards face down; you keep 7 for round 1."),
  promptPick: N_("Pick your card for duel {duel}; both cards are revealed together."),
  promptRetrieve: N_("Green 8: take one card back from your discard pile (your opponent sees it)."),
  promptRoundEnd: N_("The round ended early: discard unplayed cards face down, then take back the played ones."),
  chooseDiscard: N_("Tap {n} to discard ({k} chosen)."),
  choosePick: N_("Tap the card to play."),
  chooseRetrieve: N_("Tap the card to take back."),
  offerPick: N_("Play {card}"),
  offerDiscard: N_("Discard {cards}"),
  offerRetrieve: N_("Take back {card}"),
  and: N_(" and "),
  noteSixPot: N_("first 6 takes the pot ({pot} gold)"),
  noteSixNoPot: N_("a 6 was already played: no pot"),
  notePink7Now: N_("Pink 7: ends the round after this duel"),
  notePink7Later: N_("Pink 7: ends the round from duel 3"),
  noteBars: N_("bars your {next} next duel"),
  specialDynamite: N_("Dynamite: beats 1-4, loses to 5-8, the winner gets 3"),
  specialSix: N_("the round's first 6 takes the pot"),
  specialPink7: N_("Pink 7: ends the round from duel 3"),
  specialGreen7: N_("Green 7: +1 gold per later duel won"),
  specialPink8: N_("Pink 8: wins 3 against a 1"),
  specialGreen8: N_("Green 8: take a discard back, discard 2 at round end"),
  outcomeLine: N_("{place}. {who} ({colour}): {stars}"),
  winner: N_("winner"),
  drawNoDuels: N_("No duel was left to play, and the stars were equal: a draw."),
};

export const FISTFUL_STEPS = {
  tie: N_("tie: 2 gold into the pot (pot {pot})"),
  base: { you: N_("You win {gold} gold"), other: N_("{who} wins {gold} gold") },
  pink8: { you: N_("Pink 8 beats the 1: You win {gold} gold instead"), other: N_("Pink 8 beats the 1: {who} wins {gold} gold instead") },
  green7_bonus: { you: N_("Green 7 bonus: You get {gold} more gold"), other: N_("Green 7 bonus: {who} gets {gold} more gold") },
  six_takes_pot: { you: N_("first 6: You take the pot ({gold} gold)"), other: N_("first 6: {who} takes the pot ({gold} gold)") },
  six_takes_empty: { you: N_("first 6: You take the pot, but it is empty"), other: N_("first 6: {who} takes the pot, but it is empty") },
  green8_retrieve: { you: N_("Green 8: You take back {card}"), other: N_("Green 8: {who} takes back {card}") },
  pink7_end: N_("Pink 7 in duel 3 or later: the round ends"),
};

export const FISTFUL_EVENTS = {
  pick_card: { you: N_("You pick {card}."), other: N_("{who} picks {card}.") },
  pick_hidden: { you: N_("You have picked a card."), other: N_("{who} has picked a card.") },
  discard_cards: { you: N_("You discard {cards} face down ({when})."), other: N_("{who} discards {cards} face down ({when}).") },
  discard_count: { you: N_("You discard {count} face down ({when})."), other: N_("{who} discards {count} face down ({when}).") },
  setup: N_("setup"),
  round_end: N_("round end"),
  forced: N_(", forced"),
  reveal: N_("Duel {duel}: {a} {ca} vs {b} {cb}"),
  round_end_star: { you: N_("Round {round} over, gold {gold}: You win a sheriff star. Stars: {stars}."), other: N_("Round {round} over, gold {gold}: {who} wins a sheriff star. Stars: {stars}.") },
  round_end_none: N_("Round {round} over, gold {gold}: equal gold, no star. Stars: {stars}."),
  take_back: N_("Played cards go back to hand (hands: {a} and {b} cards)."),
  round_start: N_("Round {round} begins: {duels}."),
};

export const MATCHSTICK = {
  normalOrder: N_("normal order: F is the strongest"),
  revolution: N_("REVOLUTION"),
  revolutionOrder: N_("0 is the strongest"),
  pile: N_("pile {n}"),
  trick: N_("Trick"),
  trickPlay: { you: N_("you played {count} × {value}"), other: N_("{who} played {count} × {value}") },
  trickSticks: N_(" with {n}"),
  trickEmpty: { you: N_("empty: You lead"), other: N_("empty: {who} leads") },
  trickEmptyNobody: N_("empty"),
  legend: N_("~ turned card; orange sticks: added matchsticks"),
  seatCounts: N_("{cards}, {sticks}"),
  passed: N_("passed"),
  out: N_("out"),
  outPlace: N_("out ({place})"),
  yourHand: N_("Your hand ({cards}, {sticks})"),
  chooseCards: N_("Tap the cards to play together."),
  offerPlay: N_("Play {value}"),
  offerPass: N_("Pass (take a matchstick)"),
  offerDiscard: N_("Discard a matchstick"),
  turned: N_("turned"),
  noteSticks: N_("{n}"),
  outcomeLine: N_("{place}. {who}"),
  winner: N_("winner"),
};

export const MATCHSTICK_EVENTS = {
  play: { you: N_("You play {count} × {value}{sticks} (cards {cards})."), other: N_("{who} plays {count} × {value}{sticks} (cards {cards}).") },
  sticks: N_(" with {n}"),
  pass: { you: N_("You pass and take a matchstick (now {n})."), other: N_("{who} passes and takes a matchstick (now {n}).") },
  discard_matchstick: { you: N_("You discard a matchstick ({n} left)."), other: N_("{who} discards a matchstick ({n} left).") },
  revolution_on: N_("Revolution! 0 is now the strongest."),
  revolution_off: N_("Order restored: F is the strongest."),
  went_out: { you: N_("You go out ({place})."), other: N_("{who} goes out ({place}).") },
  trick_cleared: N_("Trick over."),
  trick_leader: { you: N_("Trick over. You lead."), other: N_("Trick over. {who} leads.") },
};

export const CHERKI = {
  heading: N_("Deal {deal} of {deals}, dealer {dealer}"),
  stock: N_("Stock: {n}"),
  called: N_("CALLED"),
  score: N_("score {n}"),
  lastDeal: N_("Last deal:"),
  dealWon: { you: N_("You won deal {deal} by {how}, total {total} ({gain})"), other: N_("{who} won deal {deal} by {how}, total {total} ({gain})") },
  dealDrawn: N_("Deal {deal} was drawn (the stock ran out): nobody paid"),
  byTake: N_("taking the discard"),
  byDraw: N_("drawing from the stock"),
  topDiscard: N_("Top discard:"),
  from: N_("from {who}"),
  mayTake: N_("it may be taken"),
  cannotTake: N_("it cannot be taken"),
  youMayNotTake: N_("you may not take it now"),
  noTop: N_("No discard to take: draw from the stock."),
  discards: N_("Discards"),
  discardsOlder: N_("Discards ({n} older, then)"),
  takenBy: { you: N_("{who}, taken by you"), other: N_("{who}, taken by {taker}") },
  yourHand: N_("Your hand ({cards}, by kind)"),
  kindCount: N_("{kind} ×{n}"),
  drawn: N_("new"),
  towards: N_("Towards a call:"),
  triples: N_("triples {n} of 2"),
  pairs: N_("pairs {n} of 1"),
  locked: N_("You called Cherki: you win with any {kind} you draw or take."),
  ready: N_("Ready: two triples and a pair of {kind}"),
  mayCallNow: N_(" – you may call now."),
  readyAfter: N_("Ready after discarding {cards}: you may call as you discard."),
  notReadyDrawn: N_("Not ready: no discard makes two triples and a pair."),
  notReady: N_("Not ready: you need two triples and a pair to call."),
  offerDraw: N_("Draw from the stock"),
  stockLeft: N_("{n} left"),
  offerTake: N_("Take {card}"),
  wins: N_(": completes your hand, you win"),
  offerCall: N_("Call Cherki"),
  callNote: N_("lock your hand, then win with any {kind}"),
  offerDiscard: N_("Discard {card}"),
  offerDiscardCall: N_("Discard {card} and call Cherki"),
  justDrawn: N_("just drawn"),
  chooseDiscard: N_("Tap the card to discard."),
  numberCard: N_("{rank} {suit}"),
  stamp: N_("*"),
  suits: { coins: N_("Coins"), strings: N_("Strings"), myriads: N_("Myriads") },
  suitShort: { coins: N_("C"), strings: N_("S"), myriads: N_("M") },
  kinds: { "white-flower": N_("White Flower"), "red-flower": N_("Red Flower"), "old-thousand": N_("Old Thousand") },
  honourShort: { "white-flower": N_("WF"), "red-flower": N_("RF"), "old-thousand": N_("OT") },
  outcomeLine: N_("{place}. {who}: {points} points"),
  winner: N_("winner"),
  drawGame: N_("Every score is 0: the game is a draw."),
};

export const CHERKI_EVENTS = {
  draw_card: { you: N_("You draw {card} ({n} left in the stock)."), other: N_("{who} draws {card} ({n} left in the stock).") },
  draw_hidden: { you: N_("You draw from the stock ({n} left)."), other: N_("{who} draws from the stock ({n} left).") },
  take_discard: { you: N_("You take {card}, discarded by {from}."), other: N_("{who} takes {card}, discarded by {from}.") },
  discard: { you: N_("You discard {card}."), other: N_("{who} discards {card}.") },
  call: { you: N_("You call Cherki!"), other: N_("{who} calls Cherki!") },
  win: {
    you: N_("You win deal {deal} by {how}, completing the {pair}s. {cards}. Total {total}: {pays}."),
    other: N_("{who} wins deal {deal} by {how}, completing the {pair}s. {cards}. Total {total}: {pays}."),
  },
  gets: { you: N_("You get {n}"), other: N_("{who} gets {n}") },
  pays: { you: N_("You pay {n}"), other: N_("{who} pays {n}") },
  deal_drawn: N_("The stock ran out: deal {deal} is drawn, nobody pays."),
  new_deal: N_("Deal {deal} is dealt, dealer {dealer}."),
};

export const TEN = {
  colours: { red: N_("red"), blue: N_("blue"), orange: N_("orange"), green: N_("green") },
  number: N_("{colour} {value}"),
  colourWild: N_("{colour} wild (any number)"),
  numberWild: N_("wild {value} (any colour)"),
  anyWild: N_("wild (any colour and number)"),
  currency: N_("currency {value}"),
  head: N_("Turn {turn}: {who} · draw pile {pile} · discards {discards}"),
  headTop: N_(" · top "),
  solo: N_("Solo (house rules): reach {target} points to win."),
  tableau: N_("Tableau"),
  empty: N_("empty"),
  sums: N_("Numbers − currency {diff}, currency {currency}: either one reaching 11 busts."),
  safe: N_("Safe next card: {number}, {currency}."),
  anyNumber: N_("any number"),
  anyCurrency: N_("any currency"),
  numberUpTo: N_("a number up to {n}"),
  currencyUpTo: N_("a currency up to {n}"),
  noNumber: N_("no number"),
  noCurrency: N_("no currency"),
  risk: N_("Next draw: {busting} of {unseen} cards left would bust you ({share}%)."),
  riskCounting: N_("Next draw: counting the cards left…"),
  market: N_("Market (price = number)"),
  players: N_("Players (points: what each collection scores now)"),
  seatLine: N_("{points} · {tokens} · {busts}"),
  noCards: N_("no cards"),
  auction: N_("Auction of"),
  highBid: N_("high bid {bid} by {who}"),
  noBid: N_("no bid yet"),
  auctionOrder: N_("One bid each ({order}); now {who}."),
  offer: N_("Offer:"),
  offerPrice: N_("for {price} (accept or decline)."),
  payment: { you: N_("You owe {owed} for"), other: N_("{who} owes {owed} for") },
  paymentOf: N_("({purpose}, price {price}, paid {paid})."),
  purposes: { buy: N_("a purchase"), final_buy: N_("a final purchase"), auction: N_("an auction win"), solo_wild: N_("a wild") },
  paidSoFar: N_("Paid so far:"),
  finalRound: N_("Final buy round ({order}): now {who}."),
  promptDraw: N_("Draw another card, or stop and take a prize."),
  promptPrize: N_("Choose your prize: the numbers (then buy one card) or the currency."),
  promptBuy: N_("Buy one market card (price = its number), or buy nothing."),
  promptBuyNone: N_("There is nothing in the market you can buy: buy nothing."),
  promptAuction: N_("Bid for the wild (one bid each, higher than the high bid), or pass."),
  promptOffer: N_("Solo: take the wild for its price, or let it go."),
  promptPay: N_("Pay exactly (a token or card is worth 1), or with bust tokens alone (3 each, no change)."),
  draw: N_("Draw"),
  drawNote: N_("{pile} left"),
  stop: N_("Stop"),
  stopKeep: N_("keep the tableau and choose a prize"),
  stopEnd: N_("end the turn"),
  takeNumbers: N_("Take the numbers"),
  numbersNote: N_("{cards}; then buy"),
  numbersOthers: N_("{cards}; the others gain {n}; then buy"),
  takeCurrency: N_("Take the currency"),
  currencyNote: N_("gain {n} (10 at most); the numbers go to the market"),
  buy: N_("Buy {card}"),
  buyNote: N_("price {price}; you have {tokens}"),
  skipBuy: N_("Buy nothing"),
  pass: N_("Pass"),
  passNote: N_("no bid"),
  bidLabel: N_("Your bid"),
  bid: N_("Bid {n}"),
  bidLower: N_("Lower the bid"),
  bidRaise: N_("Raise the bid"),
  bidRange: N_("Legal bids: {low} to {high}."),
  accept: N_("Accept"),
  acceptNote: N_("pay {price} for {card}"),
  decline: N_("Decline"),
  declineNote: N_("the wild is discarded"),
  payToken: N_("Pay a token"),
  payTokenNote: N_("worth 1 of {owed}; you have {n}"),
  payBust: N_("Pay a bust token"),
  payBustNote: N_("worth 3 of {owed}; you have {n}"),
  payBustLost: N_("worth 3 of {owed}, {lost} lost; you have {n}"),
  payCard: N_("Pay {card}"),
  payCardNote: N_("worth 1"),
  settle: N_("Pay the least: {pieces}"),
  settleNote: N_("settles {owed} in one tap"),
  outcomeLine: N_("{place}. {who}: {points}, {tokens}, {cards}"),
  runs: N_("runs: {runs}"),
  run: N_("{colour} {from}–{to} = {points}"),
  wildsAs: N_("wilds as {wilds}"),
  noRuns: N_("no runs"),
  soloReached: N_("Solo target {target}: reached."),
  soloMissed: N_("Solo target {target}: missed."),
  winner: N_("winner"),
};

export const TEN_EVENTS = {
  draw: { you: N_("You draw {card}."), other: N_("{who} draws {card}.") },
  stop: { you: N_("You stop drawing."), other: N_("{who} stops drawing.") },
  prize: { you: N_("You take the {kind}."), other: N_("{who} takes the {kind}.") },
  prizeNumbers: N_("numbers"),
  prizeCurrency: N_("currency"),
  gain: { you: N_("You gain {tokens}{lost}."), other: N_("{who} gains {tokens}{lost}.") },
  gainLost: N_(" ({n} lost to the cap of 10)"),
  bust: N_("BUST! {who} ({which}): the numbers go to the market{token}."),
  bustNumbers: N_("numbers − currency reached 11"),
  bustCurrency: N_("currency reached 11"),
  bustToken: N_(", +1 bust token"),
  auction: N_("Wild drawn: {card} goes to auction."),
  bid: { you: N_("You bid {n}."), other: N_("{who} bids {n}.") },
  pass_bid: { you: N_("You pass."), other: N_("{who} passes.") },
  auction_won: { you: N_("You win {card} for {n}."), other: N_("{who} wins {card} for {n}.") },
  wild_discarded: N_("Nobody takes {card}: it is discarded."),
  offer: N_("Wild drawn: {card} is offered for {price}."),
  buy: { you: N_("You buy {card}."), other: N_("{who} buys {card}.") },
  skip_buy: { you: N_("You buy nothing."), other: N_("{who} buys nothing.") },
  pay: { you: N_("You pay {piece}{left}."), other: N_("{who} pays {piece}{left}.") },
  payToken: N_("a token"),
  payBust: N_("a bust token"),
  payCard: N_("a card"),
  owed: N_(", {n} still owed"),
  paidInFull: N_(", paid in full"),
  collect: { you: N_("You collect {card}."), other: N_("{who} collects {card}.") },
  turn: N_("Turn {turn}: {who}."),
  final_round: N_("The draw pile is empty: final buy round, starting with {who}."),
};

// Counted nouns: [one, more] in English, as many forms as the language has once loaded. `count(2, "card")` is
// "2 cards".
export const NOUNS = {
  card: NN_("{n} card", "{n} cards"),
  token: NN_("{n} token", "{n} tokens"),
  bustToken: NN_("{n} bust token", "{n} bust tokens"),
  point: NN_("{n} point", "{n} points"),
  matchstick: NN_("{n} matchstick", "{n} matchsticks"),
  star: NN_("{n} star", "{n} stars"),
  duel: NN_("{n} duel", "{n} duels"),
  seat: NN_("{n} seat", "{n} seats"),
};

// A finishing place in languages other than English ("{n}." in Finnish), as the terminal client words it.
const ORDINAL = { text: N_("{n}th") };

const TABLES = {
  UI, ERRORS, REFUSALS, GAMES, FISTFUL, FISTFUL_STEPS, FISTFUL_EVENTS, MATCHSTICK, MATCHSTICK_EVENTS, CHERKI,
  CHERKI_EVENTS, TEN, TEN_EVENTS, NOUNS, ORDINAL,
};
const ENGLISH = structuredClone(TABLES);
let language = "en";
let plural = new Intl.PluralRules("en");

/** The language the page speaks now. */
export function currentLanguage() {
  return language;
}

/** The language to start in: the one chosen before (`saved`), else the browser's first that the page speaks. */
export function preferredLanguage(saved, wanted = navigator.languages || [navigator.language]) {
  if (saved && saved in LANGUAGES) return saved;
  for (const tag of wanted) {
    const code = String(tag || "").toLowerCase().split(/[-_]/)[0];
    const known = code === "in" ? "id" : code;
    if (known in LANGUAGES) return known;
  }
  return "en";
}

// Each English string of `english` replaced, in `target`, by its translation in `table` (kept when missing).
function translate(target, english, table) {
  for (const [key, value] of Object.entries(english)) {
    if (Array.isArray(value)) {
      const forms = table[value[0]];
      target[key] = Array.isArray(forms) && forms.length ? forms : [...value];
    } else if (value && typeof value === "object") {
      translate(target[key], value, table);
    } else {
      const text = table[value];
      target[key] = typeof text === "string" && text ? text : value;
    }
  }
}

/** Speak `lang`: fetch its words from the host (nothing for English) and put them in every table. Resolves to
 * the language now spoken: English when the host has no words for `lang` or cannot be reached. */
export async function useLanguage(lang) {
  let table = {};
  let spoken = "en";
  if (lang !== "en" && lang in LANGUAGES) {
    try {
      const response = await fetch(`words/${lang}.json`);
      if (response.ok) {
        table = await response.json();
        spoken = lang;
      }
    } catch {
      // The host's words could not be had: the page stays readable in English.
    }
  }
  translate(TABLES, ENGLISH, table || {});
  language = spoken;
  plural = new Intl.PluralRules(spoken);
  return spoken;
}

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
  // The catalog's forms are in gettext's order, which for these languages is CLDR's: "one", ("many",) "other".
  // Indonesian has one form; Spanish a third for round millions ("1 000 000 de cartas").
  const forms = NOUNS[noun];
  const category = plural.select(n);
  const last = forms.length - 1;
  const index = category === "one" ? 0 : category === "many" && forms.length === 3 ? 1 : last;
  return say(forms[Math.min(index, last)], { n });
}

/** "1st", "2nd", "3rd", "4th" in English; the language's own form otherwise ("1." in Finnish). */
export function ordinal(n) {
  if (language !== "en") return say(ORDINAL.text, { n });
  const teen = n % 100 >= 10 && n % 100 <= 20;
  const suffix = teen ? "th" : { 1: "st", 2: "nd", 3: "rd" }[n % 10] || "th";
  return `${n}${suffix}`;
}

/** The words for a host error: the code's sentence, else the host's own reason. */
export function errorText(error, game) {
  if (error.code === "illegal_move" && error.detail && REFUSALS[error.detail]) {
    // In English the core's own sentence names the cards involved; the code's sentence is the fallback, and
    // the only words in other languages (the core speaks English).
    return (language === "en" && error.reason) || REFUSALS[error.detail];
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
