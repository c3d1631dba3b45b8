// A finished match, step by step: from the server's replay of its record (a
// table's, or a record file opened here), each step the view one seat had
// then, or the spectators'. The table's own drawing shows it; nothing moves.
import { get, playerName, request } from "./api.js";
import { say } from "./live.js";
import { GAMES } from "./games.js";
import { TableClient, h } from "./table.js";

class ReplayClient extends TableClient {
  constructor(main, id, token, seat) {
    super(main, id || "file", token || "");
    this.tableId = id;
    this.seatAsked = seat; // a number, or null: the spectators
    this.steps = [];
    this.seats = [];
    this.at = 0;
    this.fileText = null;
    this.fileName = "";
    this.log = [];
  }

  async start() {
    if (this.tableId) await this.fetchSteps();
    else this.renderPicker();
  }

  async fetchSteps() {
    const seat = this.seatAsked === null ? "" : `&seat=${this.seatAsked}`;
    let got;
    try {
      if (this.tableId) {
        got = await get(`/api/tables/${this.tableId}/replay?token=${encodeURIComponent(this.token)}${seat}`);
      } else {
        got = await request("POST", `/api/replay?x=1${seat}`, undefined, this.fileText);
      }
    } catch (e) {
      this.showError(e.message);
      return;
    }
    this.steps = got.steps;
    this.seats = got.seats;
    this.go(Math.min(this.at, this.steps.length - 1), false);
    say(`Replay of ${this.game.title(this.view)}: ${this.steps.length - 1} moves. ` +
        "Left and right arrows step through them.");
  }

  showError(message) {
    this.main.innerHTML = "";
    this.main.append(h("h1", { text: "This replay cannot be shown" }),
                     h("p", { class: "error", role: "alert", id: "error", text: message }));
    if (!this.tableId) this.main.append(this.fileInput());
    this.main.append(h("p", {}, h("a", { href: "/", text: "Back to the lobby" })));
  }

  fileInput() {
    const input = h("input", { type: "file", id: "replay-file", accept: ".jsonl,.json,.txt,application/x-ndjson" });
    input.addEventListener("change", async () => {
      const file = input.files && input.files[0];
      if (!file) return;
      this.fileText = await file.text();
      this.fileName = file.name;
      this.at = 0;
      await this.fetchSteps();
    });
    return h("p", { class: "row" }, h("label", { for: "replay-file", text: "Open a record file " }), input);
  }

  renderPicker() {
    document.title = "Replay a record — rummylab";
    this.main.innerHTML = "";
    this.main.append(h("h1", { text: "Replay a record" }),
                     h("section", { class: "panel" },
                       h("p", { text: "A record (JSON Lines, as the table's page, rummylab play --terminal --record or rummylab simulate --record write it) is replayed by the engine, move by move. Its first match is shown." }),
                       this.fileInput()));
  }

  // step i: its view, the moves up to it in the log, the hands' results so far
  go(i, speak = true) {
    if (!this.steps.length) return;
    this.at = Math.max(0, Math.min(this.steps.length - 1, i));
    const step = this.steps[this.at];
    this.view = step.view;
    this.version = this.at;
    this.game = GAMES[this.view.game] || GAMES.gin;
    this.arrangement = step.arrangement;
    this.selected = null;
    this.log = [];
    const seen = new Set();
    for (const s of this.steps.slice(0, this.at + 1)) {
      const res = s.view.last_result;
      if (res) {
        const key = JSON.stringify([res.hand ?? res.round, res.scores]);
        if (!seen.has(key)) {
          seen.add(key);
          if (s !== this.steps[0]) this.log.push(this.game.resultText(this, res));
        }
      }
      if (s.action !== undefined) this.log.push(this.stepLine(s));
    }
    this.render();
    this.shown = this.version;
    if (speak) say(this.at ? `Move ${this.at} of ${this.steps.length - 1}: ${this.stepLine(step)}.` : "The deal.");
  }

