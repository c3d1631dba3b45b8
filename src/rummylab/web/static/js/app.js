// The client's entry: the lobby at "/", a table at "/t/ID?token=T".
import { settings } from "./cards.js";
import { showLobby } from "./lobby.js";
import { showTable } from "./table.js";
import { showReplay } from "./replay.js";

function applySettings() {
  document.body.classList.toggle("large-index", settings.largeIndex);
}

function setupToggles(onChange) {
  for (const [id, key, store] of [["four-colour", "fourColour", "rummylab.fourColour"],
                                  ["large-index", "largeIndex", "rummylab.largeIndex"]]) {
    const box = document.getElementById(id);
    box.checked = settings[key];
    box.addEventListener("change", () => {
      settings[key] = box.checked;
      localStorage.setItem(store, box.checked ? "1" : "0");
      applySettings();
      onChange();
    });
  }
}

const main = document.getElementById("main");
const path = location.pathname;
const match = path.match(/^\/t\/([A-Za-z0-9_-]+)\/?$/);
let redraw = () => {};
setupToggles(() => redraw());
applySettings();
const replay = path.match(/^\/replay(?:\/([A-Za-z0-9_-]+))?\/?$/);
if (match) {
  redraw = showTable(main, match[1]);
} else if (replay) {
  redraw = showReplay(main, replay[1] || null);
} else {
  showLobby(main);
}
