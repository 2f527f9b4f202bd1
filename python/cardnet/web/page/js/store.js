// What the browser keeps between visits: the player's name and language, and per table id the seat token from `welcome`
// (PROTOCOL.md § 7), so a reload takes the seat back.

const NAME_KEY = "cardnet.name";
const LANGUAGE_KEY = "cardnet.language";
const SEAT_PREFIX = "cardnet.seat.";

function storage() {
  try {
    return window.localStorage;
  } catch {
    // Storage can be switched off (private modes, policies): the page still plays, without resuming.
    return null;
  }
}

/** The name typed last time (empty when none). */
export function loadName() {
  const s = storage();
  return (s && s.getItem(NAME_KEY)) || "";
}

export function saveName(name) {
  const s = storage();
  if (s) s.setItem(NAME_KEY, name);
}

/** The language chosen last time on the start page (empty when none). */
export function loadLanguage() {
  const s = storage();
  return (s && s.getItem(LANGUAGE_KEY)) || "";
}

export function saveLanguage(code) {
  const s = storage();
  if (s) s.setItem(LANGUAGE_KEY, code);
}

/** The kept seat of a table: {token, seat, name} or null. */
export function loadSeat(tableId) {
  const s = storage();
  if (!s) return null;
  try {
    const kept = JSON.parse(s.getItem(SEAT_PREFIX + tableId) || "null");
    return kept && typeof kept.token === "string" ? kept : null;
  } catch {
    return null;
  }
}

export function saveSeat(tableId, seat) {
  const s = storage();
  if (s) s.setItem(SEAT_PREFIX + tableId, JSON.stringify(seat));
}

export function forgetSeat(tableId) {
  const s = storage();
  if (s) s.removeItem(SEAT_PREFIX + tableId);
}
