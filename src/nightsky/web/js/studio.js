// The design studio: edit or open a components file, check it, run a balance, compare or
// sweep as a background job, follow its progress and read its report.
import { api } from "./api.js";

const $ = (id) => document.getElementById(id);
const state = { games: {}, shipped: {}, jobs: [], shown: null, follow: null, timer: null };

const HELP = {
  balance: "Your file's seats at every player count (or Players): is a seat favoured? As nightsky balance.",
  compare: "Your file against the shipped set (or a second file) on the same seeds: every difference with its interval. As nightsky compare.",
  sweep: "One field of your file (a dotted path) over a range of values, every metric plotted. As nightsky sweep.",
};

function el(tag, attrs = {}, ...kids) {
  const node = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs)) {
    if (k === "class") node.className = v;
    else if (k.startsWith("on")) node.addEventListener(k.slice(2), v);
    else node.setAttribute(k, v);
  }
  for (const kid of kids.flat()) node.append(kid instanceof Node ? kid : String(kid));
  return node;
}

const pct = (x) => `${(100 * x).toFixed(1)}%`;
const num = (x, d = 2) => (x === null || x === undefined ? "-" : Number(x).toFixed(d));
const interval = (ci, f) => (ci ? ` [${f(ci[0])}, ${f(ci[1])}]` : "");

// ------------------------------------------------------------------ the editor
function paintGutter(bad = new Set()) {
  const lines = $("editor").value.split("\n").length;
  const g = $("gutter");
  g.replaceChildren();
  for (let i = 1; i <= lines; i++) {
    g.append(bad.has(i) ? el("span", { class: "bad" }, String(i)) : String(i), "\n");
  }
  g.scrollTop = $("editor").scrollTop;
}

function goTo(line, column) {
  const ed = $("editor");
  const rows = ed.value.split("\n");
  let at = 0;
  for (let i = 0; i < line - 1 && i < rows.length; i++) at += rows[i].length + 1;
  at += Math.max(0, (column || 1) - 1);
  ed.focus();
  ed.setSelectionRange(at, Math.min(ed.value.length, at + 1));
  ed.scrollTop = Math.max(0, (line - 5) * 18.75);
}

function showErrors(errors) {
  const list = $("errors");
  list.replaceChildren();
  const bad = new Set();
  for (const e of errors) {
    const at = e.line ? `line ${e.line}, column ${e.column}` : "";
    const where = e.location ? (at ? `${e.location} (${at})` : e.location) : at || "file";
    if (e.line) bad.add(e.line);
    const li = el("li", {}, el("span", { class: "where" }, where), e.message);
    if (e.line) li.addEventListener("click", () => goTo(e.line, e.column));
    list.append(li);
  }
  paintGutter(bad);
}

async function loadShipped() {
  const game = $("game").value;
  const res = await fetch(`/api/studio/shipped/${encodeURIComponent(game)}`);
  if (!res.ok) { $("check-state").textContent = `No shipped file for ${game}.`; return; }
  state.shipped[game] = await res.text();
  $("editor").value = state.shipped[game];
  showErrors([]);
  $("check-state").textContent = `The shipped ${state.games[game].title} set: edit any value, then Check or Start.`;
}

/** The design to run: "shipped" when the editor holds the shipped set untouched (or nothing),
 *  else the sha256 of the checked upload (null when the file has errors). */
async function designOf(text, field) {
  const game = $("game").value;
  if (!text.trim() || text === state.shipped[game]) return "shipped";
  const res = await fetch("/api/studio/uploads", {
    method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify({ game, text }),
  });
  const data = await res.json().catch(() => null);
  if (res.ok) {
    if (field === "design") {
      showErrors([]);
      $("errors").append(el("li", { class: "ok" }, `valid: sha256 ${data.sha256.slice(0, 16)}…, ${data.bytes.toLocaleString()} bytes`));
      $("check-state").textContent = "Valid: Start runs it.";
    }
    return data.sha256;
  }
  const err = (data && data.error) || { message: `HTTP ${res.status}` };
  const errors = err.errors || [{ line: null, location: err.field || field, message: err.message }];
  if (field === "design") {
    showErrors(errors);
    $("check-state").textContent = `${errors.length} error${errors.length > 1 ? "s" : ""}: click one to go to its line.`;
  } else {
    $("run-state").textContent = `baseline: ${err.message}`;
  }
  return null;
}

// ------------------------------------------------------------------ running
function formKind() { return document.querySelector("input[name=kind]:checked").value; }

function syncForm() {
  const form = $("run-form");
  form.dataset.kind = formKind();
  form.dataset.against = $("against").value;
  $("kind-help").textContent = HELP[formKind()];
  const g = state.games[$("game").value];
  if (g) {
    $("agents").placeholder = `${g.lab_agent} (the game's lab agent)`;
    $("players").placeholder = formKind() === "balance" ? "every count" : String(g.default_players);
    $("players").min = g.min_players; $("players").max = g.max_players;
  }
}

