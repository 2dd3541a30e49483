// The game page: board (SVG or text), seats, legal choices, log, push, undo, end screen, replay.
import { ApiError, api, h, myGames, rememberSeat, seatColor, syncChildren, toast } from "./api.js";
import { ratingBox } from "./rating.js";
import { drawBoard } from "./board.js";
import { clockNode, drawAway, logMark, tickClocks } from "./clocks.js";
import { drawViewTree } from "./viewtree.js";
import { announceOwn, displayName, markOwnMove } from "./mine.js";
import { clearRefusal, explainRefusal, linkRules } from "./rules.js";
import { pushedView, remember, stringEdit } from "./patch.js";
import { GROUP_MIN, boardName, commonStart, groupChoices } from "./groups.js";

const $ = (id) => document.getElementById(id);
const gid = location.pathname.split("/").filter(Boolean).pop();

let token = null;
let current = null;        // the last view the server sent
let narrowed = null;       // choices a board click narrowed the list to
let board = null;
let busy = false;
let endDismissed = false;
let replaying = null;      // {step, steps, moves}
let socket = null;
let pollTimer = null;
let reachable = true;      // false while the server does not answer (moves wait)
let wasMine = null;        // whether the last view drawn was your move (null: none drawn yet)

// ------------------------------------------------------------------ tokens
// A link holds either the creator's own token (#token=...) or a one-time invite
// (#invite=...), which this page claims: the server answers the seat's own new token, and the
// invite is spent. Each seat token this browser holds is kept, so the creator can claim
// several seats and play them in turn here (hot seat).
async function takeTokenFromLink() {
  const t = location.hash.match(/token=([A-Za-z0-9_-]+)/);
  const inv = location.hash.match(/invite=([A-Za-z0-9_-]+)/);
  if (t || inv) history.replaceState(null, "", location.pathname);  // keep secrets out of the bar
  if (t) await takeOver(t[1]);
  if (inv) await claim(inv[1], true);
  const mine = myGames()[gid];
  token = mine ? mine.token : null;
}

// A seat link opened here: unless this browser already holds that token, the server gives it
// a fresh one and retires the link's, so a link changes hands once and whoever held it before
// (a creator who claimed the seat for a friend) no longer reads the seat.
async function takeOver(linkToken) {
  const mine = myGames()[gid] || {};
  if (mine.token === linkToken || Object.values(mine.tokens || {}).includes(linkToken)) {
    rememberSeat(gid, { token: linkToken });
    return;
  }
  try {
    const j = await api(`/api/games/${gid}/handover`, { method: "POST", token: linkToken });
    rememberSeat(gid, { token: j.token, seat: j.seat, tokens: { ...(mine.tokens || {}), [j.seat]: j.token } });
  } catch (e) {
    toast(e.status === 401 ? "This seat link was already opened in another browser: it no longer works." : e.message);
  }
}

async function claim(code, play) {
  try {
    // An invite link seats you under the name you set (not the creator's hot-seat claims).
    const name = play ? displayName() || null : null;
    const j = await api(`/api/games/${gid}/claim`, { method: "POST", body: { invite: code, name } });
    const mine = myGames()[gid] || {};
    const tokens = { ...(mine.tokens || {}), [j.seat]: j.token };
    rememberSeat(gid, play ? { token: j.token, seat: j.seat, tokens } : { tokens });
    return j;
  } catch (e) {
    toast(e.status === 410 ? "This invite was already used." : e.message);
    return null;
  }
}

function switchSeat(tok) {
  token = tok;
  rememberSeat(gid, { token: tok });
  const old = socket;
  socket = null;  // the old socket's late pushes (the other seat's views) are ignored
  if (old) old.close();
  connect();
  refresh();
}

function keepSeatToken(v) {
  if (v.seat === null || !token) return;
  // No entry: the player left this table (resign.js forgot it) and a push still in flight
  // must not bring it back into their games.
  const mine = myGames()[gid];
  if (!mine) return;
  if ((mine.tokens || {})[v.seat] !== token) {
    rememberSeat(gid, { seat: v.seat, tokens: { ...(mine.tokens || {}), [v.seat]: token } });
  }
}

// ------------------------------------------------------------------ names and colours
// One identity per seat: the server sends each seat's name and colour, and the board, the
// players panel, the log, the end screen and the replay all take them from there.
function seatName(v, seat) {
  if (seat < 0) return "Chance";
  const s = v.seats[seat];
  return s ? s.name : `Seat ${seat + 1}`;
}

function colorOf(v, seat) {
  const s = seat >= 0 && v && v.seats ? v.seats[seat] : null;
  return s && s.color ? s.color : seatColor(seat);
}

function dot(v, seat, extra = "") {
  const c = colorOf(v, seat);
  return h("span", { class: "dot", style: `color:${c};background:${c}${extra}` });
}

