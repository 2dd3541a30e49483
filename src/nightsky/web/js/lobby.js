// The lobby: new-game form built from each game's options, open tables, your games.
import { accountGames, onAccount, takeAccountSeat } from "./account.js";
import { api, h, myGames, rememberSeat, seatColor, toast } from "./api.js";
import { displayName } from "./mine.js";
import { clockFields, readClock } from "./clocks.js";

let catalog = null;
let chosen = null;

const $ = (id) => document.getElementById(id);

function optionInput(opt) {
  const id = `opt-${opt.name}`;
  let input;
  if (opt.type === "bool") {
    input = h("select", { id, name: opt.name },
      h("option", { value: "false", selected: !opt.default }, "no"),
      h("option", { value: "true", selected: !!opt.default }, "yes"));
  } else if (opt.choices) {
    input = h("select", { id, name: opt.name },
      opt.choices.map((c) => h("option", { value: c, selected: c === opt.default }, String(c))));
  } else {
    input = h("input", {
      id, name: opt.name, type: opt.type === "str" ? "text" : "number",
      value: opt.default ?? "", step: opt.type === "float" ? "any" : "1",
      min: opt.minimum ?? undefined, max: opt.maximum ?? undefined,
    });
  }
  input.dataset.kind = opt.type;
  input.dataset.default = JSON.stringify(opt.default);
  return h("label", { class: "field" }, opt.name.replace(/_/g, " "), input,
    opt.help ? h("span", { class: "help" }, opt.help) : null);
}

// What to expect of each level, in a player's words (the game's measured line follows it).
const EXPECT = {
  easy: "New to the game? It plays loosely and leaves openings.",
  medium: "Takes the best-looking move each turn: a fair first opponent.",
  hard: "Looks ahead before it moves: a real fight; it thinks for a moment.",
  expert: "Our strongest: thinks longest; expect to lose until you know the game well.",
};
const TITLE = (name) => name.charAt(0).toUpperCase() + name.slice(1);

/** True when the seat picker offers the engine's agents by name (the "advanced" disclosure). */
const advanced = () => $("advanced") && $("advanced").open;

function seatRows(n) {
  const rows = $("seats");
  const old = [...rows.querySelectorAll("select")].map((s) => s.value);
  rows.replaceChildren();
  const agents = catalog.agents;
  // The game's levels first (easy to expert), each with a line on what to expect; the raw
  // agents only under "advanced".
  const levels = (chosen && chosen.levels) || [];
  for (let i = 0; i < n; i++) {
    const sel = h("select", { name: `seat${i}`, "aria-label": `seat ${i + 1}` },
      h("option", { value: "human" }, "Human player"),
      levels.length ? h("optgroup", { label: "Bots by level" },
        levels.map((l) => h("option", { value: l.name, title: l.strength }, `${TITLE(l.name)} bot`))) : null,
      advanced() || !levels.length ? h("optgroup", { label: "Engine agents (advanced)" },
        agents.map((a) => h("option", { value: a }, `Agent: ${a}`))) : null);
    const fallback = levels.some((l) => l.name === "medium") ? "medium"
      : agents.includes("greedy") ? "greedy" : agents[0];
    sel.value = old[i] || (i === 0 ? "human" : fallback);
    if (!sel.value) sel.value = i === 0 ? "human" : fallback;  // an agent hidden again
    const name = h("input", { name: `name${i}`, placeholder: i === 0 ? "Your name" : `Player ${i + 1}`, "aria-label": `name of seat ${i + 1}` });
    if (i === 0 && displayName()) name.value = displayName();  // the name set on /me
    const note = h("div", { class: "seat-note muted small", id: `seat-note${i}` });
    const explain = () => {
      const l = levels.find((x) => x.name === sel.value);
      note.replaceChildren(...(l ? [h("b", {}, `${TITLE(l.name)}: `), EXPECT[l.name] || "",
        h("span", { class: "measured" }, ` Measured: ${l.strength}.`)] : []));
      note.hidden = !l;
    };
    sel.addEventListener("change", explain);
    explain();
    rows.append(h("div", { class: "seat-row" },
      h("span", { class: "dot sym", style: `color:${seatColor(i)};--c:${seatColor(i)}`, "aria-hidden": "true" }, String(i + 1)),
      sel, name, note));
  }
}

