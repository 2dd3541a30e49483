// A rulebook example as a live guided table (/games/{game}/learn/{name}): the board before each
// of the example's moves, the move glowing and said in words; the learner makes it (on the board
// or in the list), any other legal move gets a hint; what each move did is told as it is made.
// The server walks the example (server/learn.py); the board is drawn by the table's own code.

import { api, h } from "./api.js";
import { drawBoard } from "./board.js";

const root = document.getElementById("learn");
const $ = (id) => document.getElementById(id);

const game = root.dataset.game;
const name = root.dataset.name;
const base = `/api/learn/${encodeURIComponent(game)}/${encodeURIComponent(name)}`;
let lesson = null;
let step = 0;
let board = null;

function who(s) {
  if (s.seat < 0) return h("span", { class: "who-tag" }, h("span", { class: "sym", "aria-hidden": "true" }, "✦"), "Chance");
  const seat = lesson.seats[s.seat] || { name: s.who, color: "" };
  return h("span", { class: "who-tag", style: seat.color ? `--c:${seat.color}` : null },
    h("span", { class: "sym", "aria-hidden": "true" }, String(s.seat + 1)), seat.name);
}

function drawSteps() {
  $("learn-steps").replaceChildren(...lesson.steps.map((s, i) => h("li", {
    class: i < step ? "done" : i === step ? "current" : "todo",
    "aria-current": i === step ? "step" : null,
  }, who(s), " ", i <= step ? s.label : "…")));
  // Keep the current move in sight inside the list (the page itself does not move).
  const list = $("learn-steps");
  const cur = list.querySelector("li.current");
  if (cur) list.scrollTop = Math.max(0, cur.offsetTop - list.clientHeight / 2);
}

function hint(text) {
  const el = $("learn-hint");
  el.textContent = text || "";
  el.hidden = !text;
}

function tell(lines) {
  const box = $("learn-told");
  if (!lines.length) return;
  box.prepend(h("ul", { class: "learn-told-lines" }, lines.map((t) => h("li", {}, t))));
}

function choiceButton(choice, expected) {
  return h("button", {
    type: "button",
    class: expected ? "action learn-expected-choice" : "action",
    "data-notation": choice.notation,
    title: choice.notation,
    onclick: () => choose(choice),
    onmouseenter: () => board && board.highlight(choice),
    onmouseleave: () => board && board.highlight(expectedOf()),
  }, choice.label);
}

let current = null;  // the table of this step: {choices, ...}
const expectedOf = () => (current ? current.choices.find((c) => c.expected) || null : null);

function listChoices(choices, note) {
  const exp = choices.find((c) => c.expected);
  const others = choices.filter((c) => !c.expected);
  const kids = [];
  if (note) kids.push(h("p", { class: "muted small" }, note));
  if (exp) kids.push(choiceButton(exp, true));
  if (others.length) {
    kids.push(h("details", { class: "learn-others" },
      h("summary", {}, `Other moves you could make here (${others.length})`),
      h("div", { class: "actions" }, others.map((c) => choiceButton(c, false)))));
  }
  $("learn-choices").replaceChildren(...kids);
}

function choose(choice) {
  if (lesson === null || current === null) return;
  if (!choice.expected) {
    const exp = expectedOf();
    hint(`Not this one: “${choice.label}” is a legal move, but the example plays ` +
         `“${exp ? exp.label : "another move"}”. It glows on the board.`);
    if (board) { board.reset(); board.highlight(exp); }
    listChoices(current.choices);
    return;
  }
  const s = lesson.steps[step];
  hint("");
  tell(s.told.length ? s.told : [`${s.who}: ${s.label}`]);
  go(step + 1);
}

async function go(k) {
  step = k;
  drawSteps();
  hint("");
  const total = lesson.steps.length;
  let table;
  try {
    table = await api(`${base}/${k}`);
  } catch (err) {
    $("learn-banner").textContent = `The example could not be loaded: ${err.message}`;
    return;
  }
  current = table;
  const done = k >= total;
  const s = done ? null : lesson.steps[k];
  const legal = done || s.seat < 0 ? [] : table.choices;
  board = drawBoard($("learn-board"), {
    svg: table.svg, text: table.text, legal,
    onChoose: choose,
    onNarrow: (choices) => listChoices(choices, "Several moves start there: pick one."),
  });
  const banner = $("learn-banner");
  banner.classList.toggle("mine", !done && s.seat >= 0);
  if (done) {
    banner.textContent = "✦ Example complete";
    $("learn-now").textContent = "You made every move of the example; what each did is " +
      "told below. Try another example, or start a table.";
    const more = lesson.others.map((o) => h("a", {
      class: "btn", href: `/games/${encodeURIComponent(game)}/learn/${encodeURIComponent(o.name)}`,
    }, o.title));
    $("learn-choices").replaceChildren(h("p", { class: "row learn-more" },
      h("a", { class: "btn primary", href: `/?game=${encodeURIComponent(game)}` }, "Start a table"),
      ...more));
    return;
  }
  banner.textContent = `Move ${k + 1} of ${total}: ` +
    (s.seat < 0 ? "chance" : `${s.who} to play`);
  if (s.seat < 0) {
    $("learn-now").textContent = `Chance: ${s.label}`;
    $("learn-choices").replaceChildren(h("button", {
      type: "button", class: "btn primary", id: "learn-continue",
      onclick: () => { tell(s.told.length ? s.told : [s.label]); go(k + 1); },
    }, "Continue"));
    return;
  }
  const exp = expectedOf();
  $("learn-now").replaceChildren(
    `Play as ${s.who}: `, h("strong", {}, s.label), ". ",
    exp && exp.targets.some((t) => board.targets.has(t))
      ? "It glows on the board: click it there, or choose it below."
      : "Choose it below.");
  // (the board is redrawn in place: the last step's mark comes off first)
  $("learn-board").querySelectorAll(".learn-expected").forEach((el) => el.classList.remove("learn-expected"));
  for (const t of exp ? exp.targets : []) board.targets.get(t)?.classList.add("learn-expected");
  board.highlight(exp);
  listChoices(table.choices);
}

async function start() {
  try {
    lesson = await api(base);
  } catch (err) {
    $("learn-banner").textContent = `The example could not be loaded: ${err.message}`;
    return;
  }
  $("learn-restart").addEventListener("click", () => {
    $("learn-told").replaceChildren();
    go(0);
  });
  go(0);
}

start();