// ------------------------------------------------------------------ drawing
function render(v) {
  current = v;
  if (!replaying) drawn = { version: v.version, seat: v.seat };
  const mine = yourMove(v);
  // The tab says whose move it is: "▶ Your move" leads the title, and the icon is marked.
  document.title = `${mine ? "▶ Your move · " : ""}nightsky · ${v.title}`;
  markOwnMove(mine);
  // A move that became yours since the page opened, with the tab in the background: notify.
  if (mine && wasMine === false) announceOwn(gid, v.title, v.version);
  wasMine = mine;
  $("crumb").replaceChildren(h("b", {}, v.title), ` · table ${v.id} · `,
    v.seat === null ? "spectator" : `you are ${seatName(v, v.seat)}`);
  keepSeatToken(v);
  document.dispatchEvent(new CustomEvent("nightsky:view", { detail: v }));  // chat, rematch
  linkRules(v.game);
  if (replaying) return;
  drawBanner(v);
  drawSeats(v);
  drawBoardAndActions(v);
  document.body.dataset.version = v.version;  // the version drawn (tests wait on it)
  drawLog(v.log, v);
  // Your own seat moving to a device was this browser taking it: not news here.
  const ownMove = v.seat === null ? null : ` took seat ${v.seat + 1} on a new device.`;
  const notices = (v.notices || []).filter((n) => !ownMove || !n.text.endsWith(ownMove));
  $("notices").replaceChildren(...notices.map((n) => h("div", { class: "notice" }, "⚑ ", n.text)));
  if ($("more").open) drawDetails(v);
  drawInvites(v);
  drawAway(v, $("away-toggle"), setAway);
  if (v.terminal && !endDismissed) showEnd(v);
  maybeAutoplay();
  finishLog();
}

/** True when this page's seat has a choice to make now. */
function yourMove(v) {
  return Boolean(v && !v.terminal && v.seat !== null && v.legal && v.legal.length
    && v.current_players.includes(v.seat));
}

function drawBanner(v) {
  const b = $("banner");
  b.classList.remove("mine");
  b.classList.toggle("offline", !reachable);
  if (!reachable) {
    b.textContent = "Connection lost — reconnecting… (moves are paused)";
  } else if (v.terminal) {
    b.textContent = `Game over — ${v.winners.map((w) => seatName(v, w)).join(" & ")} won`;
  } else if (v.seat !== null && v.current_players.includes(v.seat)) {
    b.classList.add("mine");
    b.textContent = v.legal.length === 1 ? "Your turn — one choice" : "Your turn — choose on the board or in the list";
  } else {
    const who = v.current_players.filter((p) => p >= 0).map((p) => seatName(v, p));
    b.textContent = who.length ? `Waiting for ${who.join(", ")}…` : "The stars are moving…";
  }
}

/**
 * One line per seat: colour, name, the counts that matter in this game (the game's own
 * `glance`, read from the view), the score, and who is to act; the kind of player (human, bot
 * level, invited) and the clock sit under it, small.
 */
function drawSeats(v) {
  const box = $("seats");
  box.replaceChildren();
  const glance = (v.glance && v.glance.seats) || [];
  for (const s of v.seats) {
    const acting = v.current_players.includes(s.seat) && !v.terminal;
    const kind = s.kind === "human" ? (s.joined ? "human" : "invited — seat free")
      : s.kind === "bot" ? "bot" : "played by the rules";
    const line = glance[s.seat] || {};
    const score = v.scores ? v.scores[s.seat] : line.score;
    const counts = (line.counts || []).map((c) => `${c.value} ${c.label}`).join(" · ");
    box.append(h("div", {
      class: `seat${acting ? " acting" : ""}${s.seat === v.seat ? " me" : ""}`, "data-seat": s.seat,
      title: [s.name, kind, counts].filter(Boolean).join(" · "),
    },
    dot(v, s.seat),
    h("div", { class: "who-line" },
      h("div", { class: "name-row" }, h("span", { class: "name" }, s.name),
        acting ? h("span", { class: "hourglass", title: "to act", "aria-label": "to act" }, "✦") : null),
      h("div", { class: "kind" }, h("span", { class: "counts" }, counts || kind)),
      clockNode(v, s.seat)),
    score !== null && score !== undefined
      ? h("span", { class: "score", title: "score", "aria-label": `score ${fmt(score)}` }, fmt(score)) : h("span")));
  }
}

function fmt(x) {
  return Number.isInteger(x) ? String(x) : x.toFixed(1);
}

