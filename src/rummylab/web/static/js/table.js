// A table, drawn from this seat's view only: the server's GET view, then its
// WebSocket events (each a full view of this seat). Moves go over that
// WebSocket (by HTTP while it is down) with an id, so a resend after a dropped
// connection is applied once; a refused move is a message, not a failed request.
import { ApiError, get, post, newId, playerName } from "./api.js";
import { cardEl, backEl, cardName, cardShort, cardsOf, cardsText } from "./cards.js";
import { say } from "./live.js";
import { GAMES } from "./games.js";

export function h(tag, attrs = {}, ...children) {
  const e = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs)) {
    if (k === "text") e.textContent = v;
    else if (k.startsWith("on")) e.addEventListener(k.slice(2), v);
    else if (v !== undefined && v !== null && v !== false) e.setAttribute(k, v === true ? "" : v);
  }
  for (const c of children) if (c !== null && c !== undefined && c !== false) e.append(c);
  return e;
}

export function showTable(main, id) {
  const params = new URLSearchParams(location.search);
  let token = params.get("token");
  const key = `rummylab.seat.${id}`;
  if (token) localStorage.setItem(key, token);
  else token = localStorage.getItem(key);
  if (!token) {
    main.innerHTML = "";
    main.append(h("h1", { text: "No seat" }),
                h("p", { text: "This link has no token: open the invite link you were sent." }),
                h("p", {}, h("a", { href: "/", text: "Back to the lobby" })));
    return () => {};
  }
  if (!params.get("token")) history.replaceState(null, "", `/t/${id}?token=${encodeURIComponent(token)}`);
  const client = new TableClient(main, id, token);
  client.start();
  window.rummylab = client; // for the browser console and the tests
  return () => client.render();
}

export class TableClient {
  constructor(main, id, token) {
    this.main = main;
    this.id = id;
    this.token = token;
    this.view = null;
    this.version = -1;
    this.arrangement = null;
    this.arrangedFor = "";
    this.selected = null;
    this.hint = null;
    this.error = "";
    this.socket = null;
    this.connected = false;
    this.retry = 0;
    this.busy = false;
    this.pending = new Map(); // a move's id -> its answer's handlers, while the socket carries it
    this.log = []; // built from each view: every hand's result, then this hand's moves
    this.seenActions = null;
    // how many hands' results the player has seen and put away: a newer one is
    // shown (both hands laid down, the points) until "Next hand"
    this.doneKey = `rummylab.done.${id}.${token.slice(0, 8)}`;
    this.done = null;
    this.sandbox = null; // Manipulation: the table being rearranged
    this.game = null;
    document.addEventListener("keydown", (e) => this.onKey(e));
  }

  async start() {
    try {
      await this.fetchView();
    } catch (e) {
      this.main.innerHTML = "";
      this.main.append(h("h1", { text: "This table cannot be shown" }),
                       h("p", { class: "error", role: "alert", text: e.message }),
                       h("p", {}, h("a", { href: "/", text: "Back to the lobby" })));
      return;
    }
    this.connect();
  }

  async fetchView() {
    const view = await get(`/api/tables/${this.id}?token=${encodeURIComponent(this.token)}`);
    await this.setView(view, true);
  }

  // -- the WebSocket: events for this seat; on reconnect, what was missed --
  connect() {
    const proto = location.protocol === "https:" ? "wss" : "ws";
    const url = `${proto}://${location.host}/ws/tables/${this.id}?token=${encodeURIComponent(this.token)}&since=${this.version}`;
    let ws;
    try { ws = new WebSocket(url); } catch (e) { this.reconnectLater(); return; }
    this.socket = ws;
    ws.onopen = () => { this.connected = true; this.retry = 0; this.renderStatus(); };
    ws.onmessage = (m) => {
      let msg;
      try { msg = JSON.parse(m.data); } catch (e) { return; }
      if ((msg.type === "event" || msg.type === "view") && msg.view) {
        if (msg.version >= this.version) this.setView(msg.view, msg.type === "view");
      } else if ((msg.type === "ack" || msg.type === "error") && this.pending.has(msg.id)) {
        this.pending.get(msg.id).answer(msg);
      }
    };
    ws.onclose = () => {
      // moves sent and not answered go again by HTTP, with the same ids
      for (const p of [...this.pending.values()]) if (p.ws === ws) p.resend();
      if (this.socket !== ws) return;
      this.connected = false;
      this.renderStatus();
      this.reconnectLater();
    };
    ws.onerror = () => {}; // onclose follows; the page says "reconnecting"
  }

