// Each game's part of the table: its centre, its moves, its words and its results.
// Gin and three-player Gin share one; Three Thirteen and Manipulation have theirs.
import { h } from "./table.js";
import { backEl, cardEl, cardName, cardShort, cardsOf, cardsText } from "./cards.js";
import { say } from "./live.js";
import { manipulation } from "./manipulation.js";

const TITLES = { gin: "Gin Rummy", gin3: "Three-player Gin", "three-thirteen": "Three Thirteen",
                 manipulation: "Manipulation" };

function cardOf(move) { const w = move.split(" "); return w[w.length - 1]; }
function top(pileText) { const p = cardsOf(pileText); return p.length ? p[p.length - 1] : null; }

// the discard-and-draw games (Gin, three-player Gin, Three Thirteen) share their frame
function drawGame(spec) {
  return {
    dealWord: spec.dealWord,
    keys: spec.keys,
    title: (v) => TITLES[v.game] || v.game,
    roundKey: spec.roundKey,

    moveText(ctx, seat, text) {
      const t = text.toLowerCase();
      if (t === "draw stock") return "drew from the stock";
      if (t === "take discard") return "took the discard";
      if (t === "pass") return "passed";
      if (t === "big gin") return "went big gin";
      if (t.startsWith("discard ")) return `discarded ${cardShort(cardOf(text))}`;
      if (t.startsWith("knock ")) return `knocked, discarding ${cardShort(cardOf(text))}`;
      if (t.startsWith("go out ")) return `went out, discarding ${cardShort(cardOf(text))}`;
      return text;
    },

    // what this seat may do: its legal moves, or (a three-player Gin sitter) its advice
    moves(ctx) {
      const v = ctx.view;
      // the sitter is shown the captain's legal moves: its advice is one of them
      if (spec.adviceMoves && v.role === "sitter" && !v.terminal && v.to_act === v.hand_seat) {
        return { kind: "advise", list: v.legal && v.legal.length ? v.legal : spec.adviceMoves(ctx) };
      }
      if (v.legal && v.legal.length) return { kind: "act", list: v.legal };
      return { kind: "watch", list: [] };
    },

    send(ctx, move) {
      const m = this.moves(ctx);
      if (!m.list.some((x) => x.toLowerCase() === move.toLowerCase())) return false;
      ctx.act(move, m.kind);
      return true;
    },

    selectedNote(ctx, card) {
      const after = ctx.arrangement && ctx.arrangement.after_discard;
      return after && card in after ? ` Discarding it leaves ${ctx.arrangement.word} ${after[card]}.` : "";
    },

    summary(ctx) {
      const v = ctx.view;
      const arr = ctx.arrangement;
      const parts = [spec.roundText(v)];
      const pile = top(v.discard_pile);
      if (pile) parts.push(`Discard pile: ${cardShort(pile)}.`);
      if (arr) parts.push(`${arr.word[0].toUpperCase()}${arr.word.slice(1)} ${arr.points}.`);
      return parts.join(" ");
    },

    prompt(ctx) {
      const m = this.moves(ctx).list.map((x) => x.toLowerCase());
      if (!m.length) return "";
      const words = [];
      if (m.includes("take discard")) words.push("take the discard");
      if (m.includes("draw stock")) words.push("draw from the stock");
      if (m.includes("pass")) words.push("pass");
      if (m.some((x) => x.startsWith("discard"))) words.push("discard a card");
      if (m.some((x) => x.startsWith("knock"))) words.push("knock");
      if (m.some((x) => x.startsWith("go out"))) words.push("go out");
      if (m.includes("big gin")) words.push("go big gin");
      // "a, b or c"
      const said = words.length > 1 ? `${words.slice(0, -1).join(", ")} or ${words[words.length - 1]}` : words[0];
      return `Your ${this.moves(ctx).kind === "advise" ? "advice" : "move"}: ${said}.`;
    },

    onKey(ctx, e) {
      const k = e.key.toLowerCase();
      const m = this.moves(ctx).list;
      const sel = ctx.selected;
      const tryMove = (mv) => (mv ? this.send(ctx, mv) : false);
      if (k === "s") return tryMove(m.find((x) => x === "draw stock"));
      if (k === "t") return tryMove(m.find((x) => x === "take discard"));
      if (k === "p") return tryMove(m.find((x) => x === "pass"));
      if (k === "g") return tryMove(m.find((x) => x === "big gin"));
      // Enter on a focused control is that control's own (a card clicked again discards)
      const onControl = e.target && e.target.closest && e.target.closest("button, a, summary");
      if ((k === "d" || (k === "enter" && !onControl)) && sel) return tryMove(m.find((x) => x === `discard ${sel}`));
      if (k === spec.outKey) {
        const outs = m.filter((x) => x.startsWith(spec.outWord));
        if (sel && outs.includes(`${spec.outWord} ${sel}`)) return tryMove(`${spec.outWord} ${sel}`);
        return tryMove(bestOf(ctx, outs));
      }
      return false;
    },

    render(ctx, play) {
      const v = ctx.view;
      const m = this.moves(ctx);
      const seats = h("section", { "aria-label": "Other seats" });
      ctx.renderSeats(seats, (seat) => spec.seatExtra(ctx, seat));
      play.append(seats);
      if (spec.banner) { const b = spec.banner(ctx); if (b) play.append(b); }

      // the stock and the discard pile
      const centre = h("div", { class: "centre" });
      if (!v.terminal && v.stock_size !== undefined) {
        const canDraw = m.list.includes("draw stock");
        const stock = backEl(`Stock, ${v.stock_size} cards${canDraw ? ": draw from it" : ""}`);
        const stockBtn = h("button", { type: "button", class: "card", id: "stock",
                                       "aria-label": `Draw from the stock (${v.stock_size} cards left)`,
                                       disabled: !canDraw || undefined,
                                       onclick: () => this.send(ctx, "draw stock") });
        stockBtn.append(...stock.childNodes);
        centre.append(h("div", { class: "pile" }, stockBtn, h("span", { class: "count", text: `stock ${v.stock_size}` })));
        const upcard = top(v.discard_pile);
        const canTake = m.list.includes("take discard");
        if (upcard) {
          const b = cardEl(upcard, { button: true, label: `Take ${cardName(upcard)} from the discard pile`,
                                     onClick: () => this.send(ctx, "take discard") });
          b.id = "pile";
          if (!canTake) b.disabled = true;
          centre.append(h("div", { class: "pile" }, b,
                          h("span", { class: "count", text: `discard pile ${cardsOf(v.discard_pile).length}` })));
        } else {
          centre.append(h("div", { class: "pile" }, h("span", { class: "count", text: "discard pile empty" })));
        }
      }
      play.append(centre);

      // the status: whose turn, the points of the hand, what may be done
      const arr = ctx.arrangement;
      const status = h("p", { class: "status", id: "status" });
      if (v.terminal) status.append("The match is over.");
      else if (m.kind === "act") status.append(h("strong", { text: "Your turn. " }), this.prompt(ctx).replace(/^Your move: /, "You may "));
      else if (m.kind === "advise") status.append(h("strong", { text: "Advise the captain. " }), this.prompt(ctx).replace(/^Your advice: /, "You may advise: "));
      else status.append(v.to_act >= 0 ? `Waiting for ${ctx.seatName(v.to_act, false)}.` : "");
      if (arr) {
        const after = arr.after_discard ? Math.min(...Object.values(arr.after_discard)) : null;
        status.append(h("span", { id: "points", text: ` ${arr.word[0].toUpperCase()}${arr.word.slice(1)} ${arr.points}` +
                                  (after !== null ? `; ${after} after the best discard.` : ".") }));
        if (spec.pointsNote) { const note = spec.pointsNote(ctx, after); if (note) status.append(note); }
      }
      play.append(status);

      // the hand
      const cards = cardsOf(v.hand);
      if (cards.length) {
        const heading = v.hand_seat !== undefined && v.hand_seat !== v.seat ? "The captain's hand" : "Your hand";
        const box = h("section", { "aria-label": heading });
        const mine = m;
        const orig = ctx.select.bind(ctx);
        const clickCard = (code) => {
          const mv = mine.list.find((x) => x === `discard ${code}`);
          if (ctx.selected === code && mv) this.send(ctx, mv);
          else orig(code);
        };
        const saved = ctx.handButtons.bind(ctx);
        ctx.handButtons = (codes, opts = {}) => saved(codes, { ...opts, onClick: clickCard });
        ctx.renderHand(box, heading, cards);
        ctx.handButtons = saved;
        play.append(box);
      } else if (!v.terminal && v.seat !== null) {
        play.append(h("p", { class: "muted", text: spec.noHand(ctx) }));
      }

      // the moves as buttons: those without a card, the selected card's, the best knock
      const bar = h("div", { class: "actions", role: "group", "aria-label": m.kind === "advise" ? "Advice" : "Moves" });
      const verb = m.kind === "advise" ? "Advise: " : "";
      const btn = (mv, label, primary, key) => ctx.actionButton(mv, `${verb}${label}${key ? ` (${key})` : ""}`,
                                                                { primary, kind: m.kind, id: `move-${mv.replaceAll(" ", "-")}` });
      const up = top(v.discard_pile);
      for (const mv of m.list) {
        if (mv === "draw stock") bar.append(btn(mv, "Draw from the stock", false, "s"));
        else if (mv === "take discard") bar.append(btn(mv, up ? `Take ${cardShort(up)}` : "Take the discard", false, "t"));
        else if (mv === "pass") bar.append(btn(mv, "Pass", false, "p"));
        else if (mv === "big gin") bar.append(btn(mv, "Big gin!", true, "g"));
      }
      const after = (arr && arr.after_discard) || {};
      if (ctx.selected) {
        const c = ctx.selected;
        if (m.list.includes(`discard ${c}`)) {
          bar.append(btn(`discard ${c}`, `Discard ${cardShort(c)}${c in after ? ` (leaves ${after[c]})` : ""}`, true, "d"));
        }
        if (m.list.includes(`${spec.outWord} ${c}`)) bar.append(btn(`${spec.outWord} ${c}`, spec.outLabel(c, after[c]), true, spec.outKey));
      }
      const outs = m.list.filter((x) => x.startsWith(spec.outWord));
      const best = bestOf(ctx, outs);
      if (best && (!ctx.selected || best !== `${spec.outWord} ${ctx.selected}`)) {
        const c = cardOf(best);
        bar.append(btn(best, spec.outLabel(c, after[c]), true, ctx.selected ? null : spec.outKey));
      }
      if (m.list.some((x) => x.startsWith("discard")) && !ctx.selected) {
        bar.append(h("span", { class: "muted", id: "discard-help",
                               text: "Select a card (click it, or ← →), then Discard (d or Enter, or click the card again)." }));
      }
      if (m.kind === "act") bar.append(h("button", { type: "button", id: "hint-button", onclick: () => ctx.askHint() }, "Hint (h)"));
      play.append(bar);
      if (spec.after) spec.after(ctx, play);
    },

    resultHeading: (ctx, res) => spec.resultHeading(res),
    resultLabel: (ctx, res) => spec.resultLabel(res),
    resultText: (ctx, res) => spec.resultText(ctx, res),
    renderResult: (ctx, box, res) => spec.renderResult(ctx, box, res),
    scoreNote: spec.scoreNote,
  };
}