function drawBoardAndActions(v) {
  // A redraw while picking (another seat moved, simultaneous turns) keeps the pick when the
  // narrowed choices are all still legal; otherwise the pick is forgotten.
  if (narrowed) {
    const still = new Set(v.legal.map((c) => c.action));
    if (!narrowed.every((c) => still.has(c.action))) { narrowed = null; closeMenu(); }
  }
  const keep = narrowed && board ? board.picked() : [];
  board = drawBoard($("board"), {
    svg: v.svg, text: v.text, legal: v.legal, picked: keep, edit: stringEdit(v, "svg"),
    dock: v.glance && v.seat !== null ? v.glance.dock : null,
    onChoose: (c) => take(c),
    onNarrow: (choices, ev) => {
      narrowed = choices;
      drawActions(v);
      // When every choice left has a further target on the board that tells it apart, the
      // next click there decides (the side list is narrowed too); a menu would only hide
      // those targets. Choices that end at the picked spot (a discard, a rotation) need it.
      if (board.needsMenu() && choices.length <= MENU_MAX) openMenu(choices, ev); else closeMenu();
    },
  });
  const kept = board.picked();
  if (narrowed && !kept.length) { narrowed = null; closeMenu(); }
  if (narrowed) narrowed = v.legal.filter((c) => kept.every((t) => (c.targets || []).includes(t)));
  drawActions(v);
}

// The choice buttons drawn last, by action: a redraw keeps the buttons of the choices that
// stay (a move usually changes few of them) and makes only the new ones.
let buttons = new Map();
const choiceOf = new WeakMap();  // button -> its choice

function choiceButton(c) {
  let b = buttons.get(c.action);
  if (!b || b.textContent !== c.label) {
    b = h("button", { type: "button", class: "action", "data-action": c.action, title: c.action }, c.label);
  }
  b.disabled = !reachable;
  choiceOf.set(b, c);
  return b;
}

function drawActions(v) {
  const box = $("actions");
  const mine = v.seat !== null && v.legal.length > 0;
  $("actions-panel").classList.toggle("idle", !mine);
  $("undo").hidden = !v.can_undo;
  $("autoplay").parentElement.hidden = v.seat === null || v.terminal;
  const filter = $("filter");
  if (!mine) {
    filter.hidden = true;
    $("actions-title").textContent = v.seat === null ? "Watching" : "Your choices";
    buttons = new Map();
    box.replaceChildren(h("div", { class: "empty" }, v.terminal ? "The game is over."
      : v.seat === null ? "You are watching this table." : "Not your turn: the others are choosing."));
    return;
  }
  let list = narrowed || v.legal;
  $("actions-title").textContent = narrowed
    ? `Your choices (${narrowed.length} of ${v.legal.length})` : `Your choices (${v.legal.length})`;
  const nodes = [];
  if (narrowed) {
    nodes.push(h("div", { class: "narrowed" }, `${narrowed.length} choices on that spot`,
      h("a", { href: "#", onclick: (e) => { e.preventDefault(); cancelPick(); } }, "show all")));
  }
  filter.hidden = v.legal.length <= 12 || !!narrowed;
  const q = filter.hidden ? "" : filter.value.trim().toLowerCase();
  if (q) {
    list = list.filter((c) => c.label.toLowerCase().includes(q) || c.action.toLowerCase().includes(q));
    $("actions-title").textContent = `Your choices (${list.length} of ${v.legal.length})`;
  }
  const made = list.map(choiceButton);
  buttons = new Map(made.map((b) => [b.dataset.action, b]));
  // A list too long to scan comes in groups by the board target the choices share (a
  // narrowed or filtered list is short: flat).
  const grouped = !narrowed && !q && list.length > GROUP_MIN ? groupChoices(list) : null;
  syncChildren(box, nodes.concat(grouped ? groupNodes(grouped) : made));
}

let groupBoxes = new Map();  // group key (a target) -> its <details>, kept: an open one stays open

/** One folding box per group, named as the board names the target its choices share; the
 * first is open when none is, so the list starts with choices to take. */
function groupNodes(grouped) {
  const was = groupBoxes;
  groupBoxes = new Map();
  const anyOpen = grouped.some((g) => was.get(g.key)?.open);
  return grouped.map((g, i) => {
    let d = was.get(g.key);
    if (!d) {
      d = h("details", { class: "choice-group", "data-target": g.key },
        h("summary", {}), h("div", { class: "group-choices" }));
    }
    if (!anyOpen && i === 0) d.open = true;  // (the one open before went: its card was played)
    const name = boardName(board && board.targets ? board.targets.get(g.key) : null)
      || commonStart(g.choices.map((c) => c.label)) || g.key;
    const text = `${name} · ${g.choices.length}`;
    const sum = d.firstChild;
    if (sum.textContent !== text) sum.textContent = text;
    syncChildren(d.lastChild, g.choices.map((c) => buttons.get(c.action)));
    groupBoxes.set(g.key, d);
    return d;
  });
}

