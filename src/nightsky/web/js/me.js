// The your-games page: every table this browser holds a seat at, your move first.
import { onAccount, takeAccountSeat } from "./account.js";
import { h, toast } from "./api.js";
import {
  askToNotify, displayName, notifying, onMine, refreshMine, setDisplayName, startBadge,
  stopNotifying,
} from "./mine.js";

const $ = (id) => document.getElementById(id);

function ago(iso) {
  if (!iso) return "";
  const s = Math.max(0, (Date.now() - Date.parse(iso)) / 1000);
  if (s < 60) return "just now";
  if (s < 3600) return `${Math.floor(s / 60)} min ago`;
  if (s < 86400) return `${Math.floor(s / 3600)} h ago`;
  return `${Math.floor(s / 86400)} d ago`;
}

function row(t) {
  if (!t.known) {
    return h("div", { class: "lobby-item mine-item gone", "data-id": t.id },
      h("div", {}, h("div", { class: "t" }, `Table ${t.id}`),
        h("div", { class: "muted small" }, "This seat's link no longer works (the seat was given up or the table is gone).")));
  }
  const seats = t.entries.map((e) => `${e.name} (seat ${e.seat + 1})`).join(", ");
  const state = t.status === "over" ? h("span", { class: "badge over" }, "finished")
    : t.yourMove ? h("span", { class: "badge your-move" }, "your move")
    : h("span", { class: "badge" }, t.to_move_names.length ? `waiting for ${t.to_move_names.join(", ")}` : "playing");
  return h("div", { class: `lobby-item mine-item${t.yourMove ? " your-move" : ""}`, "data-id": t.id },
    h("div", {}, h("div", { class: "t" }, t.title, " ", state),
      h("div", { class: "muted small" }, `you are ${seats} · table ${t.id} · changed ${ago(t.updated_at)}`)),
    h("a", { class: t.yourMove ? "btn primary" : "btn", href: `/g/${t.id}`,
      onclick: t.viaAccount ? (e) => openHere(e, t) : undefined },
      t.status === "over" ? "Review" : t.yourMove ? "Play" : "Open"));
}

// A table of the account that this browser holds no token for: take the seat here first.
async function openHere(event, t) {
  event.preventDefault();
  try { await takeAccountSeat(t.id, { game: t.game, title: t.title }); } catch (e) { toast(e.message); return; }
  location.href = `/g/${t.id}`;
}

function draw(tables) {
  const rank = (t) => (!t.known ? 3 : t.status === "over" ? 2 : t.yourMove ? 0 : 1);
  const sorted = [...tables].sort((a, b) => rank(a) - rank(b)
    || String(b.updated_at || "").localeCompare(String(a.updated_at || "")));
  const box = $("mine-list");
  box.replaceChildren(...sorted.map(row));
  if (!sorted.length) box.append(h("div", { class: "empty" }, "No games yet: create one in the lobby."));
  const n = tables.filter((t) => t.yourMove).length;
  $("mine-summary").textContent = n ? `It is your move at ${n} table${n > 1 ? "s" : ""}.` : "Nobody is waiting for you right now.";
}

function drawNotify() {
  const on = notifying();
  $("notify").textContent = on ? "Stop notifications" : "Notify me when it's my turn";
  $("notify-state").textContent = !("Notification" in window) ? "This browser has no notifications."
    : on ? "On: a notification tells you when it becomes your move (while a nightsky page is open)."
    : Notification.permission === "denied" ? "The browser blocks notifications from this site." : "";
}

async function main() {
  $("name").value = displayName();
  $("name-form").addEventListener("submit", (e) => {
    e.preventDefault();
    $("name").value = setDisplayName($("name").value);
    $("name-note").textContent = $("name").value ? "Saved: your seats will take this name." : "Cleared.";
  });
  $("notify").addEventListener("click", async () => {
    if (notifying()) stopNotifying(); else await askToNotify();
    drawNotify();
  });
  drawNotify();
  onMine(draw);
  startBadge(null);
  $("refresh").addEventListener("click", refreshMine);
  onAccount(refreshMine);  // signing in or out changes which tables are yours
}

main();
