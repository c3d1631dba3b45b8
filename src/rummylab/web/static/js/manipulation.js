// Manipulation: the table's melds and a sandbox where this seat rearranges
// them and adds cards from its hand, then commits the whole table as one
// move, "meld CARDS => TABLE"; the server checks only what is committed.
import { h } from "./table.js";
import { cardEl, cardName, cardShort, cardsOf, cardsText, sortKey, split } from "./cards.js";
import { say } from "./live.js";

const NAMES = { draw: "drew a card", knock: "knocked", pass: "passed", "meld best": "played the best meld" };

function tableOf(text) {
  if (!text || !text.trim()) return [];
  return text.split("|").map((m) => cardsOf(m.trim()));
}
function standsKey(code) { const [c, s] = split(code); return sortKey(s || c); }
function tidy(meld) { return [...meld].sort((a, b) => standsKey(a) - standsKey(b)); }

function fresh(v) {
  return { version: v.version, melds: tableOf(v.table), hand: cardsOf(v.hand), fromHand: [], history: [],
           sel: null };
}

function snapshot(sb) {
  return JSON.stringify({ melds: sb.melds, hand: sb.hand, fromHand: sb.fromHand });
}

function changed(sb) { return sb.fromHand.length > 0 || sb.history.length > 0; }

export const manipulation = {
  dealWord: "Round",
  keys: [["d", "draw a card"], ["b", "play the best meld"], ["k", "knock"], ["p", "pass"],
         ["n", "put the chosen card in a new meld"], ["1–9", "put the chosen card on that meld"],
         ["u", "undo in the sandbox"], ["Escape", "reset the sandbox"], ["c", "commit the sandbox"]],
  title: () => "Manipulation",
  roundKey: (v) => `round ${v.round}`,

  moveText(ctx, seat, text) {
    if (NAMES[text]) return NAMES[text];
    const m = text.match(/^meld (.*?)(?: => (.*))?$/);
    if (m) return `melded ${cardsText(cardsOf(m[1]))}`;
    return text;
  },

  onView(ctx, before, view) {
    const sb = ctx.sandbox;
    if (!sb || sb.version !== view.version) ctx.sandbox = fresh(view);
  },

  summary(ctx) {
    const v = ctx.view;
    const arr = ctx.arrangement;
    return `Round ${v.round}. ${tableOf(v.table).length} melds on the table, ${v.pile_size} cards in the pile.` +
      (arr ? ` Points in hand ${arr.points}.` : "");
  },

  prompt(ctx) {
    const v = ctx.view;
    const words = [];
    if (v.can_meld) words.push("meld in the sandbox");
    for (const m of v.legal || []) words.push({ draw: "draw", knock: "knock", pass: "pass", "meld best": "play the best meld" }[m] || m);
    if (!words.length) return "";
    const said = words.length > 1 ? `${words.slice(0, -1).join(", ")} or ${words[words.length - 1]}` : words[0];
    return `You may ${said}.`;
  },

  selectedNote() { return ""; },

  // the sandbox's moves
  pick(ctx, where, i) {
    const sb = ctx.sandbox;
    const code = where === "hand" ? sb.hand[i] : sb.melds[where][i];
    if (sb.sel && sb.sel.where === where && sb.sel.i === i) sb.sel = null;
    else sb.sel = { where, i, code };
    if (sb.sel) say(`${cardName(code)} chosen: put it on a meld, or in a new one.`);
    ctx.render();
    const again = ctx.main.querySelector(`[data-pick="${where}-${i}"]`);
    if (again) again.focus();
  },

  put(ctx, target) { // target: a meld index, "new", or "hand"
    const sb = ctx.sandbox;
    if (!sb.sel) { say("Choose a card first."); return; }
    const { where, i } = sb.sel;
    let code = where === "hand" ? sb.hand[i] : sb.melds[where][i];
    const fromHand = where === "hand";
    if (target === "hand") {
      const plain = split(code)[0];
      const at = sb.fromHand.indexOf(plain);
      if (fromHand || at < 0) { say("Only a card you added from your hand goes back to it."); return; }
      sb.history.push(snapshot(sb));
      sb.melds[where].splice(i, 1);
      sb.fromHand.splice(at, 1);
      sb.hand.push(plain);
    } else {
      if (target === where) return;
      sb.history.push(snapshot(sb));
      if (fromHand) {
        sb.hand.splice(i, 1);
        sb.fromHand.push(code);
        if (code === "Jk") code = "Jk=?";
      } else {
        sb.melds[where].splice(i, 1);
      }
      if (target === "new") sb.melds.push([code]);
      else sb.melds[target] = tidy([...sb.melds[target], code]);
    }
    sb.melds = sb.melds.filter((m) => m.length);
    sb.sel = null;
    const dest = target === "hand" ? "your hand" : target === "new" ? "a new meld" : `meld ${target + 1}`;
    say(`${cardName(code)} moved to ${dest}.`);
    ctx.render();
  },

  undo(ctx) {
    const sb = ctx.sandbox;
    const last = sb.history.pop();
    if (!last) { say("Nothing to undo."); return; }
    Object.assign(sb, JSON.parse(last), { sel: null });
    say("Undone.");
    ctx.render();
  },

  reset(ctx) {
    ctx.sandbox = fresh(ctx.view);
    say("The sandbox is the table again.");
    ctx.render();
  },

  commitText(ctx) {
    const sb = ctx.sandbox;
    const cards = sb.fromHand.join(" ");
    const table = sb.melds.filter((m) => m.length).map((m) => m.join(" ")).join(" | ");
    return `meld ${cards} => ${table}`;
  },

  commit(ctx) {
    const sb = ctx.sandbox;
    if (!sb.fromHand.length) { say("Add at least one card from your hand first."); return; }
    if (sb.melds.some((m) => m.some((c) => c.endsWith("=?")))) {
      ctx.error = "Say what each joker stands for (the box beside it).";
      say(ctx.error);
      ctx.render();
      return;
    }
    ctx.act(this.commitText(ctx));
  },

  onKey(ctx, e) {
    const v = ctx.view;
    const k = e.key;
    const legal = v.legal || [];
    const send = (m) => { if (legal.includes(m)) { ctx.act(m); return true; } return false; };
    const lower = k.toLowerCase();
    if (lower === "d") return send("draw");
    if (lower === "b") return send("meld best");
    if (lower === "k") return send("knock");
    if (lower === "p") return send("pass");
    if (!v.can_meld) return false;
    const sb = ctx.sandbox;
    if (lower === "u") { this.undo(ctx); return true; }
    if (k === "Escape") { this.reset(ctx); return true; }
    if (lower === "c") { this.commit(ctx); return true; }
    if (lower === "n") { this.syncSelection(ctx); this.put(ctx, "new"); return true; }
    if (/^[1-9]$/.test(k)) { this.syncSelection(ctx); this.put(ctx, Number(k) - 1); return true; }
    return false;
  },

  // the arrows choose a hand card through the table's shared selection
  syncSelection(ctx) {
    const sb = ctx.sandbox;
    if (ctx.selected && (!sb.sel || sb.sel.where !== "hand")) {
      const i = sb.hand.indexOf(ctx.selected);
      if (i >= 0) sb.sel = { where: "hand", i, code: ctx.selected };
    }
  },

  render(ctx, play) {
    const v = ctx.view;
    const sb = ctx.sandbox || fresh(v);
    ctx.sandbox = sb;
    const seats = h("section", { "aria-label": "Other seats" });
    ctx.renderSeats(seats, (seat) => h("span", { class: "muted",
      text: `${v.hand_sizes[seat]} cards · score ${v.scores[seat]} · rounds won ${v.rounds_won[seat]}` }));
    play.append(seats);
    play.append(h("p", { class: "status", id: "round" },
                  h("strong", { text: `Round ${v.round}` }), ` — pile ${v.pile_size} cards` +
                  (v.last_turn ? "" : "") + (v.to_act === v.seat ? `; draws this turn ${v.draws_this_turn} of 3.` : ".")));
    if (v.last_turn) play.append(h("p", { class: "advice", id: "last-turn", role: "note" },
                                   h("strong", { text: "Last turn: " }), "the pile is empty; this is the round's last turn."));
    const editing = v.can_meld && v.to_act === v.seat;
    const melds = editing ? sb.melds : tableOf(v.table);
    const area = h("section", { class: editing ? "sandbox" : "", "aria-labelledby": "melds-h" });
    area.append(h("h2", { id: "melds-h", text: editing ? "The table (sandbox: rearrange it, then commit)" : "The table" }));
    const list = h("div", { class: "melds", id: "melds" });
    if (!melds.length) list.append(h("p", { class: "muted", text: "No meld on the table yet." }));
    melds.forEach((meld, mi) => {
      const g = h("div", { class: "group", role: "group", "aria-label": `meld ${mi + 1}: ${meld.map(cardName).join(", ")}` });
      g.append(h("span", { class: "label", "aria-hidden": "true", text: String(mi + 1) }));
      meld.forEach((code, ci) => {
        if (!editing) { g.append(cardEl(code)); return; }
        const b = cardEl(code, { onClick: () => this.pick(ctx, mi, ci) });
        b.dataset.pick = `${mi}-${ci}`;
        b.setAttribute("aria-pressed", String(!!(sb.sel && sb.sel.where === mi && sb.sel.i === ci)));
        g.append(b);
        if (code.startsWith("Jk=")) {
          const id = `joker-${mi}-${ci}`;
          const input = h("input", { id, size: 3, value: code.slice(3) === "?" ? "" : code.slice(3),
                                     "aria-label": `the joker in meld ${mi + 1} stands for (e.g. 9h)` });
          input.addEventListener("change", () => {
            sb.history.push(snapshot(sb));
            sb.melds[mi][ci] = `Jk=${input.value.trim() || "?"}`;
            ctx.render();
          });
          g.append(input);
        }
      });
      if (editing && sb.sel) g.append(h("button", { type: "button", class: "put", id: `put-${mi}`,
                                                      onclick: () => this.put(ctx, mi) }, `Put here (${mi + 1})`));
      list.append(g);
    });
    area.append(list);
    if (editing) {
      const tools = h("div", { class: "actions", role: "group", "aria-label": "Sandbox" });
      tools.append(
        h("button", { type: "button", id: "put-new", disabled: !sb.sel || undefined, onclick: () => this.put(ctx, "new") }, "New meld (n)"),
        h("button", { type: "button", id: "put-hand", disabled: !(sb.sel && sb.sel.where !== "hand") || undefined,
                      onclick: () => this.put(ctx, "hand") }, "Back to hand"),
        h("button", { type: "button", id: "undo", disabled: !sb.history.length || undefined, onclick: () => this.undo(ctx) }, "Undo (u)"),
        h("button", { type: "button", id: "reset", disabled: !changed(sb) || undefined, onclick: () => this.reset(ctx) }, "Reset (Esc)"),
        h("button", { type: "button", id: "commit", class: "primary", disabled: !sb.fromHand.length || ctx.busy || undefined,
                      onclick: () => this.commit(ctx) }, "Commit the table (c)"),
      );
      area.append(tools);
      if (sb.fromHand.length) area.append(h("p", { id: "pending", text: `Adding ${cardsText(sb.fromHand)} from your hand.` }));
    }
    play.append(area);

    const arr = ctx.arrangement;
    const status = h("p", { class: "status", id: "status" });
    if (v.terminal) status.append("The match is over.");
    else if (v.to_act === v.seat) status.append(h("strong", { text: "Your turn. " }), this.prompt(ctx));
    else status.append(`Waiting for ${ctx.seatName(v.to_act, false)}.`);
    if (arr) status.append(h("span", { id: "points", text: ` Points in hand ${arr.points}` +
                                        ` (you may knock with ${v.options.knock_limit} or fewer).` }));
    if (v.drawn && v.to_act === v.seat) status.append(` You drew ${cardShort(v.drawn)}.`);
    play.append(status);

    const hand = editing ? sb.hand : cardsOf(v.hand);
    if (hand.length || cardsOf(v.hand).length) {
      const box = h("section", { "aria-label": "Your hand" });
      box.append(h("h2", { class: "sr-only", text: "Your hand" }));
      const row = h("div", { class: "hand", role: "group", "aria-label": "Your hand" });
      const g = h("div", { class: "group" });
      const order = hand.map((c, i) => [c, i]).sort((a, b) => sortKey(a[0]) - sortKey(b[0]));
      for (const [code, i] of order) {
        const b = cardEl(code, { onClick: () => { if (editing) this.pick(ctx, "hand", i); else ctx.select(code); } });
        b.dataset.pick = `hand-${i}`;
        b.setAttribute("aria-pressed", String(editing ? !!(sb.sel && sb.sel.where === "hand" && sb.sel.i === i) : ctx.selected === code));
        g.append(b);
      }
      row.append(g);
      box.append(row);
      play.append(box);
    }

    const bar = h("div", { class: "actions", role: "group", "aria-label": "Moves" });
    const labels = { draw: "Draw (d)", "meld best": "Play best (b)", knock: "Knock (k)", pass: "Pass (p)" };
    for (const m of v.legal || []) bar.append(ctx.actionButton(m, labels[m] || m, { primary: m === "meld best", id: `move-${m.replace(" ", "-")}` }));
    if (v.to_act === v.seat && !v.terminal) {
      bar.append(h("button", { type: "button", id: "hint-button", onclick: () => ctx.askHint() }, "Suggest (h)"));
    }
    play.append(bar);
  },

  resultHeading: (ctx, res) => `Round ${res.round} is over`,
  resultLabel: (ctx, res) => `${res.round}`,
  resultText(ctx, res) {
    const how = res.ended === "out" ? `${ctx.seatName(res.went_out)} went out`
      : res.ended === "knock" ? `${ctx.seatName(res.knocker)} knocked` : "the pile ran out";
    const won = (res.winners || []).map((w) => `${ctx.seatName(w)} +${res.points[w]}`).join(", ");
    return `Round ${res.round}: ${how}. ${won}.`;
  },
  renderResult(ctx, box, res) {
    box.append(h("p", { text: this.resultText(ctx, res) }));
    const rows = h("div", { class: "hands" });
    (res.hands || []).forEach((hand, i) => {
      const r = h("div", { class: "row" }, h("span", { text: `${ctx.seatName(i)} (${res.values[i]} points):` }));
      for (const c of cardsOf(hand)) r.append(cardEl(c));
      rows.append(r);
    });
    box.append(rows);
  },
  scoreNote: () => "Points: the highest total wins.",
};
