// Your games across tables: this browser's seat tokens asked in one POST (never in a URL),
// the count of tables where it is your move shown in the page title "(2) …" and on the tab's
// icon (drawn on a canvas), an opt-in notification when it becomes your move (only for moves
// made since this page opened: turning notifications on never announces old tables), and the
// display name this browser uses when it takes a seat. A seat is its token; signed in, the
// account's seats count too (account.js). A
// game page marks its own table's move too (`markOwnMove`): the icon gets a gold ring.
import { accountGames } from "./account.js";
import { api, myGames } from "./api.js";

const NAME_KEY = "nightsky.name";
const NOTIFY_KEY = "nightsky.notify";
const TOLD_KEY = "nightsky.told";   // {gid: version} of turns already announced
const POLL_MS = 15000;

export function displayName() {
  return (localStorage.getItem(NAME_KEY) || "").trim();
}

export function setDisplayName(name) {
  const clean = String(name || "").replace(/[\u0000-\u001f\u007f-\u009f]/g, "").trim().slice(0, 40);
  if (clean) localStorage.setItem(NAME_KEY, clean); else localStorage.removeItem(NAME_KEY);
  return clean;
}

/** Every (game id, token) this browser holds: the seat it plays, and hot-seat seats too. */
export function heldPairs() {
  const out = [];
  const games = Object.entries(myGames()).sort((a, b) => (b[1].at || 0) - (a[1].at || 0));
  for (const [id, g] of games) {
    const toks = new Set([g.token, ...Object.values(g.tokens || {})].filter(Boolean));
    for (const token of toks) out.push({ id, token });
  }
  return out.slice(0, 100);
}

/** The server's answer for each held seat, grouped per table: [{id, entries, yourMove, ...}];
 * signed in, the account's tables this browser holds no working token for too (`viaAccount`:
 * opening one takes the account's seat to this browser). */
export async function fetchMine() {
  const pairs = heldPairs();
  const [res, acc] = await Promise.all([
    pairs.length ? api("/api/mine", { method: "POST", body: { games: pairs } }) : { games: [] },
    accountGames(),
  ]);
  const byId = new Map();
  for (const e of res.games) {
    if (!byId.has(e.id)) byId.set(e.id, []);
    byId.get(e.id).push(e);
  }
  for (const e of acc) {
    if (!e.known || (byId.get(e.id) || []).some((x) => x.known)) continue;
    byId.set(e.id, [{ ...e, viaAccount: true }]);
  }
  return [...byId.entries()].map(([id, entries]) => {
    const known = entries.filter((e) => e.known);
    const first = known[0] || entries[0];
    return {
      id, entries: known, known: known.length > 0, title: first.title, status: first.status,
      version: first.version, updated_at: first.updated_at, to_move_names: first.to_move_names || [],
      yourMove: known.some((e) => e.your_move), viaAccount: known.some((e) => e.viaAccount),
      game: first.game,
    };
  });
}

// ------------------------------------------------------------------ the badge
let count = 0;
let own = false;          // this page's own table waits for your move
let exclude = null;
let icon = null;
let opened = null;        // {gid: version} of the turns already yours when this page opened
const listeners = [];

function applyTitle() {
  const base = document.title.replace(/^\(\d+\) /, "");
  const want = count ? `(${count}) ${base}` : base;
  if (document.title !== want) document.title = want;
}

function drawIcon() {
  const link = document.querySelector('link[rel="icon"]');
  if (!link) return;
  if (icon === null) icon = link.getAttribute("href");
  link.dataset.badge = String(count);
  link.dataset.own = String(own);
  if (!count && !own) { link.setAttribute("href", icon); return; }
  const c = document.createElement("canvas");
  c.width = c.height = 32;
  const g = c.getContext("2d");
  if (!g) return;
  g.fillStyle = "#0b1130";
  g.beginPath(); g.arc(14, 18, 14, 0, 2 * Math.PI); g.fill();
  if (own) {  // your move here: a gold ring round the star
    g.strokeStyle = "#ffd76a"; g.lineWidth = 4;
    g.beginPath(); g.arc(14, 18, 12, 0, 2 * Math.PI); g.stroke();
  }
  g.fillStyle = "#ffd76a";
  g.font = "22px sans-serif"; g.textAlign = "center"; g.textBaseline = "middle";
  g.fillText("✦", 14, 19);
  if (count) {
    g.fillStyle = "#ff4d5e";
    g.beginPath(); g.arc(23, 9, 9, 0, 2 * Math.PI); g.fill();
    g.fillStyle = "#ffffff";
    g.font = "bold 13px sans-serif";
    g.fillText(count > 9 ? "9+" : String(count), 23, 10);
  }
  link.setAttribute("href", c.toDataURL("image/png"));
}