  reconnectLater() {
    if (this.view && this.view.terminal) return;
    const wait = Math.min(8000, 500 * 2 ** this.retry);
    this.retry += 1;
    setTimeout(async () => {
      try { await this.fetchView(); } catch (e) { /* still down: the socket retries */ }
      this.connect();
    }, wait);
  }

  // -- a new view: what happened since the last one, then the page --
  async setView(view, full) {
    if (this.view && view.version < this.version) return; // never go back
    const before = this.view;
    this.view = view;
    this.version = view.version;
    this.game = GAMES[view.game] || GAMES.gin;
    if (this.done === null) {
      const kept = Number(localStorage.getItem(this.doneKey));
      // a page opened afresh starts at the hand in play; a reload keeps what was put away
      this.done = localStorage.getItem(this.doneKey) === null ? this.results(view).length : kept;
      localStorage.setItem(this.doneKey, String(this.done));
    }
    this.narrate(before, view);
    const handKey = `${view.version}`;
    if (view.seat !== null && view.hand && view.hand.length && this.arrangedFor !== handKey) {
      this.arrangedFor = handKey;
      try {
        const got = await get(`/api/tables/${this.id}/arrangement?token=${encodeURIComponent(this.token)}`);
        if (got.version === this.version) this.arrangement = got.arrangement;
      } catch (e) { this.arrangement = null; }
    } else if (!view.hand || !view.hand.length) {
      this.arrangement = null;
    }
    // a chosen card is let go when it leaves the hand, and at a new hand (the same
    // card may be dealt again)
    if (before && this.game.roundKey(before) !== this.game.roundKey(view)) this.selected = null;
    if (this.selected && !(view.hand || []).includes(this.selected)) this.selected = null;
    if (this.hint && this.hint.version !== view.version) this.hint = null;
    if (this.game.onView) this.game.onView(this, before, view);
    if (view.version !== this.version) return; // a newer view came while this one was arranged
    this.render();
    this.shown = view.version;
    if (full && !before) this.announceState();
  }

  seatName(seat, capital = true) {
    if (seat === null || seat === undefined) return "";
    const v = this.view;
    if (seat === v.seat) return capital ? "You" : "you";
    const p = (v.players || [])[seat];
    const who = p && p.player !== "human" ? playerName(p.player) : "friend";
    return `Seat ${seat + 1} (${who})`;
  }

  // every hand's result so far (the server's view carries them all, so a page
  // opened late or reloaded has the whole score sheet)
  results(view = this.view) {
    if (view.results) return view.results;
    return view.last_result ? [view.last_result] : [];
  }

  moveLine(seat, text) { return `${this.seatName(seat)}: ${this.game.moveText(this, seat, text)}`; }

  // the move list, from the view alone: each hand's result, then this hand's moves
  // (at the end of the match, the last hand's moves come before its result)
  buildLog(view) {
    const ends = this.results(view).map((r) => this.game.resultText(this, r));
    const moves = (view.actions || []).map(([seat, text]) => this.moveLine(seat, text));
    if (view.terminal && moves.length && ends.length) return [...ends.slice(0, -1), ...moves, ends[ends.length - 1]];
    return [...ends, ...moves];
  }

  // the hand just ended that the player has not put away yet (null: none)
  pendingResult() {
    const v = this.view;
    const all = this.results(v);
    return !v.terminal && this.done !== null && all.length > this.done ? all[all.length - 1] : null;
  }

  // the result shown on the table: the pending one, or the last at the end of the match
  shownResult() {
    return this.view.terminal ? this.view.last_result : this.pendingResult();
  }

  // "Next hand": the hand's end put away, the next hand shown
  nextHand() {
    this.done = this.results(this.view).length;
    localStorage.setItem(this.doneKey, String(this.done));
    this.render();
    const first = this.main.querySelector(".hand button.card");
    if (first) first.focus();
    this.announceState();
  }

