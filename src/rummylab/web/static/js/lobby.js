// The lobby: create a table (game, seats, rule options), invite links, open tables.
import { get, playerName, post } from "./api.js";
import { say } from "./live.js";

const KNOWN = "rummylab.tables";

export function knownTables() {
  try { return JSON.parse(localStorage.getItem(KNOWN) || "[]"); } catch (e) { return []; }
}
function remember(created) {
  const list = knownTables().filter((t) => t.table !== created.table);
  list.unshift({ table: created.table, game: created.game, seats: created.seats,
                 spectator_url: created.spectator_url, created: Date.now() });
  localStorage.setItem(KNOWN, JSON.stringify(list.slice(0, 50)));
  for (const s of created.seats) {
    if (s.token) localStorage.setItem(`rummylab.token.${created.table}.${s.seat}`, s.token);
  }
}

function el(tag, attrs = {}, ...children) {
  const e = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs)) {
    if (k === "text") e.textContent = v;
    else if (k.startsWith("on")) e.addEventListener(k.slice(2), v);
    else if (v !== undefined && v !== null && v !== false) e.setAttribute(k, v === true ? "" : v);
  }
  for (const c of children) if (c !== null && c !== undefined) e.append(c);
  return e;
}

export async function showLobby(main) {
  document.title = "rummylab — lobby";
  main.innerHTML = "";
  const h1 = el("h1", { text: "Play rummy: Gin, three-player Gin, Three Thirteen, Manipulation" });
  const grid = el("div", { class: "lobby" });
  const createPanel = el("section", { class: "panel", "aria-labelledby": "create-h" });
  const listPanel = el("section", { class: "panel", "aria-labelledby": "open-h" });
  grid.append(createPanel, listPanel);
  main.append(h1, grid);
  let games;
  try {
    games = (await get("/api/games")).games;
  } catch (e) {
    createPanel.append(el("p", { class: "error", text: `Cannot load the games: ${e.message}` }));
    return;
  }
  buildForm(createPanel, games);
  buildList(listPanel, games);
}

function buildForm(panel, games) {
  panel.append(el("h2", { id: "create-h", text: "New table" }));
  const form = el("form", { id: "create-form" });
  const gameSel = el("select", { id: "game", name: "game" });
  for (const g of games) gameSel.append(el("option", { value: g.game, text: g.title }));
  const playersSel = el("select", { id: "players", name: "players" });
  const seatsBox = el("div", { class: "seats" });
  const optsBox = el("div", { class: "opts" });
  const error = el("p", { class: "error", role: "alert" });
  const result = el("div", { id: "created" });
  form.append(
    el("div", { class: "row" },
      el("label", { for: "game", text: "Game " }), gameSel,
      el("label", { for: "players", text: "Players " }), playersSel),
    el("fieldset", {}, el("legend", { text: "Seats" }), seatsBox),
    el("details", {}, el("summary", { text: "Rule options (defaults shown)" }), optsBox),
    el("label", { class: "check", for: "public" },
       el("input", { type: "checkbox", id: "public", name: "public" }),
       " List it in the lobby: anyone may watch, and join its open seats"),
    error,
    el("div", { class: "row" }, el("button", { type: "submit", class: "primary", id: "create",
                                             text: "Create table" })),
  );
  panel.append(form, result);

  const current = () => games.find((g) => g.game === gameSel.value);
  function fillPlayers() {
    const g = current();
    playersSel.innerHTML = "";
    for (let n = g.players.min; n <= g.players.max; n++) {
      playersSel.append(el("option", { value: n, text: String(n), selected: n === g.players.default }));
    }
    playersSel.disabled = g.players.min === g.players.max;
    fillSeats();
    fillOptions();
  }
  function fillSeats() {
    const g = current();
    const n = Number(playersSel.value);
    seatsBox.innerHTML = "";
    for (let s = 0; s < n; s++) {
      const sel = el("select", { id: `seat-${s}`, name: `seat-${s}` });
      sel.append(el("option", { value: "human", text: s === 0 ? "You" : "A friend (invite link)" }));
      if (s > 0) sel.append(el("option", { value: "open", text: "Anyone who joins from the lobby" }));
      for (const b of g.bots) {
        sel.append(el("option", { value: `bot:${b.level}`, text: `${b.label[0].toUpperCase()}${b.label.slice(1)} bot`,
                                  selected: s > 0 && b.level === "simple" }));
      }
      seatsBox.append(el("label", { for: `seat-${s}`, text: `Seat ${s + 1}` }), sel);
    }
  }
  function fillOptions() {
    optsBox.innerHTML = "";
    for (const o of current().options) {
      const id = `opt-${o.name}`;
      let input;
      if (o.kind === "bool") {
        input = el("input", { type: "checkbox", id, name: o.name, checked: o.default === true });
        optsBox.append(el("label", { class: "check", for: id }, input,
                          el("span", { text: `${o.name.replaceAll("_", " ")} — ${o.help}` })));
        continue;
      }
      if (o.kind === "choice") {
        input = el("select", { id, name: o.name });
        for (const c of o.choices) input.append(el("option", { value: c, text: c, selected: c === o.default }));
      } else {
        input = el("input", { type: "number", id, name: o.name, value: String(o.default),
                              min: o.min ?? undefined, max: o.max ?? undefined });
      }
      optsBox.append(el("label", { for: id }, el("span", { text: o.name.replaceAll("_", " ") }),
                        input, el("small", { text: `${o.help} (default ${o.default})` })));
    }
  }
  gameSel.addEventListener("change", fillPlayers);
  playersSel.addEventListener("change", fillSeats);
  fillPlayers();

  form.addEventListener("submit", async (ev) => {
    ev.preventDefault();
    error.textContent = "";
    const g = current();
    const seats = [...seatsBox.querySelectorAll("select")].map((s) => s.value);
    const options = {};
    for (const o of g.options) {
      const input = form.querySelector(`#opt-${o.name}`);
      let v;
      if (o.kind === "bool") v = input.checked;
      else if (o.kind === "int") v = Number(input.value);
      else v = input.value;
      if (v !== o.default) options[o.name] = v;
    }
    try {
      const isPublic = form.querySelector("#public").checked || seats.includes("open");
      const created = await post("/api/tables", { game: g.game, seats, options, public: isPublic });
      remember(created);
      showCreated(result, created, g);
      say(`Table created. ${created.seats.filter((s) => s.token).length} seat links below.`);
    } catch (e) {
      error.textContent = e.message;
      say(`The table was not created: ${e.message}`);
    }
  });
}