// the legal knock (or going out) that leaves the fewest points
function bestOf(ctx, moves) {
  if (!moves.length) return null;
  const after = (ctx.arrangement && ctx.arrangement.after_discard) || {};
  return [...moves].sort((a, b) => (after[cardOf(a)] ?? 99) - (after[cardOf(b)] ?? 99))[0];
}

function meldRow(label, melds, loose, extra) {
  const row = h("div", { class: "row" }, h("span", { text: label }));
  for (const m of melds) {
    const g = h("div", { class: "group meld", role: "group", "aria-label": `meld ${cardsOf(m).map(cardName).join(", ")}` });
    for (const c of cardsOf(m)) g.append(cardEl(c));
    row.append(g);
  }
  const l = cardsOf(loose);
  if (l.length) {
    const g = h("div", { class: "group", role: "group", "aria-label": `unmatched ${l.map(cardName).join(", ")}` });
    for (const c of l) g.append(cardEl(c));
    row.append(g);
  }
  if (extra) row.append(extra);
  return row;
}

// -- Gin and three-player Gin ------------------------------------------------
const OUTCOMES = { gin: "gin", big_gin: "big gin", knock: "a knock", undercut: "an undercut", drawn: "a drawn hand" };

const gin = drawGame({
  dealWord: "Hand",
  keys: [["s", "draw from the stock"], ["t", "take the discard"], ["p", "pass"],
         ["Enter / d", "discard the chosen card"], ["k", "knock (with the chosen card, or the best)"],
         ["g", "big gin"]],
  outWord: "knock", outKey: "k",
  outLabel: (c, left) => (left === 0 ? `Gin! discarding ${cardShort(c)}` : `Knock, discarding ${cardShort(c)}${left !== undefined ? ` (deadwood ${left})` : ""}`),
  roundKey: (v) => `hand ${v.hand_number}`,
  roundText: (v) => `Hand ${v.hand_number}.`,
  noHand: (ctx) => (ctx.view.role === "box" ? "You sit out this hand as the box: you play the winner of it." : "No hand."),
  seatExtra(ctx, seat) {
    const v = ctx.view;
    const bits = [];
    if (v.roles && v.roles.length > 2) bits.push(v.roles[seat]);
    bits.push(`score ${v.scores[seat]}`);
    const out = h("span", { class: "muted", text: bits.join(" · ") });
    const opponent = v.players.length === 2 ? 1 - v.seat : null;
    if (seat === opponent && v.opponent_hand_size) {
      const backs = h("span", { class: "opp-hand", role: "img", "aria-label": `${v.opponent_hand_size} cards in hand` });
      for (let i = 0; i < v.opponent_hand_size; i++) backs.append(backEl("card"));
      backs.querySelectorAll(".card").forEach((c) => c.setAttribute("aria-hidden", "true"));
      const known = cardsOf(v.opponent_known);
      return h("span", { class: "row" }, out, backs,
               known.length ? h("span", { class: "known", text: `seen taking: ${cardsText(known)}` }) : null);
    }
    return out;
  },
  banner(ctx) {
    const v = ctx.view;
    const parts = [];
    if (v.role && v.roles && v.roles.length > 2) {
      const word = { box: "You are the box: you sit this hand out.", captain: "You are the captain: you play this hand; the sitter may advise you.",
                     sitter: "You are the sitter: you see the captain's hand and may advise." }[v.role];
      parts.push(h("p", { id: "role", text: word || `Role: ${v.role}` }));
    }
    if (v.advice && v.advice.length) {
      parts.push(h("p", { class: "advice", id: "advice", role: "note" },
                   h("strong", { text: "The sitter advises: " }), v.advice.join("; ")));
    }
    if (v.taken_card) parts.push(h("p", { text: `You took ${cardShort(v.taken_card)}${v.options && v.options.allow_discard_of_taken_card ? "" : ": you may not discard it this turn"}.` }));
    if (v.phase === "offer" && !v.terminal) parts.push(h("p", { text: "The opening upcard is offered: take it or pass." }));
    return parts.length ? h("div", { class: "banner" }, ...parts) : null;
  },
  adviceMoves(ctx) {
    const v = ctx.view;
    if (v.phase === "offer") return ["take discard", "pass"];
    if (v.phase === "draw") return ["draw stock", "take discard"];
    if (v.phase === "discard") {
      const cards = cardsOf(v.hand);
      const after = (ctx.arrangement && ctx.arrangement.after_discard) || {};
      const out = cards.map((c) => `discard ${c}`);
      for (const c of cards) if ((after[c] ?? 99) <= v.knock_limit) out.push(`knock ${c}`);
      if (v.options && v.options.big_gin && ctx.arrangement && ctx.arrangement.points === 0) out.push("big gin");
      return out;
    }
    return [];
  },
  pointsNote(ctx, after) {
    const v = ctx.view;
    if (after === null || after === undefined) return null;
    if (after === 0) return h("strong", { text: " You can go gin." });
    if (after <= v.knock_limit) return h("strong", { text: ` You may knock (limit ${v.knock_limit}).` });
    return h("span", { text: ` Knock limit ${v.knock_limit}.` });
  },
  resultHeading: (res) => `Hand ${res.hand}: ${OUTCOMES[res.outcome] || res.outcome}`,
  resultLabel: (res) => `${res.hand} ${{ big_gin: "big gin" }[res.outcome] || res.outcome}`,
  resultText(ctx, res) {
    if (res.outcome === "drawn") return `Hand ${res.hand} is drawn: no points.`;
    return `Hand ${res.hand}: ${ctx.seatName(res.knocker)} ${res.outcome === "gin" || res.outcome === "big_gin" ? "went " + OUTCOMES[res.outcome] : "knocked"}; ` +
      `${ctx.seatName(res.winner)} ${res.winner === ctx.view.seat ? "win" : "wins"} ${res.points} points${res.outcome === "undercut" ? " (undercut)" : ""}.`;
  },
  renderResult(ctx, box, res) {
    box.append(h("p", { text: this_result(ctx, res) }));
    if (res.outcome === "drawn") return;
    const hands = h("div", { class: "hands" });
    hands.append(meldRow(`${ctx.seatName(res.knocker)} (deadwood ${res.knocker_deadwood}):`, res.knocker_melds, res.knocker_deadwood_cards));
    const lay = (res.layoffs || []).map(([c, i]) => `${cardShort(c)} on meld ${i + 1}`).join(", ");
    hands.append(meldRow(`${ctx.seatName(res.defender)} (deadwood ${res.defender_deadwood}):`, res.defender_melds, res.defender_deadwood_cards,
                         lay ? h("span", { text: `lays off ${lay}` }) : null));
    box.append(hands);
  },
});
function this_result(ctx, res) { return gin.resultText(ctx, res); }