function choose(game) {
  chosen = game;
  document.querySelectorAll(".game-card").forEach((c) => {
    c.classList.toggle("selected", c.dataset.id === game.id);
    c.setAttribute("aria-pressed", String(c.dataset.id === game.id));
  });
  const opts = $("options");
  opts.replaceChildren();
  // New to the chosen game: its one-page How to play and its examples to play through.
  const gid = encodeURIComponent(game.id);
  opts.append(h("p", { class: "learn-line", style: "grid-column:1/-1;margin:0" },
    `New to ${game.title}? `, h("a", { href: `/games/${gid}/how-to-play`, id: "howto-link" },
      "How to play"), " · ", h("a", { href: `/games/${gid}#tutorials` }, "Learn by playing")));
  const players = h("input", {
    id: "players", type: "number", min: game.min_players, max: game.max_players,
    value: Math.max(game.min_players, Math.min(game.max_players, 2)),
  });
  players.addEventListener("input", () => {
    const n = Number(players.value);
    if (n >= game.min_players && n <= game.max_players) seatRows(n);
  });
  opts.append(h("label", { class: "field" }, "players", players,
    h("span", { class: "help" }, `${game.min_players}–${game.max_players}`)));
  for (const o of game.options) if (o.name !== "components") opts.append(optionInput(o));
  seatRows(Number(players.value));
}

function readOptions() {
  const out = {};
  for (const el of $("options").querySelectorAll("[data-kind]")) {
    let v = el.value;
    const kind = el.dataset.kind;
    if (kind === "bool") v = v === "true";
    else if (kind === "int") v = parseInt(v, 10);
    else if (kind === "float") v = parseFloat(v);
    if (JSON.stringify(v) !== el.dataset.default) out[el.name] = v;
  }
  return out;
}

async function create(ev) {
  ev.preventDefault();
  const seats = [...$("seats").querySelectorAll("select")].map((s) => s.value);
  const names = [...$("seats").querySelectorAll("input")].map((s) => s.value.trim());
  $("create").disabled = true;
  try {
    const made = await api("/api/games", {
      method: "POST",
      body: { game: chosen.id, players: seats.length, options: readOptions(), seats, names,
        listed: $("listed").checked, clock: readClock() },
    });
    const mine = made.tokens.find((t) => t.seat === made.you);
    rememberSeat(made.id, {
      token: mine ? mine.token : null, seat: made.you, game: chosen.id, title: chosen.title,
      invites: made.invites, creator: true, creatorSeat: made.you,
      tokens: mine ? { [made.you]: mine.token } : {},
    });
    location.href = `/g/${made.id}`;
  } catch (e) {
    toast(e.message);
  } finally {
    $("create").disabled = false;
  }
}

function gameLine(g, mine) {
  const open = g.open_seats.length;
  const waiting = (g.free_seats || g.open_seats).length;
  const status = g.status === "over" ? h("span", { class: "badge over" }, "finished")
    : open ? h("span", { class: "badge open" }, `${open} seat${open > 1 ? "s" : ""} free`)
    : waiting ? h("span", { class: "badge" }, `waiting for ${waiting} invited`)
    : h("span", { class: "badge" }, "playing");
  const privacy = g.listed === false ? h("span", { class: "badge", title: "not listed in the lobby" }, "private") : null;
  const who = g.seats.map((s) => s.kind === "human" ? (s.joined ? s.name : "…") : s.name).join(" · ");
  const buttons = h("div", { class: "row" });
  if (mine) {
    // The account's table with no token in this browser: take the seat here first.
    const here = !myGames()[g.id] ? async (e) => {
      e.preventDefault();
      try { await takeAccountSeat(g.id, { game: g.game, title: g.title }); } catch (err) { toast(err.message); return; }
      location.href = `/g/${g.id}`;
    } : undefined;
    buttons.append(h("a", { class: "btn", href: `/g/${g.id}`, onclick: here }, g.status === "over" ? "Review" : "Resume"));
  }
  else {
    if (open && g.status !== "over") {
      buttons.append(h("button", { class: "primary", onclick: (e) => askName(g, e.target) }, "Join"));
    }
    buttons.append(h("a", { class: "btn", href: `/g/${g.id}` }, "Watch"));
  }
  return h("div", { class: "lobby-item", "data-id": g.id },
    h("div", {}, h("div", { class: "t" }, g.title, " ", status, privacy ? " " : null, privacy),
      h("div", { class: "muted small" }, who)),
    buttons);
}