  // what to say of a new view: the moves made since the last one
  narrate(before, view) {
    const actions = view.actions || [];
    const roundKey = this.game.roundKey(view);
    let fresh = [];
    if (before && this.seenActions && this.seenActions.key === roundKey && actions.length >= this.seenActions.n) {
      fresh = actions.slice(this.seenActions.n);
    } else if (before) {
      fresh = actions; // a new hand or round: its moves so far
    }
    this.seenActions = { key: roundKey, n: actions.length };
    this.log = this.buildLog(view);
    if (!before) return;
    const spoken = fresh.map(([seat, text]) => this.moveLine(seat, text));
    const ended = this.results(view).length > this.results(before).length;
    if (ended && !view.terminal) {
      say(`${this.game.resultText(this, this.results(view).at(-1))} Press Enter for the next ${this.game.dealWord.toLowerCase()}.`);
      return;
    }
    if (ended) spoken.unshift(this.game.resultText(this, this.results(view).at(-1)));
    if (view.terminal && !before.terminal) spoken.push(`The match is over. ${this.scoreText()}`);
    if (spoken.length) {
      const mine = view.to_act === view.seat && !view.terminal ? ` ${this.game.prompt(this)}` : "";
      say(spoken.slice(-3).join(". ") + "." + mine);
    }
  }

  scoreText() {
    const v = this.view;
    return (v.scores || []).map((s, i) => `${this.seatName(i)} ${s}`).join(", ");
  }

  announceState() {
    const v = this.view;
    if (v.terminal) { say(`The match is over. ${this.scoreText()}`); return; }
    say(`${this.game.title(v)}. ${this.game.summary(this)} ${v.to_act === v.seat ? this.game.prompt(this) : ""}`);
  }

  // -- moves --
  legal(text) { return (this.view.legal || []).some((m) => m.toLowerCase() === text.toLowerCase()); }

  async act(text, kind = "act") {
    if (this.busy) return;
    this.busy = true;
    this.error = "";
    try {
      await this.send(kind, text, newId());
      if (kind === "advise") say(`You advised: ${text}.`);
      this.selected = null;
      if (!this.connected) await this.fetchView();
    } catch (e) {
      this.error = e.message;
      say(`Not done: ${e.message}`);
      this.render();
    } finally {
      this.busy = false;
    }
  }

  // One move, answered once: over the open socket, else (or if it closes or
  // stays silent) by HTTP with the same id, which the server applies once.
  send(kind, text, id) {
    const byHttp = () => post(`/api/tables/${this.id}/${kind}`, { token: this.token, action: text, id });
    const ws = this.socket;
    if (!ws || ws.readyState !== WebSocket.OPEN) return byHttp();
    return new Promise((resolve, reject) => {
      const finish = () => { clearTimeout(timer); this.pending.delete(id); };
      const resend = () => { finish(); byHttp().then(resolve, reject); };
      const timer = setTimeout(resend, 30000);
      this.pending.set(id, {
        ws, resend,
        answer: (msg) => {
          finish();
          if (msg.type === "ack") resolve(msg);
          else reject(new ApiError(msg.status || 400, msg.error || "the move was refused"));
        },
      });
      try { ws.send(JSON.stringify({ type: kind, action: text, id })); } catch (e) { resend(); }
    });
  }

  async askHint() {
    try {
      const got = await get(`/api/tables/${this.id}/hint?token=${encodeURIComponent(this.token)}`);
      this.hint = got;
      say(`Hint: ${got.action}. ${got.reason || ""}`);
    } catch (e) {
      this.hint = { version: this.version, action: "", reason: e.message };
      say(e.message);
    }
    this.render();
  }

  select(card) {
    this.selected = this.selected === card ? null : card;
    if (this.selected) {
      const more = this.game.selectedNote ? this.game.selectedNote(this, card) : "";
      say(`${cardName(card)} selected.${more}`);
    }
    this.render();
    const btn = this.main.querySelector(`.hand [data-card="${CSS.escape(card)}"]`);
    if (btn) btn.focus();
  }

