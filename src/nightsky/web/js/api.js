// The HTTP API of the nightsky server, and the seat tokens this browser holds.

export class ApiError extends Error {
  constructor(status, body) {
    const err = (body && body.error) || {};
    super(err.message || `HTTP ${status}`);
    this.status = status;
    this.code = err.code || "http_error";
    this.rule = err.rule || null;
    this.currentVersion = err.current_version;
  }
}

export const CSRF_KEY = "nightsky.csrf";

export async function api(path, { method = "GET", body, token } = {}) {
  const headers = {};
  if (body !== undefined) headers["content-type"] = "application/json";
  if (token) headers["authorization"] = `Bearer ${token}`;
  // Signed in: every change carries the session's CSRF token (account.js keeps it).
  const csrf = method !== "GET" ? localStorage.getItem(CSRF_KEY) : null;
  if (csrf) headers["x-csrf-token"] = csrf;
  const res = await fetch(path, {
    method, headers, body: body === undefined ? undefined : JSON.stringify(body),
  });
  let data = null;
  try { data = await res.json(); } catch { data = null; }
  if (!res.ok) throw new ApiError(res.status, data);
  return data;
}

const KEY = "nightsky.games";

/** Games this browser has a seat in: {gid: {token, seat, game, title, invites, at}}. */
export function myGames() {
  try { return JSON.parse(localStorage.getItem(KEY) || "{}"); } catch { return {}; }
}

export function rememberSeat(gid, info) {
  const all = myGames();
  all[gid] = { ...(all[gid] || {}), ...info, at: Date.now() };
  localStorage.setItem(KEY, JSON.stringify(all));
}

export function seatToken(gid) {
  const g = myGames()[gid];
  return g ? g.token : null;
}

export const SEAT_COLORS = ["var(--seat0)", "var(--seat1)", "var(--seat2)", "var(--seat3)",
  "var(--seat4)", "var(--seat5)"];

export function seatColor(i) {
  return i < 0 ? "var(--muted)" : SEAT_COLORS[i % SEAT_COLORS.length];
}

/** Build an element: h("div", {class: "x", onclick: f}, child, "text"). */
export function h(tag, attrs = {}, ...children) {
  const el = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs || {})) {
    if (v === undefined || v === null || v === false) continue;
    if (k.startsWith("on") && typeof v === "function") el.addEventListener(k.slice(2), v);
    else if (k === "class") el.className = v;
    else if (k === "style") el.setAttribute("style", v);
    else if (k === "dataset") Object.assign(el.dataset, v);
    else el.setAttribute(k, v === true ? "" : v);
  }
  for (const c of children.flat()) {
    if (c === undefined || c === null || c === false) continue;
    el.append(c instanceof Node ? c : document.createTextNode(String(c)));
  }
  return el;
}

/**
 * Make `parent`'s child nodes exactly `nodes`, in order, moving as few as it can: the nodes
 * that stay are not taken out and put back (their layout and style stay computed).
 */
export function syncChildren(parent, nodes) {
  const want = new Set(nodes);
  for (const c of [...parent.childNodes]) if (!want.has(c)) c.remove();
  let at = parent.firstChild;
  for (const n of nodes) {
    if (n === at) { at = at.nextSibling; continue; }
    parent.insertBefore(n, at);
  }
}

let toastTimer = null;
export function toast(message, kind = "error") {
  document.querySelectorAll(".toast").forEach((t) => t.remove());
  const t = h("div", { class: `toast ${kind}`, role: "status" }, message);
  document.body.append(t);
  clearTimeout(toastTimer);
  toastTimer = setTimeout(() => t.remove(), 4200);
}