/** The choice list's one set of handlers (its buttons change with every move; these stay). */
function listenToChoices() {
  const box = $("actions");
  const choice = (e) => {
    const b = e.target.closest && e.target.closest("button.action");
    return b && box.contains(b) ? choiceOf.get(b) : null;
  };
  box.addEventListener("click", (e) => { const c = choice(e); if (c) take(c); });
  // (mouseover/out bubble, unlike mouseenter/leave: one pair for every button)
  // A group's name lights the target its choices share.
  const group = (e) => {
    const s = e.target.closest && e.target.closest("summary");
    return s && box.contains(s) ? { targets: [s.parentElement.dataset.target] } : null;
  };
  box.addEventListener("mouseover", (e) => { const c = choice(e) || group(e); if (c && board) board.highlight(c); });
  box.addEventListener("mouseout", (e) => {
    const c = choice(e) || group(e);
    const over = e.target.closest && e.target.closest("button.action, summary");
    const to = e.relatedTarget && e.relatedTarget.closest && e.relatedTarget.closest("button.action");
    if (c && board && !(over && over.contains(e.relatedTarget))) board.highlight(to ? choiceOf.get(to) ?? null : null);
  });
}

function openMenu(choices, ev) {
  closeMenu();
  const menu = h("div", { class: "menu", id: "menu", role: "menu" },
    choices.map((c) => h("button", { type: "button", "data-action": c.action, onclick: () => { closeMenu(); take(c); } }, c.label)),
    h("button", { type: "button", class: "ghost", onclick: cancelPick }, "Cancel"));
  const x = ev && ev.clientX !== undefined ? ev.clientX : 200;
  const y = ev && ev.clientY !== undefined ? ev.clientY : 200;
  menu.style.left = `${Math.min(x + 8, window.innerWidth - 220)}px`;
  menu.style.top = `${Math.max(8, Math.min(y + 8, window.innerHeight - 40 * (choices.length + 1)))}px`;
  document.body.append(menu);
}

function closeMenu() { $("menu")?.remove(); }

const MENU_MAX = 12;

/** Forget a half-made board choice: the menu, the narrowed list and the picked targets. */
function cancelPick() {
  closeMenu();
  if (!narrowed) return;
  narrowed = null;
  board?.reset();
  if (current) drawActions(current);
}

let logShown = [];  // the lines on screen, to append only what is new

/** One log line: its number (this viewer's, without gaps), the sentence with the seat names in
 * their colours, and the entry's notation as a tooltip. A stand-in bot's mark goes on the
 * move's own line only (`first`), not on the lines that tell what the move led to. */
function logNode(line, v, first = true) {
  return h("div", { class: `line${line.seat < 0 ? " chance" : ""}`, title: line.notation || "" },
    h("span", { class: "num" }, line.n ?? line.index + 1),
    line.seat < 0 ? "✦ " : null,
    ...colourNames(line.text, v), first ? logMark(line) : null);
}

/** Whether `lines[i]` is the first line its history entry has in `lines`. */
const firstOfEntry = (lines, i) => i === 0 || lines[i - 1].index !== lines[i].index;

/** ``text`` split so that each seat name in it is shown in that seat's colour. */
function colourNames(text, v) {
  const seats = (v.seats || []).filter((s) => s.name).sort((a, b) => b.name.length - a.name.length);
  if (!seats.length) return [text];
  const esc = (x) => x.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
  const re = new RegExp(`(${seats.map((s) => esc(s.name)).join("|")})`, "g");
  return text.split(re).filter((part) => part !== "").map((part) => {
    const s = seats.find((x) => x.name === part);
    return s ? h("span", { class: "who", style: `color:${colorOf(v, s.seat)}` }, part) : part;
  });
}

function drawLog(lines, v) {
  const box = $("log");
  // The server numbers this viewer's lines without gaps (a hidden draw has no line).
  const shown = lines.slice(-300);
  const node = (l, i) => logNode(l, v, firstOfEntry(shown, i));
  // The lines already on screen that the new list starts with (the oldest may have scrolled
  // out of the last 300): those stay, the ones before go, the new ones are appended.
  const from = shown.length ? logShown.findIndex((l) => l.n === shown[0].n) : -1;
  const kept = from < 0 ? 0 : logShown.length - from;
  const same = from >= 0 && kept <= shown.length && box.childElementCount === logShown.length
    && logShown.slice(from).every((l, i) =>
      l.n === shown[i].n && l.text === shown[i].text && l.seat === shown[i].seat);
  let added = shown.length;
  if (same) {
    for (let i = 0; i < from; i++) box.firstElementChild.remove();
    added = shown.length - kept;
    if (added) box.append(...shown.slice(kept).map((l, k) => node(l, kept + k)));
  } else {
    box.replaceChildren(...shown.map(node));
  }
  logShown = shown;
  // Follow the newest line (when the reader is at the bottom) once the page is drawn:
  // setting scrollTop lays the page out, so it is the render's last step (finishLog).
  if (added && (logAtBottom || shown.length < 40)) logFollow = true;
}