  stepLine(s) {
    const text = s.kind === "advice" ? `advised ${s.action}` : this.game.moveText(this, s.seat, s.action);
    return `${this.seatName(s.seat)}: ${text}`;
  }

  seatName(seat, capital = true) {
    if (seat === null || seat === undefined) return "";
    const name = this.seats[seat] || "";
    const who = name && name !== "human" ? playerName(name) : "player";
    const me = this.view && seat === this.view.seat ? ", seen here" : "";
    return `Seat ${seat + 1} (${who}${me})`;
  }

  narrate() {}
  pendingResult() { return null; }
  shownResult() { return this.view.last_result; } // each step shows the latest hand's end
  connect() {}
  async act() {}
  async askHint() {}

  renderStatus() {
    if (this.statusEl) this.statusEl.textContent = "replay";
  }

  render() {
    if (!this.view) return;
    const focused = document.activeElement && document.activeElement.id;
    super.render();
    document.title = `Replay: ${this.game.title(this.view)} — rummylab`;
    const n = this.steps.length - 1;
    const bar = h("section", { class: "panel replay", "aria-label": "Replay", id: "replay" });
    const seatSel = h("select", { id: "replay-seat" });
    this.seats.forEach((name, s) => seatSel.append(h("option", { value: String(s), text: `Seat ${s + 1} (${playerName(name)})`, selected: this.seatAsked === s })));
    seatSel.append(h("option", { value: "", text: "The spectators", selected: this.seatAsked === null }));
    seatSel.addEventListener("change", () => {
      this.seatAsked = seatSel.value === "" ? null : Number(seatSel.value);
      this.fetchSteps();
    });
    const range = h("input", { type: "range", id: "replay-range", min: "0", max: String(n), value: String(this.at),
                               "aria-label": "Move", "aria-valuetext": `move ${this.at} of ${n}` });
    range.addEventListener("input", () => this.go(Number(range.value)));
    const step = (id, label, to, disabled) => h("button", { type: "button", id, disabled: disabled || undefined,
                                                           onclick: () => this.go(to) }, label);
    bar.append(
      h("div", { class: "row" },
        h("label", { for: "replay-seat", text: "Seen by " }), seatSel,
        this.fileName ? h("span", { text: this.fileName }) : null),
      h("div", { class: "row" },
        step("replay-first", "« First", 0, this.at === 0),
        step("replay-prev", "◀ Back", this.at - 1, this.at === 0),
        h("span", { id: "replay-pos", text: this.at ? `Move ${this.at} of ${n}` : `The deal (${n} moves)` }),
        step("replay-next", "Next ▶", this.at + 1, this.at === n),
        step("replay-last", "Last »", n, this.at === n)),
      h("div", { class: "row" }, range));
    const step0 = this.steps[this.at];
    if (step0.action !== undefined) bar.append(h("p", { id: "replay-move", text: this.stepLine(step0) }));
    const top = this.main.querySelector(".table-top");
    top.after(bar);
    if (!this.tableId) bar.append(this.fileInput());
    if (focused && focused.startsWith("replay-")) {
      const again = this.main.querySelector(`#${CSS.escape(focused)}`);
      if (again && !again.disabled) again.focus();
    }
  }

  onKey(e) {
    if (!this.view || e.ctrlKey || e.metaKey || e.altKey) return;
    const t = e.target;
    if (t && (t.tagName === "INPUT" || t.tagName === "SELECT" || t.tagName === "TEXTAREA")) return;
    const to = { ArrowRight: this.at + 1, ArrowLeft: this.at - 1, Home: 0, End: this.steps.length - 1 }[e.key];
    if (to === undefined) return;
    e.preventDefault();
    this.go(to);
  }
}

export function showReplay(main, id) {
  const params = new URLSearchParams(location.search);
  let token = params.get("token");
  if (id && !token) token = localStorage.getItem(`rummylab.seat.${id}`);
  const seat = params.get("seat");
  const client = new ReplayClient(main, id, token, seat === null || seat === "" ? null : Number(seat));
  window.rummylab = client; // for the browser console and the tests
  client.start();
  return () => client.render();
}
