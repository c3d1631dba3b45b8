// The server's HTTP API: JSON in and out; a refusal becomes an Error with
// the server's one-line reason.
export async function request(method, path, body, plain) {
  const init = { method, headers: {} };
  if (plain !== undefined) {
    init.headers["Content-Type"] = "text/plain; charset=utf-8";
    init.body = plain;
  } else if (body !== undefined) {
    init.headers["Content-Type"] = "application/json";
    init.body = JSON.stringify(body);
  }
  let res;
  try {
    res = await fetch(path, init);
  } catch (e) {
    throw new ApiError(0, "the server cannot be reached");
  }
  const text = await res.text();
  let data = null;
  try { data = text ? JSON.parse(text) : null; } catch (e) { data = null; }
  if (!res.ok) {
    throw new ApiError(res.status, (data && data.error) || `the server answered ${res.status}`);
  }
  return data === null ? text : data;
}

export class ApiError extends Error {
  constructor(status, message) { super(message); this.status = status; }
}

export const get = (path) => request("GET", path);
export const post = (path, body) => request("POST", path, body);

// A message id unique to this page: a resend of the same move is applied once.
let counter = 0;
export function newId() {
  counter += 1;
  return `${Date.now().toString(36)}-${Math.random().toString(36).slice(2, 8)}-${counter}`;
}

// A seat's player as people call it: the bots by their level's name (easy,
// medium, hard; rummylab.bots.LEVEL_NAMES), whatever the spec the server keeps.
const LEVELS = { random: "easy", simple: "medium", strong: "hard" };
export function playerName(spec) {
  if (spec === "human") return "person";
  if (spec === "open") return "open seat";
  if (!spec || !spec.startsWith("bot:")) return spec || "";
  const level = spec.slice(4).split(":")[0];
  return `${LEVELS[level] || level} bot`;
}