// -- Three Thirteen ------------------------------------------------------------
const thirteen = drawGame({
  dealWord: "Round",
  keys: [["s", "draw from the stock"], ["t", "take the discard"],
         ["Enter / d", "discard the chosen card"], ["o", "go out (with the chosen card, or the best)"]],
  outWord: "go out", outKey: "o",
  outLabel: (c, left) => `Go out, discarding ${cardShort(c)}${left !== undefined ? ` (penalty ${left})` : ""}`,
  roundKey: (v) => `round ${v.round}`,
  roundText: (v) => `Round ${v.round} of 11, ${v.round + 2} cards; ${v.wild_rank === "T" ? "10" : v.wild_rank}s are wild.`,
  noHand: () => "No hand.",
  seatExtra(ctx, seat) {
    const v = ctx.view;
    const known = cardsOf((v.known || [])[seat]);
    return h("span", { class: "muted", text: `${v.hand_sizes[seat]} cards · penalty total ${v.scores[seat]}` +
                       (known.length ? ` · seen taking ${cardsText(known)}` : "") });
  },
  banner(ctx) {
    const v = ctx.view;
    const parts = [h("p", { id: "round", class: "status" },
                     h("strong", { text: `Round ${v.round} of 11` }),
                     ` — wild rank ${v.wild_rank === "T" ? "10" : v.wild_rank} (every ${v.wild_rank === "T" ? "10" : v.wild_rank} stands for any card).`)];
    if (v.went_out !== null && v.went_out !== undefined && !v.terminal) {
      parts.push(h("p", { class: "advice", id: "last-turn", role: "note" },
                   h("strong", { text: "Last turn: " }), `${ctx.seatName(v.went_out)} went out; everyone else has one more turn.`));
      if (v.laid_down) parts.push(meldRow(`${ctx.seatName(v.went_out)} laid down:`, [], v.laid_down));
    }
    if (v.taken_card) parts.push(h("p", { text: `You took ${cardShort(v.taken_card)}.` }));
    return h("div", { class: "banner" }, ...parts);
  },
  pointsNote(ctx, after) {
    const m = ctx.view.legal || [];
    if (m.some((x) => x.startsWith("go out"))) return h("strong", { text: " You may go out." });
    return null;
  },
  resultHeading: (res) => `Round ${res.round} is over`,
  resultLabel: (res) => `${res.round}`,
  resultText(ctx, res) {
    const pens = (res.penalties || []).map((p, i) => `${ctx.seatName(i)} ${p}`).join(", ");
    return `Round ${res.round}: ${ctx.seatName(res.went_out)} went out. Penalties: ${pens}.`;
  },
  renderResult(ctx, box, res) {
    box.append(h("p", { text: thirteen.resultText(ctx, res) }));
    const hands = h("div", { class: "hands" });
    (res.hands || []).forEach((hand, i) => {
      hands.append(meldRow(`${ctx.seatName(i)} (penalty ${hand.penalty}):`, hand.melds, hand.unmatched));
    });
    box.append(hands);
  },
  scoreNote: () => "Penalty points: the lowest total wins.",
});

export const GAMES = { gin, gin3: gin, "three-thirteen": thirteen, manipulation };
export { meldRow, TITLES };