  // -- keyboard: every action has a key; the hand is walked with the arrows --
  onKey(e) {
    if (!this.view || e.ctrlKey || e.metaKey || e.altKey) return;
    const target = e.target;
    // typing is left alone; a checkbox or a button with the focus leaves the page's keys working
    const typing = target && (target.tagName === "SELECT" || target.tagName === "TEXTAREA" || target.isContentEditable
      || (target.tagName === "INPUT" && !["checkbox", "radio", "button", "submit", "reset"].includes(target.type)));
    if (typing) return;
    const key = e.key;
    if (this.pendingResult()) {
      // the hand's end is on show: Enter puts it away (a focused button clicks itself)
      if (key === "Enter" && !(target && target.closest && target.closest("button, a, summary"))) {
        e.preventDefault();
        this.nextHand();
      }
      return;
    }
    if (key === "ArrowLeft" || key === "ArrowRight" || key === "Home" || key === "End") {
      const cards = [...this.main.querySelectorAll(".hand button.card")];
      if (!cards.length) return;
      const codes = cards.map((c) => c.dataset.card);
      let i = codes.indexOf(this.selected);
      if (key === "Home") i = 0;
      else if (key === "End") i = codes.length - 1;
      else if (i < 0) i = key === "ArrowRight" ? 0 : codes.length - 1;
      else i = (i + (key === "ArrowRight" ? 1 : -1) + codes.length) % codes.length;
      e.preventDefault();
      this.selected = null;
      this.select(codes[i]);
      return;
    }
    if (key === "h" || key === "H") { e.preventDefault(); this.askHint(); return; }
    if (key === "?") { e.preventDefault(); const k = this.main.querySelector("#keys"); if (k) { k.open = true; this.keysOpen = true; k.querySelector("summary").focus(); } return; }
    if (this.game.onKey && this.game.onKey(this, e)) e.preventDefault();
  }

  // -- drawing the page --
  render() {
    if (!this.view) return;
    const v = this.view;
    const active = document.activeElement;
    const focusKey = active && active.dataset ? (active.dataset.card ? `[data-card="${CSS.escape(active.dataset.card)}"]` : active.id ? `#${CSS.escape(active.id)}` : null) : null;
    const focusScope = active && active.closest ? (active.closest(".hand") ? ".hand " : active.closest(".sandbox") ? ".sandbox " : "") : "";
    const focusHere = !active || active === document.body || this.main.contains(active);
    // where in the hand the focus was: a card played away hands it to the next one
    const handCards = [...this.main.querySelectorAll(".hand button.card")];
    const focusAt = handCards.indexOf(active);
    const inPlay = active && active.closest && active.closest("#play");
    document.title = `${this.game.title(v)} — rummylab`;
    this.main.innerHTML = "";
    const status = h("p", { class: "muted", id: "conn" });
    this.main.append(
      h("div", { class: "table-top" },
        h("h1", { text: this.game.title(v) }),
        h("span", { text: v.seat === null ? "spectating" : `seat ${v.seat + 1}` }),
        status),
    );
    this.statusEl = status;
    this.renderStatus();
    const grid = h("div", { class: "table-grid" });
    const play = h("section", { "aria-label": "Table", id: "play" });
    const side = h("aside", { class: "side", "aria-label": "Scores, moves and help" });
    grid.append(play, side);
    this.main.append(grid);
    const pending = this.pendingResult();
    if (!pending) this.game.render(this, play);
    if (this.error) play.append(h("p", { class: "error", role: "alert", id: "error", text: this.error }));
    if (this.hint && this.hint.version === v.version) {
      play.append(h("p", { class: "advice", id: "hint" },
                    h("strong", { text: "Hint: " }), `${this.hint.action} — ${this.hint.reason}`));
    }
    this.renderResult(play);
    this.renderSide(side);
    // a card followed where it went (Manipulation's sandbox), but not onto the discard pile
    let again = focusKey ? this.main.querySelector(focusScope + focusKey) || this.main.querySelector(`${focusKey}:not(#pile)`) : null;
    // a card shown as a picture (a hand's end laid down) cannot hold the focus
    if (again && !again.matches("button:not([disabled]), a, input, select, textarea, summary, [tabindex]")) again = null;
    // a hand's end on show takes the focus the page had (its Enter is "Next hand")
    if (!again && pending && focusHere) again = this.main.querySelector("#next-hand");
    if (!again && inPlay) {
      const cards = [...this.main.querySelectorAll(".hand button.card")];
      if (cards.length) again = cards[Math.min(Math.max(focusAt, 0), cards.length - 1)];
    }
    if (again) again.focus();
  }