let logFollow = false;  // the log is to be scrolled to its newest line at the end of the draw

/** Scroll the log to its newest line if a draw asked for it (the one layout it costs is the
 * one the next frame needs anyway, as long as nothing is written after it). */
function finishLog() {
  if (!logFollow) return;
  logFollow = false;
  $("log").scrollTop = 1e9;  // clamped by the browser
}

let logAtBottom = true;

/** "What you know": the view as labelled sections; the raw JSON and text behind a toggle. */
function drawDetails(v) {
  drawViewTree($("viewtree"), v.view, v.view_labels || {});
  if ($("raw").open) drawRaw(v);
}

function drawRaw(v) {
  $("text").hidden = !v.svg;
  $("text").textContent = v.svg ? v.text : "";
  $("rawjson").textContent = JSON.stringify(v.view, null, 2);
}

function drawInvites(v) {
  const mine = myGames()[gid] || {};
  const invites = mine.invites || [];
  const tokens = mine.tokens || {};
  const free = v.seats.filter((s) => s.kind === "human" && !s.joined).map((s) => s.seat);
  const live = invites.filter((i) => free.includes(i.seat));
  const rows = live.map((i) => {
    const input = h("input", { readonly: true, value: i.invite, onfocus: (e) => e.target.select() });
    return h("div", {}, h("div", { class: "muted" }, `One-time link for ${seatName(v, i.seat)}:`),
      h("div", { class: "row" }, input,
        h("button", { type: "button", onclick: () => navigator.clipboard?.writeText(i.invite).then(() => toast("Copied", "info")) }, "Copy"),
        h("button", { type: "button", class: "ghost", "data-claim": i.seat, onclick: () => claimHere(i) }, "Play it here")));
  });
  // The creator may renew the invite of a free seat whose link was used up (its player left).
  if (mine.creator && !v.terminal) {
    for (const seat of free.filter((s) => !live.some((i) => i.seat === s))) {
      rows.push(h("div", { class: "row" }, h("span", { class: "muted" }, `${seatName(v, seat)} is free`),
        h("button", { type: "button", onclick: () => renew(seat) }, "New invite")));
    }
  }
  // The creator sees every seat: whose link was used, and who is still to come.
  if (mine.creator) {
    for (const s of v.seats.filter((x) => x.kind === "human" && x.joined && x.seat !== v.seat)) {
      rows.push(h("div", { class: "muted small", "data-seat-state": s.seat }, `${s.name} has taken seat ${s.seat + 1}`));
    }
  }
  // Your own link: open it on another device to play this seat there.
  if (token && v.seat !== null) {
    const own = `${location.origin}/g/${gid}#token=${token}`;
    const input = h("input", { readonly: true, value: own, id: "own-link", onfocus: (e) => e.target.select() });
    // A creator holding seats claimed for others: sending this link hands the seat over.
    const note = Object.keys(tokens).length > 1
      ? ` Only the first browser to open it will hold ${seatName(v, v.seat)}; this one then loses that seat.`
      : "";
    rows.push(h("div", {}, h("div", { class: "muted", id: "own-link-note" }, `Your own link (${seatName(v, v.seat)}), to play on another device — keep it secret:${note}`),
      h("div", { class: "row" }, input,
        h("button", { type: "button", onclick: () => navigator.clipboard?.writeText(own).then(() => toast("Copied", "info")) }, "Copy"))));
  }
  const others = Object.entries(tokens).filter(([seat]) => Number(seat) !== v.seat);
  if (others.length) {
    rows.push(h("div", { class: "row" }, h("span", { class: "muted" }, "Hot seat:"),
      others.map(([seat, tok]) => h("button", { type: "button", "data-seat": seat, onclick: () => switchSeat(tok) }, `Play as ${seatName(v, Number(seat))}`))));
  }
  $("invite-panel").hidden = !rows.length || v.terminal;
  const privacy = v.listed ? "Open table: listed in the lobby; anyone may take a free seat."
    : "Private table: not listed in the lobby; a free seat is taken only with its invite link.";
  rows.unshift(h("div", { class: "muted small", id: "table-privacy" }, privacy));
  $("invites").replaceChildren(...rows);
}

async function claimHere(invite) {
  const mine = myGames()[gid] || {};
  await claim(invite.code, false);  // stay on your seat; "Play as" switches
  rememberSeat(gid, { invites: (mine.invites || []).filter((i) => i.seat !== invite.seat) });
  if (current) drawInvites(current);
}

