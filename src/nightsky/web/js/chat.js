// The table's chat on the game page: everyone reads it, a seated player posts as its seat.
// Lines are always shown as text (text nodes, never HTML). New lines come by the table's
// WebSocket (game.js passes on every push that is not a view as "nightsky:push").
import { api, h, myGames, toast } from "./api.js";

const $ = (id) => document.getElementById(id);
const gid = location.pathname.split("/").filter(Boolean).pop();
const shown = new Set();
let seat = null;
let loaded = false;

function lineNode(l) {
  const c = l.color || "var(--muted)";
  return h("div", { class: "chat-line", "data-seat": l.seat, "data-id": l.id, title: l.at || "" },
    h("span", { class: "dot", style: `color:${c};background:${c}` }),
    h("b", { class: "who", style: `color:${c}` }, l.name),
    " ",
    h("span", { class: "chat-text" }, l.text));
}

function add(lines) {
  const box = $("chat-lines");
  const atBottom = box.scrollHeight - box.scrollTop - box.clientHeight < 30;
  for (const l of lines) {
    if (shown.has(l.id)) continue;
    shown.add(l.id);
    box.querySelector(".empty")?.remove();
    box.append(lineNode(l));
  }
  if (!box.children.length) box.append(h("div", { class: "empty" }, "No messages yet."));
  if (atBottom) box.scrollTop = 1e9;
}

async function load() {
  try {
    const r = await api(`/api/games/${gid}/chat`);
    add(r.lines);
  } catch { /* the game page says what is wrong */ }
}

function drawForm() {
  const seated = seat !== null && seat !== undefined;
  $("chat-form").hidden = !seated;
  $("chat-note").textContent = seated ? "" : "Spectators read the chat; players at the table write in it.";
}

async function send(e) {
  e.preventDefault();
  const input = $("chat-input");
  const text = input.value.trim();
  if (!text) return;
  const token = (myGames()[gid] || {}).token;
  try {
    const line = await api(`/api/games/${gid}/chat`, { method: "POST", token, body: { text } });
    input.value = "";
    add([line]);
  } catch (err) {
    toast(err.status === 429 ? "You are writing too fast: wait a moment." : err.message);
  }
}

document.addEventListener("nightsky:view", (e) => {
  seat = e.detail.seat;
  drawForm();
  if (!loaded) { loaded = true; load(); }
});
document.addEventListener("nightsky:push", (e) => {
  if (e.detail.type === "chat") add([e.detail.data]);
  // a club admin hid a line: it goes from every open page at once
  if (e.detail.type === "chat_hidden") $("chat-lines").querySelector(`[data-id="${Number(e.detail.data.id)}"]`)?.remove();
});
document.addEventListener("nightsky:socket", load);  // lines missed while it reconnected
$("chat-form").addEventListener("submit", send);
setInterval(load, 30000);  // lines missed while the socket reconnected