  renderStatus() {
    if (!this.statusEl || !this.view) return;
    this.statusEl.textContent = this.view.terminal ? "match over"
      : this.connected ? "connected" : "reconnecting…";
  }

  renderResult(play) {
    const v = this.view;
    const res = this.shownResult();
    if (!res) return;
    const box = h("section", { class: "panel result", id: "result", "aria-labelledby": "result-h" });
    box.append(h("h2", { id: "result-h", text: v.terminal ? "The match is over" : this.game.resultHeading(this, res) }));
    this.game.renderResult(this, box, res);
    if (v.terminal) {
      box.append(h("p", { text: `Final scores: ${this.scoreText()}.` }));
      const links = h("p", { class: "row" });
      if (!v.replay) {
        const t = encodeURIComponent(this.token);
        const seat = v.seat === null ? "" : `&seat=${v.seat}`;
        links.append(h("a", { href: `/replay/${this.id}?token=${t}${seat}`, id: "replay-link",
                              text: "Replay this match" }), " · ",
                     h("a", { href: `/api/tables/${this.id}/record?token=${t}`,
                              download: `rummylab-${this.id}.jsonl`, text: "Its record" }), " · ");
      }
      links.append(h("a", { href: "/", text: "Back to the lobby" }));
      box.append(links);
    } else if (this.pendingResult()) {
      box.append(h("p", { class: "muted", text: `Scores: ${this.scoreText()}.` }),
                 h("div", { class: "actions" },
                   h("button", { type: "button", class: "primary", id: "next-hand", onclick: () => this.nextHand() },
                     `Next ${this.game.dealWord.toLowerCase()} (Enter)`)));
    }
    play.append(box);
  }

  renderSide(side) {
    const v = this.view;
    const scores = h("section", { class: "panel", "aria-labelledby": "scores-h" });
    scores.append(h("h2", { id: "scores-h", text: "Score sheet" }));
    const table = h("table", { class: "scores" });
    const head = h("tr", {}, h("th", { scope: "col", text: this.game.dealWord }));
    (v.scores || []).forEach((_, i) => head.append(h("th", { scope: "col", text: i === v.seat ? "You" : `Seat ${i + 1}` })));
    table.append(h("thead", {}, head));
    const body = h("tbody");
    // each hand's row: what each seat scored in it (a result carries the running
    // totals after it: the difference from the hand before); the totals below
    let before = (v.scores || []).map(() => 0);
    for (const r of this.results(v)) {
      const tr = h("tr", {}, h("td", { text: this.game.resultLabel(this, r) }));
      const after = r.scores || before;
      after.forEach((s, i) => tr.append(h("td", { text: String(s - (before[i] || 0)) })));
      before = after;
      body.append(tr);
    }
    const total = h("tr", {}, h("th", { scope: "row", text: "Total" }));
    (v.scores || []).forEach((s) => total.append(h("td", {}, h("strong", { text: String(s) }))));
    body.append(total);
    table.append(body);
    scores.append(table);
    const word = this.game.dealWord.toLowerCase();
    scores.append(h("p", { class: "muted", id: "scores-note",
                           text: `Each row: the points scored in that ${word}. ${this.game.scoreNote ? this.game.scoreNote(this) : ""}` }));

    const logBox = h("section", { class: "panel", "aria-labelledby": "log-h" });
    logBox.append(h("h2", { id: "log-h", text: "Moves" }));
    const ol = h("ol", { class: "log", id: "log", reversed: true, tabindex: "0", "aria-labelledby": "log-h" }); // it may scroll
    for (const line of this.log.slice(-40).reverse()) ol.append(h("li", { text: line }));
    logBox.append(ol);

    const keys = h("details", { class: "panel keys", id: "keys", open: this.keysOpen || undefined });
    keys.addEventListener("toggle", () => { this.keysOpen = keys.open; });
    keys.append(h("summary", { text: "Keys" }));
    const ul = h("ul");
    for (const [k, what] of [["← →", "choose a card of your hand"], ["h", "hint"], ...this.game.keys]) {
      ul.append(h("li", {}, h("kbd", { text: k }), ` ${what}`));
    }
    keys.append(ul);
    side.append(scores, logBox, keys);
    if (v.seat !== null && !v.replay) side.append(this.positionBox());
  }