async function renew(seat) {
  const mine = myGames()[gid] || {};
  const own = (mine.tokens || {})[mine.creatorSeat] || token;
  try {
    const r = await api(`/api/games/${gid}/invites`, { method: "POST", token: own, body: { seat } });
    rememberSeat(gid, { invites: [...(mine.invites || []).filter((i) => i.seat !== seat), r] });
    drawInvites(current);
  } catch (e) { toast(e.message); }
}

// ------------------------------------------------------------------ end screen and replay
/** The final scores: one column per source of points, in the game's words, then the total;
 * counts that are not points (how many creatures) come after it, apart. */
function scoreTable(v) {
  if (!v.scores) return h("p", { class: "muted" }, "Ended by resignation before the end: no final scores.");
  let parts = v.score_parts;
  if (!parts) {
    parts = [];
    for (const row of v.breakdown || []) for (const k of Object.keys(row)) {
      if (k !== "total" && !parts.some((p) => p.key === k)) parts.push({ key: k, label: k.replace(/_/g, " "), points: true });
    }
  }
  const points = parts.filter((p) => p.points);
  const counts = parts.filter((p) => !p.points);
  const cell = (p, k) => {
    const row = v.breakdown[p] || {};
    return h("td", {}, k in row ? fmt(row[k]) : "—");
  };
  const order = v.seats.map((s) => s.seat).filter((p) => v.scores[p] !== undefined)
    .sort((a, b) => (v.scores[b] ?? 0) - (v.scores[a] ?? 0));
  return h("table", { class: "breakdown" },
    h("tr", {}, h("th", {}, "Player"), points.map((p) => h("th", {}, p.label)), h("th", {}, "Total points"),
      counts.map((p) => h("th", { class: "count" }, p.label))),
    order.map((p) => h("tr", { class: v.winners.includes(p) ? "win" : "" },
      h("td", {}, dot(v, p, ";margin-right:8px"), seatName(v, p), v.winners.includes(p) ? " ★" : ""),
      points.map((x) => cell(p, x.key)),
      h("td", { class: "total" }, fmt(v.scores[p])),
      counts.map((x) => { const td = cell(p, x.key); td.classList.add("count"); return td; }))));
}

function showEnd(v) {
  const won = v.seat !== null && v.winners.includes(v.seat);
  const end = $("end");
  end.replaceChildren(h("div", { class: "panel endcard", id: "endcard" },
    h("h2", {}, won ? "Victory!" : `${v.winners.map((w) => seatName(v, w)).join(" & ")} won`),
    h("p", { class: "muted" }, `${v.title} · final scores`),
    scoreTable(v),
    ratingBox(v),
    h("div", { class: "row", style: "justify-content:center" },
      h("button", { class: "primary", type: "button", id: "replay-btn", onclick: startReplay }, "▶ Replay the game"),
      h("a", { class: "btn", href: `/api/games/${gid}/record`, download: `nightsky-${v.game}-${gid}.json` }, "Download record"),
      h("button", { type: "button", onclick: () => { endDismissed = true; end.hidden = true; } }, "See the board"),
      h("a", { class: "btn", href: "/" }, "Lobby")),
    h("div", { class: "rematch-box", id: "end-rematch" })));
  end.hidden = false;
  document.dispatchEvent(new CustomEvent("nightsky:end"));
}

// The replay shows each player their own view (their own cards face up): it is fetched with
// this seat's token; a spectator gets the public view.
async function startReplay() {
  $("end").hidden = true;
  endDismissed = true;
  const moves = [...new Set(current.log.filter((l) => l.seat >= 0).map((l) => l.index + 1))];
  replaying = { step: 0, steps: 0, moves };
  const bar = h("div", { class: "replaybar", id: "replaybar" },
    h("button", { type: "button", id: "rp-prev", onclick: () => stepReplay(-1) }, "◀ Prev"),
    h("input", { type: "range", id: "rp-range", min: 0, max: 0, value: 0,
      oninput: (e) => showStep(Number(e.target.value)) }),
    h("button", { type: "button", id: "rp-next", onclick: () => stepReplay(1) }, "Next ▶"),
    h("button", { type: "button", onclick: stopReplay }, "Exit replay"));
  $("board").before(bar);
  await showStep(0);
}

function stepReplay(dir) {
  const { step, moves, steps } = replaying;
  let next;
  if (dir > 0) next = moves.find((m) => m > step) ?? steps;
  else next = [...moves].reverse().find((m) => m < step) ?? 0;
  return showStep(next);
}

async function showStep(step) {
  if (!replaying) return;
  replaying.step = step;
  $("rp-range").value = step;
  try {
    const r = await api(`/api/games/${gid}/replay?step=${step}`, { token });
    if (!replaying || replaying.step !== step) return;
    replaying.steps = r.steps;
    $("rp-range").max = r.steps;
    $("rp-range").value = step;
    drawBoard($("board"), { svg: r.svg, text: r.text, legal: [], onChoose() {}, onNarrow() {} });
    drawLog(r.log, r);
    finishLog();
    const last = r.log[r.log.length - 1];
    $("banner").classList.remove("mine");
    $("banner").textContent = `Replay · step ${step} of ${r.steps}`
      + (r.seat === null ? " · spectator's view" : ` · as ${seatName(r, r.seat)} saw it`)
      + (last ? ` · ${last.text}` : " · set-up");
  } catch (e) { toast(e.message); }
}

