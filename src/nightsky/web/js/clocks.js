// Clocks: each seat's time in words ("2:31 left", "bot playing"), counted down here between
// the server's messages; the lobby's clock settings; the away/back switch of your own seat.
import { h } from "./api.js";

/** Seconds as "1:02:03", "2:31" or "0:07"; days as "2d 4h". */
export function duration(s) {
  s = Math.max(0, Math.floor(s));
  if (s >= 86400) return `${Math.floor(s / 86400)}d ${Math.floor((s % 86400) / 3600)}h`;
  const hh = Math.floor(s / 3600), mm = Math.floor((s % 3600) / 60), ss = s % 60;
  const two = (x) => String(x).padStart(2, "0");
  return hh ? `${hh}:${two(mm)}:${two(ss)}` : `${mm}:${two(ss)}`;
}

/** Seconds a seat has left now: a running clock counts down to its deadline. */
export function secondsLeft(c, now = Date.now()) {
  if (c.running && c.deadline) return Math.max(0, (Date.parse(c.deadline) - now) / 1000);
  return c.seconds_left ?? 0;
}

/** One seat's clock in words (never by colour alone), or "" when nothing is to say. */
export function clockText(clocks, seat, now = Date.now()) {
  const c = clocks && clocks.seats ? clocks.seats[seat] : null;
  if (!c) return "";
  if (c.forfeited) return "out (time ran out)";
  if (c.standin === "away") return "away · bot playing";
  if (c.standin === "timeout") return "time ran out · bot playing";
  if (!c.timed) return "";
  const left = duration(secondsLeft(c, now));
  return c.running ? `${left} left` : `${left} left · waiting`;
}

/** The clock line of a seat in the players panel (updated by ``tickClocks``). */
export function clockNode(v, seat) {
  const text = clockText(v.clocks, seat);
  const c = v.clocks && v.clocks.seats ? v.clocks.seats[seat] : null;
  const cls = `clock${c && c.running ? " running" : ""}${c && c.standin ? " standin" : ""}`;
  return h("div", { class: cls, "data-clock-seat": seat, hidden: !text, "aria-label": text ? `clock: ${text}` : null }, text);
}

/** Count the running clocks down on the page (between two messages of the server). */
export function tickClocks(v) {
  if (!v || !v.clocks) return;
  for (const el of document.querySelectorAll("[data-clock-seat]")) {
    const seat = Number(el.dataset.clockSeat);
    const c = v.clocks.seats[seat];
    const text = v.terminal ? "" : clockText(v.clocks, seat);
    if (el.textContent !== text) el.textContent = text;
    el.hidden = !text;
    const low = c && c.running && secondsLeft(c) < 30;
    el.classList.toggle("low", !!low);
  }
}

/** The lobby's clock settings: mode, and the numbers the mode takes. */
export function clockFields() {
  const mode = h("select", { id: "clock-mode", name: "clock-mode" },
    h("option", { value: "untimed" }, "untimed"),
    h("option", { value: "realtime" }, "real time (bank + increment)"),
    h("option", { value: "turnbased" }, "turn-based (time per turn)"));
  const num = (id, value, help) => h("label", { class: "field", "data-clock-field": id },
    help, h("input", { id, type: "number", min: "1", step: "1", value }));
  const bank = num("clock-bank", "10", "bank (minutes)");
  const inc = num("clock-inc", "5", "increment (seconds)");
  inc.querySelector("input").min = "0";
  // Turn-based: from 10 minutes (a quick game) to a week (correspondence), in seconds.
  const per = [[600, "10 minutes"], [1800, "30 minutes"], [3600, "1 hour"], [4 * 3600, "4 hours"],
    [12 * 3600, "12 hours"], [86400, "1 day"], [3 * 86400, "3 days"], [7 * 86400, "7 days"]];
  const move = h("label", { class: "field", "data-clock-field": "clock-move" }, "time per turn",
    h("select", { id: "clock-move" },
      per.map(([sec, words]) => h("option", { value: String(sec), selected: sec === 86400 }, words))));
  const onTimeout = h("select", { id: "clock-timeout" },
    h("option", { value: "bot:greedy" }, "a bot plays the seat (the best-looking move)"),
    h("option", { value: "bot:random" }, "a bot plays the seat (any legal move)"),
    h("option", { value: "forfeit" }, "the seat forfeits (where the rules allow)"));
  const show = () => {
    bank.hidden = inc.hidden = mode.value !== "realtime";
    move.hidden = mode.value !== "turnbased";
  };
  mode.addEventListener("change", show);
  show();
  return h("fieldset", { class: "clock-fields", id: "clock-fields" },
    h("legend", {}, "Clock"),
    h("label", { class: "field" }, "mode", mode), bank, inc, move,
    h("label", { class: "field" }, "when time runs out or a player is away", onTimeout));
}

/** The ``clock`` of the create request, or undefined for an untimed table. */
export function readClock() {
  const mode = document.getElementById("clock-mode")?.value || "untimed";
  const onTimeout = document.getElementById("clock-timeout")?.value || "bot:greedy";
  const val = (id) => Number(document.getElementById(id).value);
  if (mode === "realtime") {
    return { mode, bank_seconds: val("clock-bank") * 60, increment_seconds: val("clock-inc"), on_timeout: onTimeout };
  }
  if (mode === "turnbased") return { mode, move_seconds: val("clock-move"), on_timeout: onTimeout };
  return onTimeout === "bot:greedy" ? undefined : { mode, on_timeout: onTimeout };
}

/** Your own seat's away switch: checked while a bot plays it (away or timed out). */
export function drawAway(v, box, onChange) {
  const c = v.clocks && v.seat !== null ? v.clocks.seats[v.seat] : null;
  const mine = v.seat !== null && v.seats[v.seat] && v.seats[v.seat].kind === "human";
  box.hidden = !mine || v.terminal || !c;
  if (box.hidden) return;
  const input = box.querySelector("input");
  input.checked = !!c.standin;
  input.onchange = () => onChange(input.checked);
  box.querySelector("span").textContent = c.standin
    ? "A bot is playing for you: untick to play again"
    : "I'm away: let a bot play for me";
}

/** The mark of a log line a bot made for a human seat. */
export function logMark(line) {
  if (!line.by) return null;
  const text = line.by === "forfeit" ? " (forfeit)" : " (by the bot)";
  return h("span", { class: "by-bot", title: "a stand-in bot made this move for the seat" }, text);
}