async function start(ev) {
  ev.preventDefault();
  const kind = formKind();
  $("run-state").textContent = "Checking…";
  const design = await designOf($("editor").value, "design");
  if (design === null) { $("run-state").textContent = "Fix the errors first."; return; }
  const body = { kind, game: $("game").value, design, games: Number($("games").value), seed: Number($("seed").value) };
  if ($("players").value) body.players = Number($("players").value);
  if ($("agents").value.trim()) body.agents = $("agents").value.trim();
  if (kind === "compare" && $("against").value === "second") {
    const against = await designOf($("against-text").value, "against");
    if (against === null) return;
    body.against = against;
  }
  if (kind === "sweep") body.set = $("sweep-set").value.trim();
  try {
    const job = await api("/api/studio/jobs", { method: "POST", body });
    state.follow = job.id;
    $("run-state").textContent = `Started (${job.progress.total} games).`;
    await refresh();
  } catch (err) {
    $("run-state").textContent = err.message;
  }
}

// ------------------------------------------------------------------ jobs
function settingsLine(s) {
  const bits = [s.game, s.players ? `${s.players} players` : "every count", s.agents || "lab agent",
    `${s.games} games`, `seed ${s.seed}`];
  if (s.kind === "sweep") bits.push(s.set);
  if (s.kind === "compare") bits.push(`against ${s.against === "shipped" ? "shipped" : s.against.slice(0, 12)}`);
  return bits.join(" · ");
}

function provLine(p) {
  if (!p) return "";
  const one = (x) => `${x.components.file} sha256 ${x.components.sha256.slice(0, 12)}…`;
  if (p.design) return `seed ${p.design.seed} · design ${one(p.design)} · baseline ${one(p.baseline)}`;
  return `seed ${p.seed} · ${one(p)}`;
}

function jobCard(job) {
  const active = job.status === "queued" || job.status === "running";
  const card = el("div", { class: `job${state.shown === job.id ? " selected" : ""}`, "data-job": job.id },
    el("div", { class: "head" }, el("span", { class: "kind" }, job.settings.kind),
      el("span", { class: `status ${job.status}` }, job.status)),
    el("div", { class: "muted" }, settingsLine(job.settings)),
    el("progress", { max: String(job.progress.total), value: String(job.progress.done),
      "aria-label": `progress of job ${job.id}` }),
    el("div", { class: "muted small" }, `${job.progress.done} / ${job.progress.total} games`));
  if (job.provenance) card.append(el("div", { class: "prov" }, provLine(job.provenance)));
  if (job.error) card.append(el("div", { class: "error" }, job.error));
  const buttons = el("div", { class: "row" });
  if (active) buttons.append(el("button", { type: "button", class: "ghost small", onclick: () => cancel(job.id) }, "Cancel"));
  if (job.status === "done") buttons.append(el("button", { type: "button", class: "small", onclick: () => showReport(job) }, "Report"));
  card.append(buttons);
  return card;
}

async function cancel(id) {
  await api(`/api/studio/jobs/${id}/cancel`, { method: "POST" });
  await refresh();
}

async function refresh() {
  const { jobs } = await api("/api/studio/jobs");
  state.jobs = jobs;
  const box = $("jobs");
  box.replaceChildren(...(jobs.length ? jobs.map(jobCard) : [el("p", { class: "muted small" }, "No job yet.")]));
  const followed = jobs.find((j) => j.id === state.follow);
  if (followed && followed.status === "done") { state.follow = null; await showReport(followed); }
  const busy = jobs.some((j) => j.status === "queued" || j.status === "running");
  clearTimeout(state.timer);
  state.timer = setTimeout(refresh, busy ? 700 : 5000);
}

// ------------------------------------------------------------------ reports
function table(head, rows) {
  return el("table", {}, el("thead", {}, el("tr", {}, head.map((h) => el("th", {}, h)))),
    el("tbody", {}, rows.map((r) => el("tr", {}, r.map((c) => (c instanceof Node ? el("td", {}, c) : el("td", {}, String(c))))))));
}

function balanceBody(d) {
  const verdict = (r) => (r.withheld ? "no verdict" : !r.flagged ? "fair" : r.win_share > 1 / r.players ? "above fair" : "below fair");
  const rows = d.rows.map((r) => {
    const v = verdict(r);
    return [r.players, r.seat, `${pct(r.win_share)}${interval(r.win_ci95, pct)}`, num(r.mean_score),
      `${num(r.advantage)}${interval(r.advantage_ci95, num)} ${r.advantage_verdict}`,
      el("span", { class: v === "above fair" ? "flag-above" : v === "below fair" ? "flag-below" : "" }, v)];
  });
  const counts = d.counts.map((c) => el("li", {},
    `${c.players} players: ${c.rounds} rounds a game (${c.turns} turns)`
    + (Object.keys(c.end_conditions).length ? `; ended by ${Object.entries(c.end_conditions).map(([k, v]) => `${k} ${v}`).join(", ")}` : "")
    + (c.outliers.length ? `; components that go with winning: ${c.outliers.slice(0, 4).join(", ")}` : "")));
  return [table(["N", "seat", "win share [interval]", "mean score", "advantage", "verdict"], rows),
    el("ul", {}, counts), el("ul", { class: "muted small" }, d.notes.map((n) => el("li", {}, n)))];
}

