// Cards as SVG images (Adrian Kennard's CC0 faces), named for screen readers.
const RANK_NAMES = { A: "ace", T: "10", J: "jack", Q: "queen", K: "king" };
const SUIT_NAMES = { c: "clubs", d: "diamonds", h: "hearts", s: "spades" };
export const SUIT_SYMBOLS = { c: "♣", d: "♦", h: "♥", s: "♠" };
export const RANKS = "A23456789TJQK";
const SUITS = "cdhs";

export const settings = {
  fourColour: localStorage.getItem("rummylab.fourColour") === "1",
  largeIndex: localStorage.getItem("rummylab.largeIndex") === "1",
};

// "Jk=9h" (a joker or a wild standing for a card) -> ["Jk", "9h"]
export function split(code) {
  const [card, stands] = code.split("=");
  return [card, stands || null];
}

export function cardName(code) {
  const [card, stands] = split(code);
  const base = card === "Jk" ? "joker"
    : `${RANK_NAMES[card[0]] || card[0]} of ${SUIT_NAMES[card[1]]}`;
  return stands ? `${base} as ${cardName(stands)}` : base;
}

export function cardShort(code) {
  const [card, stands] = split(code);
  const base = card === "Jk" ? "Jk" : `${card[0] === "T" ? "10" : card[0]}${SUIT_SYMBOLS[card[1]]}`;
  return stands ? `${base}=${cardShort(stands)}` : base;
}

function file(card) {
  if (card === "back") return "back.svg";
  if (card === "Jk") return "2J.svg";
  return `${card[0].toUpperCase()}${card[1].toUpperCase()}.svg`;
}

export function cardSrc(card) {
  const f = file(card);
  return settings.fourColour && card !== "back" ? `/cards4/${f}` : `/static/cards/${f}`;
}

function colourOf(card) {
  if (card === "Jk") return "";
  const s = card[1];
  if (settings.fourColour) return { d: "blue", c: "green", h: "red", s: "" }[s];
  return s === "d" || s === "h" ? "red" : "";
}

// A card: a <button> when `onClick` is given (or `button`), else a <span role=img>.
export function cardEl(code, opts = {}) {
  const [card, stands] = split(code);
  const el = document.createElement(opts.onClick || opts.button ? "button" : "span");
  el.className = "card";
  if (el.tagName === "BUTTON") {
    el.type = "button";
    el.setAttribute("aria-label", opts.label || cardName(code));
    if (opts.onClick) el.addEventListener("click", opts.onClick);
  } else {
    el.setAttribute("role", "img");
    el.setAttribute("aria-label", opts.label || cardName(code));
  }
  el.dataset.card = code;
  const img = document.createElement("img");
  img.src = cardSrc(card);
  img.alt = "";
  img.draggable = false;
  el.append(img);
  if (card !== "back") {
    const idx = document.createElement("span");
    idx.className = `idx ${colourOf(card)}`;
    idx.setAttribute("aria-hidden", "true");
    idx.textContent = cardShort(card);
    el.append(idx);
  }
  if (stands) {
    const as = document.createElement("span");
    as.className = "as";
    as.setAttribute("aria-hidden", "true");
    as.textContent = `as ${cardShort(stands)}`;
    el.append(as);
  }
  return el;
}

export function backEl(label) { return cardEl("back", { label }); }

export function cardsText(codes) { return codes.map(cardShort).join(" "); }

// Sort by suit then rank (the project's order: clubs, diamonds, hearts, spades; ace low).
export function sortKey(code) {
  const [card] = split(code);
  if (card === "Jk") return 100;
  return SUITS.indexOf(card[1]) * 13 + RANKS.indexOf(card[0]);
}
export function sorted(codes) { return [...codes].sort((a, b) => sortKey(a) - sortKey(b)); }

export function cardsOf(text) {
  if (!text) return [];
  return Array.isArray(text) ? [...text] : text.split(/\s+/).filter(Boolean);
}
