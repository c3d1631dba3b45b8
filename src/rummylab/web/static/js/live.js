// The screen reader's live region: what happened, said once.
let last = "";
export function say(text) {
  const live = document.getElementById("live");
  if (!live || !text) return;
  // the same words twice in a row are still announced
  live.textContent = text === last ? `${text} ` : text;
  last = live.textContent;
}