function askName(g, button) {
  const input = h("input", { placeholder: "Your name", maxlength: 40, "aria-label": "your name", value: displayName() || undefined });
  const form = h("form", { class: "row" }, input, h("button", { class: "primary", type: "submit" }, "Take seat"));
  form.addEventListener("submit", (e) => { e.preventDefault(); join(g, input.value.trim()); });
  button.parentElement.replaceWith(form);
  input.focus();
}

async function join(g, name) {
  try {
    const j = await api(`/api/games/${g.id}/join`, { method: "POST", body: { name: name || null } });
    rememberSeat(g.id, { token: j.token, seat: j.seat, game: g.game, title: g.title });
    location.href = `/g/${g.id}`;
  } catch (e) { toast(e.message); }
}

async function refresh() {
  const mine = myGames();
  // The open tables, and this browser's own games (private ones are listed nowhere else).
  // Signed in: the account's tables too, on any device.
  const theirs = (await accountGames()).filter((g) => g.known && !mine[g.id]).map((g) => g.id);
  const ids = [...Object.entries(mine).sort((a, b) => (b[1].at || 0) - (a[1].at || 0))
    .map(([id]) => id), ...theirs].slice(0, 50);
  let list = [];
  let own = [];
  try {
    [list, own] = await Promise.all([
      api("/api/lobby"),
      ids.length ? api(`/api/lobby?ids=${ids.join(",")}`) : Promise.resolve([]),
    ]);
  } catch (e) { toast(e.message); }
  const lobbyBox = $("lobby"), ownBox = $("mine");
  lobbyBox.replaceChildren(); ownBox.replaceChildren();
  // Tables waiting for players first, then games in play, then finished ones.
  const rank = (g) => (g.status === "over" ? 2 : g.open_seats.length ? 0 : 1);
  list.sort((a, b) => rank(a) - rank(b));
  own.sort((a, b) => rank(a) - rank(b));
  for (const g of own) ownBox.append(gameLine(g, true));
  for (const g of list) if (!mine[g.id]) lobbyBox.append(gameLine(g, false));
  if (!ownBox.children.length) ownBox.append(h("div", { class: "empty" }, "No games yet: create one."));
  if (!lobbyBox.children.length) lobbyBox.append(h("div", { class: "empty" }, "No open tables right now."));
}

async function main() {
  catalog = await api("/api/catalog");
  const cards = $("game-cards");
  for (const g of catalog.games) {
    // The card chooses the game; its link (beside the button, not in it) opens the game's page.
    cards.append(h("div", { class: "game-card-wrap" }, h("button", {
      type: "button", class: "game-card", "data-id": g.id, onclick: () => choose(g),
      "aria-pressed": "false",
    }, h("span", { class: "t" }, g.title),
      h("span", { class: "p" }, `${g.min_players}–${g.max_players} players`
        + (g.simultaneous ? " · simultaneous" : "") + (g.hidden_information ? " · hidden cards" : "")),
      h("span", { class: "d" }, g.description || "")),
    h("a", { class: "game-link", href: `/games/${encodeURIComponent(g.id)}`, "data-game": g.id,
      "aria-label": `${g.title}: rules, tutorials and levels` }, "Rules & tutorials →")));
  }
  // /?game=ID (the game pages' "Start a table") comes with that game chosen.
  const wanted = new URLSearchParams(location.search).get("game");
  choose(catalog.games.find((g) => g.id === wanted) || catalog.games[0]);
  $("clock-box").replaceChildren(clockFields());
  $("new-form").addEventListener("submit", create);
  $("advanced").addEventListener("toggle", () => seatRows($("seats").querySelectorAll("select").length));
  $("refresh").addEventListener("click", refresh);
  await refresh();
  onAccount(refresh);  // signing in or out changes which tables are yours
  setInterval(refresh, 10000);
}

main();