function compareBody(d) {
  const rows = [];
  for (const s of d.seats) {
    rows.push([`seat ${s.seat} win share`, pct(s.win_share.design), pct(s.win_share.baseline), `${pct(s.win_share.diff)}${interval(s.win_share.ci95, pct)}`]);
  }
  for (const [k, m] of Object.entries(d.measures)) {
    rows.push([k.replaceAll("_", " "), num(m.design), num(m.baseline), `${num(m.diff)}${interval(m.ci95, num)}`]);
  }
  return [el("ul", {}, d.headlines.map((h) => el("li", {}, h))),
    table(["measure", "design", "baseline", "difference [95%]"], rows)];
}

function sweepBody(d) {
  const cell = (m, k, f) => (m[k] ? `${f(m[k].value)}${interval(m[k].ci95, f)}` : "-");
  return [table([d.field, "seat 0 win share", "rounds", "winner margin", "top component"],
    d.points.map((p) => [String(p.value), cell(p.metrics, "seat 0 win share", pct), cell(p.metrics, "rounds", num),
      cell(p.metrics, "winner margin", num), p.outliers[0] || "-"]))];
}

/** Where two agents' verdicts disagree (a run with two agent specs), else nothing. */
function traceBody(d) {
  if (!d.second || !d.skill_trace) return [];
  const a = d.agents, b = d.second.agents;
  if (!d.skill_trace.length) return [el("p", {}, `Skill trace: ${a} and ${b} agree everywhere.`)];
  return [el("h3", {}, `Skill trace: where ${a} and ${b} disagree`),
    table(["measure", a, b], d.skill_trace.map((t) => [
      (t.players ? `${t.players} players, ` : "") + (t.seat !== undefined && t.seat !== null ? `seat ${t.seat} ` : "") + t.measure,
      t[a], t[b]]))];
}

async function showReport(job) {
  const data = await api(`/api/studio/jobs/${job.id}/report`);
  const files = `/api/studio/jobs/${job.id}/files/`;
  const kind = job.settings.kind;
  state.shown = job.id;
  $("report").hidden = false;
  $("report-title").textContent = `${kind[0].toUpperCase()}${kind.slice(1)}: ${state.games[job.settings.game]?.title || job.settings.game}`;
  $("report-page").href = files + job.report;
  $("report-json").href = `/api/studio/jobs/${job.id}/report`;
  $("report-provenance").textContent = provLine(job.provenance) + (job.provenance ? ` · ${job.provenance.command || (job.provenance.design && job.provenance.design.command) || ""}` : "");
  const body = kind === "balance" ? balanceBody(data) : kind === "compare" ? compareBody(data) : sweepBody(data);
  $("report-body").replaceChildren(...body, ...traceBody(data));
  const plots = kind === "sweep" ? Object.values(data.plots) : [`${kind}.png`];
  $("report-plots").classList.toggle("single", plots.length === 1);
  $("report-plots").replaceChildren(...plots.map((f) => el("img", { src: files + f, alt: `plot ${f}` })));
  for (const card of document.querySelectorAll(".job")) card.classList.toggle("selected", card.dataset.job === job.id);
  $("report").scrollIntoView({ behavior: "smooth", block: "start" });
}

// ------------------------------------------------------------------ start up
async function main() {
  const { games } = await api("/api/studio/games");
  for (const g of games) {
    state.games[g.id] = g;
    $("game").append(el("option", { value: g.id }, g.title));
  }
  const wanted = new URLSearchParams(location.search).get("game");
  if (wanted && state.games[wanted]) $("game").value = wanted;
  $("game").addEventListener("change", () => { syncForm(); loadShipped(); });
  $("load-shipped").addEventListener("click", loadShipped);
  $("file").addEventListener("change", async () => {
    const f = $("file").files[0];
    if (!f) return;
    $("editor").value = await f.text();
    showErrors([]);
    $("check-state").textContent = `Opened ${f.name} (its content only: nothing else is sent).`;
  });
  $("editor").addEventListener("input", () => paintGutter());
  $("editor").addEventListener("scroll", () => { $("gutter").scrollTop = $("editor").scrollTop; });
  $("check").addEventListener("click", () => designOf($("editor").value, "design"));
  for (const r of document.querySelectorAll("input[name=kind]")) r.addEventListener("change", syncForm);
  $("against").addEventListener("change", syncForm);
  $("run-form").addEventListener("submit", start);
  syncForm();
  await loadShipped();
  await refresh();
}

main().catch((err) => { $("check-state").textContent = `The studio failed to start: ${err.message}`; });