  // this moment as one line (rummylab analyze/play --position), as this seat knows it
  positionBox() {
    const box = h("details", { class: "panel keys", id: "position" });
    const out = h("textarea", { id: "position-text", readonly: true, rows: "3", "aria-label": "Position" });
    const copy = h("button", { type: "button", id: "position-copy", text: "Copy" });
    copy.addEventListener("click", async () => {
      out.select();
      try { await navigator.clipboard.writeText(out.value); say("Position copied."); } catch (e) { say("Select the text and copy it."); }
    });
    const load = async () => {
      try {
        const got = await get(`/api/tables/${this.id}/position?token=${encodeURIComponent(this.token)}`);
        out.value = got.position;
      } catch (e) { out.value = e.message; }
    };
    box.addEventListener("toggle", () => { if (box.open) load(); });
    if (this.positionOpen) box.open = true; // its toggle loads it
    box.addEventListener("toggle", () => { this.positionOpen = box.open; });
    box.append(h("summary", { text: "Position (this moment as one line, to copy)" }), out, h("div", { class: "row" }, copy));
    return box;
  }

  // the seats: who they are, their hand sizes, who is to play
  renderSeats(box, extra = () => null) {
    const v = this.view;
    for (const p of v.players || []) {
      if (p.seat === v.seat) continue;
      const line = h("div", { class: `seatline${v.to_act === p.seat ? " acting" : ""}` },
                     h("span", { class: "who", text: this.seatName(p.seat) }),
                     p.player === "human" ? h("span", { class: "muted", text: p.connected ? "online" : "away" }) : null,
                     extra(p.seat));
      box.append(line);
    }
  }

  handButtons(codes, opts = {}) {
    return codes.map((code) => {
      const b = cardEl(code, { onClick: () => (opts.onClick ? opts.onClick(code) : this.select(code)),
                               label: opts.label ? opts.label(code) : undefined });
      b.setAttribute("aria-pressed", String(this.selected === code));
      if (this.hint && this.hint.action && this.hint.action.endsWith(` ${code}`)) b.classList.add("hinted");
      return b;
    });
  }

  // the hand, its melds grouped and the rest unmatched (the arrangement), else sorted
  renderHand(box, heading, cards) {
    const arr = this.arrangement;
    const hand = h("div", { class: "hand", role: "group", "aria-label": heading });
    if (arr && (arr.melds.length || arr.unmatched.length)) {
      const remaining = [...cards];
      const take = (code) => {
        const plain = code.split("=")[0];
        const i = remaining.indexOf(plain);
        if (i >= 0) remaining.splice(i, 1);
        return plain;
      };
      arr.melds.forEach((meld, i) => {
        const g = h("div", { class: "group meld", role: "group", "aria-label": `meld ${i + 1}: ${meld.map(cardName).join(", ")}` });
        for (const code of meld) {
          const plain = take(code);
          const [b] = this.handButtons([plain]);
          if (code.includes("=")) {
            b.append(h("span", { class: "as", "aria-hidden": "true", text: `as ${cardShort(code.split("=")[1])}` }));
            b.setAttribute("aria-label", cardName(code));
          }
          g.append(b);
        }
        hand.append(g);
      });
      const loose = arr.unmatched.map(take);
      for (const c of remaining) loose.push(c); // anything the arrangement did not name
      if (loose.length) {
        const g = h("div", { class: "group", role: "group", "aria-label": `unmatched: ${loose.map(cardName).join(", ")}` });
        for (const b of this.handButtons(loose)) g.append(b);
        hand.append(g);
      }
    } else {
      const g = h("div", { class: "group" });
      for (const b of this.handButtons(cards)) g.append(b);
      hand.append(g);
    }
    box.append(h("h2", { class: "sr-only", text: heading }), hand);
  }

  actionButton(text, label, opts = {}) {
    return h("button", { type: "button", class: opts.primary ? "primary" : "", id: opts.id,
                         "data-move": text, disabled: this.busy || undefined,
                         onclick: () => (opts.onClick ? opts.onClick() : this.act(text, opts.kind)) },
             label);
  }
}

export { cardsOf, cardsText, backEl, cardEl, cardShort, cardName };