function stopReplay() {
  replaying = null;
  $("replaybar")?.remove();
  render(current);
}

// ------------------------------------------------------------------ acting
let frame = null;   // the animation frame that will draw `current`, if one is asked for
let drawn = null;   // {version, seat} of the last view drawn

/**
 * Draw `current` now (a pending frame is cancelled: it would draw the same view). The board
 * always ends at the newest view the page accepted: a view older than the one drawn last
 * (for the same seat) is never drawn over it, whichever way the draw was asked for.
 */
function drawCurrent() {
  if (frame !== null) { cancelAnimationFrame(frame); frame = null; }
  const v = current;
  if (!v || (drawn && drawn.seat === v.seat && v.version < drawn.version)) return;
  render(v);
}

function accept(v) {
  remember(v);  // the base of the next light update (patch.js)
  // The POST reply and the push bring the same version: draw it once. Equal versions differ
  // only when a seat was taken (joins do not move the game). Views arriving faster than the
  // screen refreshes are drawn once per frame, the newest only.
  if (!current || v.version > current.version || v.seat !== current.seat
      || (v.version === current.version && JSON.stringify(v.seats) !== JSON.stringify(current.seats))) {
    current = v;
    // The view that answers this page's own move is drawn at once (the frame about to be
    // painted shows it, a frame sooner); other pushes wait for the next frame, where the
    // newest of a burst (the bots' replies) is drawn once.
    if (busy) drawCurrent();
    else if (frame === null) frame = requestAnimationFrame(() => { frame = null; drawCurrent(); });
    maybeAutoplay();
  }
}

// Moves go over the socket while it is live and seated (one connection per tab, no request
// per move): `{"type": "act", id, action, version}`, answered by an `ack` (after the view that
// shows the move, so nothing else to draw) or an `error` with the codes of the HTTP API.
// Without a live socket, or when it closes before the answer, the move goes as a POST (the
// version check refuses it if the socket's copy was played after all).
let moveId = 0;
const waiting = new Map();  // move id -> {resolve, reject, ws}

function sendOverSocket(action, version) {
  const ws = socket;
  if (!ws || !ws.seated || ws.readyState !== WebSocket.OPEN) return null;
  const id = ++moveId;
  return new Promise((resolve, reject) => {
    waiting.set(id, { resolve, reject, ws });
    ws.send(JSON.stringify({ type: "act", id, action, version }));
  });
}

function answered(msg) {
  const w = waiting.get(msg.id);
  if (!w) return;
  waiting.delete(msg.id);
  if (msg.type === "ack") w.resolve(msg);
  else w.reject(new ApiError(msg.status, { error: msg }));
}

function socketGone(ws) {
  for (const [id, w] of waiting) {
    if (w.ws !== ws) continue;
    waiting.delete(id);
    w.reject(Object.assign(new Error("the socket closed"), { transport: true }));
  }
}

async function play(action, version) {
  const viaSocket = sendOverSocket(action, version);
  if (viaSocket) {
    try {
      await viaSocket;
      document.body.dataset.lastMove = "socket";
      return null;
    } catch (e) {
      if (!e.transport) throw e;
    }
  }
  document.body.dataset.lastMove = "http";
  return api(`/api/games/${gid}/actions`, { method: "POST", token, body: { action, version } });
}

/** The server answers again (true) or not (false): the page says so and moves wait. */
function setReachable(ok) {
  if (ok === reachable) return;
  reachable = ok;
  document.body.classList.toggle("offline", !ok);
  $("offline").hidden = ok;
  if (!ok) {
    $("conn").classList.remove("live");
    $("conn").textContent = "offline";
    clearInterval(pollTimer);
    pollTimer = setInterval(refresh, 2000);  // and the socket keeps trying on its own
  }
  if (current) render(current);
}

/** A request that never reached the server (no answer at all, not an HTTP error). */
const unreachable = (e) => !(e instanceof ApiError) && !e.transport;

/** A refusal in the player's words (the server's message, its rule shown beside the choices). */
function refusalText(e) {
  const words = {
    not_your_turn: "It is not your turn yet: wait for the others.",
    game_over: "The game is over: no more moves.",
    rate_limited: "Too many moves at once: wait a moment and try again.",
    invalid_action: "That choice could not be read: pick one from the list.",
    undo_unsafe: "That move cannot be taken back any more.",
    storage_error: "The server could not save the move: try again.",
    busy: "The server is busy: try again in a moment.",
  };
  return words[e.code] || e.message;
}