function showCreated(box, created, g) {
  box.innerHTML = "";
  box.append(el("h3", { text: `${g.title} table ${created.table}` }));
  const list = el("div", { class: "invite" });
  for (const s of created.seats) {
    if (s.open) {
      list.append(el("p", { text: `Seat ${s.seat + 1}: open to whoever joins from the lobby` }));
      continue;
    }
    if (!s.token) {
      list.append(el("p", { text: `Seat ${s.seat + 1}: ${playerName(s.player)}` }));
      continue;
    }
    const url = new URL(s.url, location.href).href;
    const id = `invite-${s.seat}`;
    if (s.seat === 0) {
      list.append(el("p", {}, el("a", { href: s.url, class: "play", id: "play-link",
                                        text: `Play seat ${s.seat + 1} (you)` })));
    }
    list.append(el("label", { for: id, text: `Invite link for seat ${s.seat + 1}` }),
                el("input", { id, readonly: true, value: url, onfocus: (e) => e.target.select() }));
  }
  list.append(el("p", {}, el("a", { href: created.spectator_url, text: "Watch as a spectator" })));
  box.append(list);
}

async function buildList(panel, games) {
  panel.append(el("h2", { id: "open-h", text: "Open tables" }));
  const ul = el("ul", { class: "tables", id: "open-tables" });
  const refresh = el("button", { type: "button", text: "Refresh" });
  panel.append(ul, refresh,
               el("p", {}, el("a", { href: "/replay", id: "replay-file-link", text: "Replay a record file" })));
  const title = (name) => (games.find((g) => g.game === name) || { title: name }).title;
  async function load() {
    ul.innerHTML = "";
    let tables = [];
    try { tables = (await get("/api/tables")).tables; } catch (e) {
      ul.append(el("li", { class: "error", text: e.message }));
      return;
    }
    const mine = Object.fromEntries(knownTables().map((t) => [t.table, t]));
    if (!tables.length) ul.append(el("li", { text: "No public table is open: create one and list it in the lobby." }));
    for (const t of tables) {
      const li = el("li", {}, el("strong", { text: title(t.game) }),
                    ` — ${t.seats.map(playerName).join(", ")}; ${t.seats_free} seat(s) free `);
      const known = mine[t.table];
      const mySeat = localStorage.getItem(`rummylab.seat.${t.table}`);
      if (known) {
        for (const s of known.seats.filter((s) => s.token)) {
          li.append(" ", el("a", { href: s.url, text: `seat ${s.seat + 1}` }));
        }
      } else if (mySeat) {
        li.append(" ", el("a", { href: `/t/${t.table}?token=${encodeURIComponent(mySeat)}`, text: "your seat" }));
      }
      if (!known && !mySeat && t.open_seats > 0) {
        li.append(" ", el("button", { type: "button", class: "primary", "data-join": t.table,
                                      text: `Join (${t.open_seats} open)`,
                                      onclick: () => join(t.table) }));
      }
      const watch = (known && known.spectator_url) || t.spectator_url;
      if (watch) li.append(" ", el("a", { href: watch, "data-watch": t.table, text: "watch" }));
      if (!known && !mySeat && !t.spectator_url) {
        li.append(el("span", { class: "muted", text: "(ask its creator for a seat or spectator link)" }));
      }
      ul.append(li);
    }
  }
  async function join(table) {
    try {
      const got = await post(`/api/tables/${table}/join`, {});
      localStorage.setItem(`rummylab.seat.${table}`, got.token);
      location.href = got.url;
    } catch (e) {
      say(`Not joined: ${e.message}`);
      await load();
      ul.prepend(el("li", { class: "error", role: "alert", text: `Not joined: ${e.message}` }));
    }
  }
  refresh.addEventListener("click", load);
  await load();
}
