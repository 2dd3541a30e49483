// A game's leaderboard: rated players (with enough games) and the bots' reference ratings.
import { api, h } from "./api.js";

const $ = (id) => document.getElementById(id);
const game = () => decodeURIComponent(location.pathname.split("/").filter(Boolean)[1] || "shooting-star");

async function draw() {
  const b = await api(`/api/leaderboards/${encodeURIComponent($("game").value)}?family=${$("family").value}`);
  $("board-note").textContent = `Players with at least ${b.min_games} rated game${b.min_games === 1 ? "" : "s"}. Rating: 1500 + 20 × (μ − 3σ), openskill Plackett-Luce: it grows as the server grows sure of you.`;
  $("board").replaceChildren(
    h("tr", {}, ["#", "Player", "Rating", "Games", "About as strong as"].map((x) => h("th", {}, x))),
    ...b.players.map((p) => h("tr", { "data-name": p.name },
      h("td", {}, p.rank), h("td", {}, h("a", { href: `/u/${encodeURIComponent(p.name)}` }, p.display_name)),
      h("td", {}, p.rating), h("td", {}, p.games), h("td", {}, p.like ? `${p.like} bot` : "—"))));
  if (!b.players.length) $("board").append(h("tr", {}, h("td", { colspan: 5, class: "muted" }, "Nobody yet.")));
  $("bots").replaceChildren(
    h("tr", {}, h("th", {}, "Bot level"), h("th", {}, "Rating")),
    ...b.bots.map((x) => h("tr", {}, h("td", {}, x.level), h("td", {}, x.rating))));
}

async function main() {
  const cat = await api("/api/catalog");
  $("game").replaceChildren(...cat.games.map((g) => h("option", { value: g.id }, g.title)));
  $("game").value = game();
  for (const id of ["game", "family"]) $(id).addEventListener("change", () => {
    history.replaceState(null, "", `/leaderboard/${$("game").value}`);
    draw();
  });
  $("board-title").textContent = "Leaderboard";
  await draw();
}

main();