/** A game page: whether its own table waits for your move (the tab's icon shows it). */
export function markOwnMove(on) {
  if (own === Boolean(on)) return;
  own = Boolean(on);
  drawIcon();
}

function setCount(n) {
  count = n;
  applyTitle();
  drawIcon();
}

/** Notifications: wanted (the player pressed the button) and allowed by the browser. */
export function notifying() {
  return localStorage.getItem(NOTIFY_KEY) === "on" && "Notification" in window
    && Notification.permission === "granted";
}

/** Ask the browser's permission (only ever from a click) and remember the choice. */
export async function askToNotify() {
  if (!("Notification" in window)) return "unsupported";
  const answer = await Notification.requestPermission();
  if (answer === "granted") localStorage.setItem(NOTIFY_KEY, "on");
  else localStorage.removeItem(NOTIFY_KEY);
  await refreshMine();
  return answer;
}

export function stopNotifying() {
  localStorage.removeItem(NOTIFY_KEY);
}

function told() {
  try { return JSON.parse(localStorage.getItem(TOLD_KEY) || "{}"); } catch { return {}; }
}

function announce(tables) {
  // The first answer after the page opened is the baseline: a turn that was already yours
  // then is no news (turning notifications on must not fire one per old table).
  if (opened === null) {
    opened = {};
    for (const t of tables) if (t.yourMove) opened[t.id] = t.version;
    return;
  }
  if (!notifying()) return;
  const seen = told();
  for (const t of tables) {
    if (!t.yourMove || t.id === exclude || seen[t.id] === t.version || opened[t.id] === t.version) continue;
    seen[t.id] = t.version;
    const n = new Notification(`Your move: ${t.title}`, {
      body: `Table ${t.id} is waiting for you.`, tag: `nightsky-${t.id}`,
    });
    n.onclick = () => { window.focus(); location.href = `/g/${t.id}`; };
  }
  localStorage.setItem(TOLD_KEY, JSON.stringify(seen));
}

/** A game page's own table became your move while its tab is in the background: say so (once
 * per table and version, as for the other tables). */
export function announceOwn(gid, title, version) {
  if (!notifying() || !document.hidden) return;
  const seen = told();
  if (seen[gid] === version) return;
  seen[gid] = version;
  localStorage.setItem(TOLD_KEY, JSON.stringify(seen));
  const n = new Notification(`Your move: ${title}`, {
    body: `Table ${gid} is waiting for you.`, tag: `nightsky-${gid}`,
  });
  n.onclick = () => window.focus();
}

/** Ask the server again now; the badge, the listeners and the notifications follow. */
export async function refreshMine() {
  let tables = [];
  try { tables = await fetchMine(); } catch { return; }
  setCount(tables.filter((t) => t.yourMove && t.id !== exclude).length);
  announce(tables);
  for (const f of listeners) f(tables);
}

/** Call ``f(tables)`` after every answer. */
export function onMine(f) { listeners.push(f); }

let started = false;
/** Keep the badge up to date on this page; ``skip``: the table this page shows. */
export function startBadge(skip = null) {
  exclude = skip;
  if (started) return;
  started = true;
  const title = document.querySelector("title");
  if (title) new MutationObserver(applyTitle).observe(title, { childList: true, characterData: true, subtree: true });
  refreshMine();
  setInterval(refreshMine, POLL_MS);
  document.addEventListener("visibilitychange", () => { if (!document.hidden) refreshMine(); });
}
