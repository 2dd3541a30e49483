// Resign and leave on the game page. While the game goes on a seated player may resign (a
// confirm step first): by the game's ruling (its rule id, linked) the seat loses, and a bot
// plays it to the end or the game ends. Once the game is over a seated player may leave the
// table: its seat link stops working and the table leaves this browser's games.
import { api, h, myGames, toast } from "./api.js";

const gid = location.pathname.split("/").filter(Boolean).pop();
let view = null;
let asking = null;  // "resign" or "leave" while the confirm step shows

function token() {
  return (myGames()[gid] || {}).token || null;
}

function forget() {
  const all = myGames();
  delete all[gid];
  localStorage.setItem("nightsky.games", JSON.stringify(all));
}

function ruleLink(v) {
  return h("a", { href: `/games/${v.game}/rules#${v.resign_rule}`, target: "_blank", rel: "noopener" },
    v.resign_rule);
}

function confirmBox(v) {
  const players = v.seats.filter((s) => s.kind !== "game").length;
  const left = players - (v.resigned || []).length - 1;
  const resign = asking === "resign";
  const what = resign
    ? [`Resign? You lose this game (`, ruleLink(v), `): `,
      left >= 2 ? "a bot plays your seat to the end." : "the game ends now."]
    : ["Leave this finished table? Your seat link stops working and the table leaves your games."];
  return h("div", { class: "resign-confirm", role: "alertdialog", "aria-label": resign ? "Confirm resigning" : "Confirm leaving" },
    h("p", { class: "small" }, ...what),
    h("div", { class: "row" },
      h("button", { type: "button", class: "danger", id: "resign-yes", onclick: () => go(resign) },
        resign ? "Yes, resign" : "Yes, leave"),
      h("button", { type: "button", id: "resign-no", onclick: () => { asking = null; draw(); } },
        resign ? "Keep playing" : "Stay")));
}

async function go(resign) {
  asking = null;
  try {
    await api(`/api/games/${gid}/${resign ? "resign" : "leave"}`, { method: "POST", token: token() });
    if (!resign) { forget(); location.href = "/"; return; }
  } catch (e) { toast(e.message); }
  draw();
}

function draw() {
  let box = document.getElementById("resign-box");
  if (!box) {
    const seats = document.getElementById("seats");
    if (!seats) return;
    box = h("div", { class: "resign-box", id: "resign-box", style: "margin-top:8px" });
    seats.parentElement.append(box);
  }
  const v = view;
  const seated = v && v.seat !== null && v.seat !== undefined && token();
  const out = (v && v.resigned) || [];
  const can = seated && (v.terminal ? "leave" : v.resign_rule && !out.includes(v.seat) ? "resign" : null);
  if (!can) { box.replaceChildren(); return; }
  if (asking && asking !== can) asking = null;
  box.replaceChildren(asking ? confirmBox(v)
    : h("button", { type: "button", id: can === "resign" ? "resign" : "leave-table",
      onclick: () => { asking = can; draw(); } }, can === "resign" ? "Resign…" : "Leave table…"));
}

document.addEventListener("nightsky:view", (e) => { view = e.detail; draw(); });
