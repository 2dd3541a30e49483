// Rematch on the game page: once the game is over any seated player offers, each other human
// accepts (bots always do), and the new table opens with everyone in their seats. Everyone,
// spectators too, sees the link to the new table; a seat that accepted gets its own token there.
import { api, h, myGames, rememberSeat, toast } from "./api.js";

const gid = location.pathname.split("/").filter(Boolean).pop();
let view = null;
let status = null;
let asking = false;

function token() {
  return (myGames()[gid] || {}).token || null;
}

function name(seat) {
  const s = view && view.seats ? view.seats[seat] : null;
  return s ? s.name : `Seat ${seat + 1}`;
}

async function load() {
  if (asking) return;
  asking = true;
  try {
    status = await api(`/api/games/${gid}/rematch`, { token: token() });
    if (status.token && status.new_id && status.seat !== null) {
      const old = myGames()[status.new_id] || {};
      if (old.token !== status.token && !(old.tokens || {})[status.seat]) {
        rememberSeat(status.new_id, {
          token: status.token, seat: status.seat, game: view && view.game, title: view && view.title,
          tokens: { ...(old.tokens || {}), [status.seat]: status.token },
        });
      }
    }
  } catch { status = null; } finally { asking = false; }
  draw();
}

async function post(path) {
  try {
    status = await api(`/api/games/${gid}/rematch${path}`, { method: "POST", token: token() });
  } catch (e) { toast(e.message); }
  await load();
}

function widget() {
  const out = [];
  const st = status;
  if (!st || !view) return out;
  if (st.rematch_of) {
    out.push(h("div", { class: "muted small", "data-rematch": "of" }, "A rematch of ",
      h("a", { href: `/g/${st.rematch_of}` }, `/g/${st.rematch_of}`)));
  }
  if (!view.terminal) return out;
  const seated = view.seat !== null && view.seat !== undefined;
  if (st.state === "done") {
    out.push(h("div", { "data-rematch": "link" }, "Rematch: ",
      h("a", { href: `/g/${st.new_id}` }, `/g/${st.new_id}`)));
    if (st.token) {
      out.push(h("a", { class: "btn primary", href: `/g/${st.new_id}`, "data-rematch": "go" }, "Go to the rematch"));
    }
    return out;
  }
  if (st.state === "open") {
    const waiting = st.waiting.map(name);
    out.push(h("div", { "data-rematch": "open" }, `${name(st.by)} offers a rematch.`,
      waiting.length ? ` Waiting for ${waiting.join(", ")}.` : ""));
    if (seated && st.waiting.includes(view.seat)) {
      out.push(h("div", { class: "row" },
        h("button", { type: "button", class: "primary", "data-rematch": "accept", onclick: () => post("") }, "Accept rematch"),
        h("button", { type: "button", "data-rematch": "decline", onclick: () => post("/decline") }, "Decline")));
    } else if (seated) {
      out.push(h("div", { class: "muted small" }, "You accepted."),
        h("button", { type: "button", class: "ghost", "data-rematch": "decline", onclick: () => post("/decline") }, "Call it off"));
    }
    return out;
  }
  if (st.state === "declined" || st.state === "cancelled") {
    out.push(h("div", { class: "muted small", "data-rematch": st.state },
      st.state === "declined" ? `${name(st.declined_by)} declined the rematch.` : `${name(st.declined_by)} left: the rematch is off.`));
  }
  if (seated) {
    out.push(h("button", { type: "button", class: "primary", "data-rematch": "offer", onclick: () => post("") }, "Offer a rematch"));
  }
  return out;
}

function draw() {
  const panel = document.getElementById("rematch-panel");
  for (const box of document.querySelectorAll(".rematch-box")) box.replaceChildren(...widget());
  if (panel) panel.hidden = !panel.querySelector(".rematch-box")?.children.length;
}

let lastKey = null;
document.addEventListener("nightsky:view", (e) => {
  view = e.detail;
  const key = `${view.terminal}:${view.seat}`;
  if (key !== lastKey) { lastKey = key; load(); } else draw();
});
document.addEventListener("nightsky:end", draw);
document.addEventListener("nightsky:push", (e) => { if (e.detail.type === "rematch") load(); });
