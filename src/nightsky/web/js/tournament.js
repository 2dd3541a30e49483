// Tournaments: the list and the form to open one; one tournament's standings and rounds,
// polled every few seconds so results and new rounds appear as they happen.
import { api, h, rememberSeat, toast } from "./api.js";
import { act, item } from "./club.js";

const $ = (id) => document.getElementById(id);
const tid = Number(location.pathname.split("/").filter(Boolean)[1]) || null;
let me = null;

async function drawList() {
  const all = await api("/api/tournaments");
  $("list").replaceChildren(...all.map((t) => item(`${t.name} · ${t.game} · ${t.kind} · ${t.state}`,
    h("a", { class: "btn", href: `/tournaments/${t.id}` }, "Open"))));
  if (!all.length) $("list").append(h("div", { class: "empty" }, "No tournament yet."));
}

async function listView() {
  $("list-view").hidden = false;
  const cat = await api("/api/catalog");
  $("t-game").replaceChildren(...cat.games.map((g) => h("option", { value: g.id }, g.title)));
  $("new-form").addEventListener("submit", async (e) => {
    e.preventDefault();
    const r = await act("/api/tournaments", {
      name: $("t-name").value, game: $("t-game").value, kind: $("t-kind").value,
      players: Number($("t-players").value), rounds: Number($("t-rounds").value), rated: $("t-rated").checked,
      clock: { mode: "realtime", bank_seconds: 60 * Number($("t-minutes").value) },
    });
    location.href = `/tournaments/${r.id}`;
  });
  await drawList();
}

// Your own table: its seat's token for this browser first (the account's seat), then the table.
async function play(gid) {
  const r = await act(`/api/games/${gid}/seat`);
  rememberSeat(gid, { token: r.token, seat: r.seat });
  location.href = `/g/${gid}`;
}

function tableLink(x) {
  if (!x.places && me && x.players.includes(me.name)) {
    return h("button", { class: "primary", type: "button", "data-play": x.game_id, onclick: () => play(x.game_id) }, "Play");
  }
  return h("a", { class: "btn", href: `/g/${x.game_id}` }, x.places ? "Replay" : "Watch");
}

function ordinal(n) { return `${n}${["th", "st", "nd", "rd"][n % 100 > 10 && n % 100 < 14 ? 0 : Math.min(n % 10, 4) % 4] || "th"}`; }

function half(x) { return Number.isInteger(x) ? String(x) : x.toFixed(2).replace(/0$/, ""); }

function drawOne(t) {
  $("t-title").textContent = t.name;
  $("t-info").textContent = `${t.game} · ${t.kind} · ${t.players} a table · ${t.rated ? "rated" : "unrated"} · organised by ${t.organiser} · ${t.state}${t.state === "playing" ? ` · round ${t.round} of ${t.rounds}` : ""} · ${t.entrants.length} players`;
  const mine = me && t.entrants.includes(me.name);
  const buttons = [];
  if (me && t.state === "open") {
    buttons.push(h("button", { type: "button", id: "t-enter", onclick: async () => drawOne(await act(`/api/tournaments/${tid}/${mine ? "withdraw" : "enter"}`)) }, mine ? "Withdraw" : "Enter"));
    if (me.name === t.organiser) buttons.push(h("button", { class: "primary", type: "button", id: "t-start", onclick: async () => drawOne(await act(`/api/tournaments/${tid}/start`)) }, "Start"));
  }
  if (me && me.is_admin && (t.state === "open" || t.state === "playing")) {
    buttons.push(h("button", { type: "button", onclick: async () => drawOne(await act(`/api/tournaments/${tid}/close`)) }, "Close (admin)"));
  }
  $("t-actions").replaceChildren(...buttons);
  $("standings").replaceChildren(
    h("tr", {}, ["#", "Player", "Points", "Buchholz", "Sonneborn-Berger", "Games", "Byes"].map((x) => h("th", {}, x))),
    ...t.standings.map((s) => h("tr", { "data-name": s.name }, h("td", {}, s.rank), h("td", {}, s.name), h("td", {}, half(s.points)),
      h("td", {}, half(s.buchholz)), h("td", {}, half(s.sonneborn_berger)), h("td", {}, s.games), h("td", {}, s.byes))));
  $("rounds").replaceChildren(...[...t.schedule].reverse().map((r) => h("div", {},
    h("h3", {}, `Round ${r.round}`),
    h("div", { class: "club-list" }, r.tables.map((x) => item(
      x.bye ? `${x.players[0]}: bye` : x.players.map((p, i) => (x.places ? `${p} (${ordinal(x.places[i])})` : p)).join(" vs "),
      x.game_id ? tableLink(x) : null))))));
}

async function oneView() {
  $("one-view").hidden = false;
  const tick = async () => { try { drawOne(await api(`/api/tournaments/${tid}`)); } catch (e) { toast(e.message); } };
  await tick();
  setInterval(tick, 3000);
}

async function main() {
  try { me = (await api("/api/account")).account; } catch { me = null; }
  if (tid) await oneView(); else await listView();
}

main();