async function take(choice) {
  if (busy || !current || replaying || !reachable) return;
  busy = true;
  closeMenu();
  try {
    const v = await play(choice.action, current.version);
    narrowed = null;
    clearRefusal();
    if (v) accept(v);
  } catch (e) {
    if (unreachable(e)) { setReachable(false); return; }
    if (e.code === "stale_version") toast("The table moved on: look again and choose.", "info");
    else { toast(refusalText(e)); explainRefusal(current && current.game, e); }
    await refresh();
  } finally {
    busy = false;
    maybeAutoplay();
  }
}

async function undo() {
  if (busy) return;
  busy = true;
  try {
    accept(await api(`/api/games/${gid}/undo`, { method: "POST", token, body: { version: current.version } }));
  } catch (e) {
    if (unreachable(e)) setReachable(false); else { toast(refusalText(e)); await refresh(); }
  } finally { busy = false; }
}

/** Say you are away (a bot plays your seat) or back. */
async function setAway(away) {
  try {
    accept(await api(`/api/games/${gid}/away`, { method: "POST", token, body: { away } }));
  } catch (e) { toast(e.message); await refresh(); }
}

let autoTimer = null;
function maybeAutoplay() {
  clearTimeout(autoTimer);
  if (!$("autoplay").checked || !current || current.terminal || busy || replaying) return;
  if (!current.legal.length) return;
  autoTimer = setTimeout(() => {
    if (!$("autoplay").checked || busy || !current.legal.length) return;
    const c = current.legal[Math.floor(Math.random() * current.legal.length)];
    take(c);
  }, 15);
}

// ------------------------------------------------------------------ server
async function refresh() {
  try {
    const v = await api(`/api/games/${gid}/view`, { token });
    setReachable(true);
    accept(v);
  } catch (e) {
    if (unreachable(e)) { setReachable(false); return; }
    setReachable(true);
    if (e.status === 401 && token) {  // the token is wrong or was given up
      toast("This seat's link is no longer valid: you are watching.");
      rememberSeat(gid, { token: null });
      token = null;
      return refresh();
    }
    if (e.status === 404) { $("banner").textContent = "No such game."; return; }
    toast(refusalText(e));
  }
}

function connect(delay = 500) {
  const proto = location.protocol === "https:" ? "wss" : "ws";
  // The token travels in the first message, never in the URL (URLs end up in logs).
  const ws = new WebSocket(`${proto}://${location.host}/api/games/${gid}/ws`);
  socket = ws;
  ws.onopen = () => {
    ws.send(JSON.stringify(token ? { token, patches: true } : { patches: true }));
    ws.seated = Boolean(token);  // a seat's socket may send its moves
    $("conn").classList.add("live"); $("conn").textContent = "live";
    clearInterval(pollTimer);
    setReachable(true);
    delay = 500;
    document.dispatchEvent(new CustomEvent("nightsky:socket"));
  };
  ws.onmessage = (ev) => {
    if (socket !== ws) return;
    const msg = JSON.parse(ev.data);
    if (msg.type === "view" || msg.type === "patch") {
      const v = pushedView(msg);  // a patch on a view this page lacks: ask for the whole one
      if (v) accept(v); else refresh();
    }
    else if (msg.type === "ack" || msg.type === "error") answered(msg);
    else document.dispatchEvent(new CustomEvent("nightsky:push", { detail: msg }));  // chat, rematch
  };
  ws.onclose = () => {
    socketGone(ws);
    if (socket !== ws) return;
    $("conn").classList.remove("live"); $("conn").textContent = "reconnecting";
    clearInterval(pollTimer);
    pollTimer = setInterval(refresh, 2000);
    refresh();  // the server may be gone: say so at once, not on the first move
    setTimeout(() => connect(Math.min(delay * 2, 8000)), delay);
  };
}

async function main() {
  await takeTokenFromLink();
  $("undo").addEventListener("click", undo);
  listenToChoices();
  $("autoplay").addEventListener("change", maybeAutoplay);
  $("filter").addEventListener("input", () => current && drawActions(current));
  $("more").addEventListener("toggle", () => current && $("more").open && drawDetails(current));
  $("raw").addEventListener("toggle", () => current && $("raw").open && drawRaw(current));
  document.addEventListener("click", (e) => { if (!e.target.closest(".menu, .ns-target, #actions")) cancelPick(); });
  document.addEventListener("keydown", (e) => { if (e.key === "Escape") cancelPick(); });
  $("log").addEventListener("scroll", () => {
    const box = $("log");
    logAtBottom = box.scrollHeight - box.scrollTop - box.clientHeight < 30;
  }, { passive: true });
  await refresh();
  connect();
  setInterval(() => tickClocks(current), 500);
}

main();
