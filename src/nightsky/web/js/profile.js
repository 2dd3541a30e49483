// A member's page (/u/NAME): who, since when, games played and won per game, recent games
// with their replays (the game page's replay shows you your own seat's view when the game
// was yours, the spectator's otherwise), ratings when the club keeps them.
import { addPasskey, passkeysAvailable, whoami } from "./account.js";
import { api, h, toast } from "./api.js";

const $ = (id) => document.getElementById(id);

function when(iso) {
  return iso ? new Date(iso).toLocaleDateString(undefined, { year: "numeric", month: "long", day: "numeric" }) : "";
}

function recentRow(g, name) {
  const result = g.status !== "over" ? h("span", { class: "badge" }, "playing")
    : g.won ? h("span", { class: "badge your-move" }, "won") : h("span", { class: "badge over" }, "finished");
  const players = g.players.map((p) => (p.member
    ? h("a", { href: `/u/${encodeURIComponent(p.member)}` }, p.name) : p.name));
  const who = players.flatMap((p, i) => (i ? [", ", p] : [p]));
  return h("div", { class: "lobby-item", "data-id": g.id },
    h("div", {}, h("div", { class: "t" }, g.title, " ", result),
      h("div", { class: "muted small" }, `${name} played seat ${g.seat + 1} · `, ...who)),
    h("a", { class: "btn", href: g.page }, g.status === "over" ? "Replay" : "Open"));
}

function ratingsBox(ratings) {
  const list = Array.isArray(ratings) ? ratings : Object.values(ratings || {});
  if (!list.length) return;
  $("ratings").replaceChildren(...list.map((r) => h("div", {},
    `${r.title || r.game}${r.players ? ` (${r.players} players)` : ""}: `,
    h("b", {}, String(Math.round(r.rating ?? r.value ?? 0))))));
}

// Your own page: change the password (other devices are signed out), sign out everywhere.
function securityBox() {
  const note = h("p", { class: "small", id: "security-note", role: "status" });
  const form = h("form", { class: "row", id: "password-form", autocomplete: "on" },
    h("input", { type: "password", id: "old-password", required: true, autocomplete: "current-password",
      placeholder: "Current password", "aria-label": "current password" }),
    h("input", { type: "password", id: "new-password", required: true, minlength: 8, maxlength: 256,
      autocomplete: "new-password", placeholder: "New password", "aria-label": "new password" }),
    h("button", { type: "submit", id: "change-password" }, "Change password"));
  form.addEventListener("submit", async (e) => {
    e.preventDefault();
    try {
      await api("/api/account/password", { method: "POST",
        body: { old: $("old-password").value, new: $("new-password").value } });
      form.reset();
      note.textContent = "Password changed; your other devices are signed out.";
    } catch (err) { note.textContent = err.message; }
  });
  const everywhere = h("button", { type: "button", class: "ghost small", id: "signout-everywhere",
    onclick: async () => {
      try { await api("/api/account/signout-everywhere", { method: "POST" }); location.reload(); }
      catch (err) { note.textContent = err.message; }
    } }, "Sign out on every device");
  return h("details", { class: "advanced", id: "security" }, h("summary", {}, "Password and devices"),
    form, everywhere, note);
}

async function main() {
  const name = decodeURIComponent(location.pathname.split("/").pop() || "");
  let p;
  try { p = await api(`/api/users/${encodeURIComponent(name)}`); } catch (e) {
    $("who").textContent = e.status === 404 ? "No such member" : "Could not load this member";
    toast(e.message);
    return;
  }
  document.title = `nightsky · ${p.display_name}`;
  $("crumb").textContent = p.name;
  $("who").textContent = p.display_name;
  $("since").textContent = `@${p.name} · member since ${when(p.member_since)}${p.suspended ? " · suspended" : ""}`;
  const body = $("per-game").querySelector("tbody");
  body.replaceChildren(...p.games.map((g) => h("tr", {}, h("td", {}, g.title), h("td", {}, String(g.played)),
    h("td", {}, String(g.won)))));
  if (!p.games.length) body.append(h("tr", {}, h("td", { colspan: 3, class: "muted" }, "No finished games yet.")));
  $("recent").replaceChildren(...p.recent.map((g) => recentRow(g, p.display_name)));
  if (!p.recent.length) $("recent").append(h("div", { class: "empty" }, "No games to show."));
  ratingsBox(p.ratings);
  const me = await whoami();
  if (me && me.name === p.name) $("since").after(securityBox());
  if (me && me.name === p.name && passkeysAvailable()) {
    const note = h("span", { class: "muted small", id: "passkey-note" });
    $("since").after(h("p", {}, h("button", { type: "button", id: "add-passkey", onclick: async () => {
      try { const r = await addPasskey(); note.textContent = ` Passkey added (${r.passkeys} in all).`; }
      catch (e) { note.textContent = ` ${e.message || "No passkey was added."}`; }
    } }, "Add a passkey"), note));
  }
}

main();
