// Friends: ask and accept by name, invitations to seats (accept: the seat is yours, no link),
// a new table with a friend invited by name, and the tables friends play.
import { ApiError, api, h, rememberSeat, toast } from "./api.js";
import { act, invitationItems, item } from "./club.js";

const $ = (id) => document.getElementById(id);
const CLOCK = { mode: "realtime", bank_seconds: 600 };
let catalog = [];

function draw(f) {
  $("invitations").replaceChildren(...invitationItems(f.invitations, load));
  $("friends").replaceChildren(...f.friends.map((x) => item(h("a", { href: `/u/${encodeURIComponent(x.name)}` }, x.display_name),
    h("button", { type: "button", class: "ghost small", onclick: async () => { await act(`/api/friends/${encodeURIComponent(x.name)}/remove`); load(); } }, "Remove"))));
  if (!f.friends.length) $("friends").append(h("div", { class: "empty" }, "No friends yet: ask one by name."));
  $("incoming").replaceChildren(...f.incoming.map((x) => item(`${x.display_name} asks to be friends`,
    h("button", { class: "primary", type: "button", "data-accept": x.name, onclick: async () => { await act(`/api/friends/${encodeURIComponent(x.name)}/accept`); load(); } }, "Accept"),
    h("button", { type: "button", onclick: async () => { await act(`/api/friends/${encodeURIComponent(x.name)}/remove`); load(); } }, "Decline"))));
  $("outgoing").textContent = f.outgoing.length ? `Asked: ${f.outgoing.map((x) => x.name).join(", ")}` : "";
  $("games").replaceChildren(...f.games.map((g) => item(`${g.friends.join(", ")} at ${g.title} (table ${g.id})`,
    h("a", { class: "btn", href: `/g/${g.id}` }, g.open_seats && g.open_seats.length ? "Open" : "Watch"))));
  if (!f.games.length) $("games").append(h("div", { class: "empty" }, "None of your friends is playing now."));
  $("play-friend").replaceChildren(...f.friends.map((x) => h("option", { value: x.name }, x.display_name)));
  $("play-go").disabled = !f.friends.length;
}

async function load() {
  try {
    draw(await api("/api/friends"));
    $("club").hidden = false;
  } catch (e) {
    if (e instanceof ApiError && e.status === 401) $("signed-out").hidden = false; else toast(e.message);
  }
}

async function playFriend(e) {
  e.preventDefault();
  const game = $("play-game").value;
  const me = (await api("/api/account")).account;
  const names = [me ? me.display_name : "", $("play-friend").value];
  const made = await act("/api/games", { game, players: 2, seats: ["human", "human"], names, rated: $("play-rated").checked, clock: CLOCK });
  const t = made.tokens[0];
  rememberSeat(made.id, { token: t.token, seat: t.seat, game, invites: made.invites });
  await act(`/api/games/${made.id}/invite-friend`, { seat: made.invites[0].seat, name: $("play-friend").value });
  location.href = `/g/${made.id}`;
}

async function main() {
  catalog = (await api("/api/catalog")).games.filter((g) => g.min_players <= 2 && g.max_players >= 2);
  $("play-game").replaceChildren(...catalog.map((g) => h("option", { value: g.id }, g.title)));
  $("add-form").addEventListener("submit", async (e) => {
    e.preventDefault();
    const r = await act("/api/friends", { name: $("add-name").value.trim() });
    toast(r.state === "friends" ? "You are friends now." : "Asked: they see it on their friends page.", "info");
    $("add-name").value = "";
    load();
  });
  $("play-form").addEventListener("submit", playFriend);
  await load();
  setInterval(load, 10000);
}

main();
