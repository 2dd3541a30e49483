// Keyboard play on the game page, for every game alike.
//
// The board's targets (board.js: tabindex=0, role=button, aria-label = the choices' labels,
// Enter/Space act) are reached with Tab; here the arrow keys move between them by where they
// lie on the board (the nearest target in that direction), Home/End go to the first and last.
// The arrow keys also walk the list of choices and a menu of choices. When a redraw replaces
// the board (every move does), the keyboard's place is kept: the same target when it is still
// there, else the first one. A menu opened from the keyboard takes the focus and sits beside
// its target. Nothing here knows any game.

const board = document.getElementById("board");
const actions = document.getElementById("actions");
let keyboard = false;   // the last interaction was a key (not a pointer)
let boardFocus = null;  // id of the board target the keyboard was on, while it is on the board

const targets = () => [...board.querySelectorAll(".ns-target")];

function centre(el) {
  const r = el.getBoundingClientRect();
  return { x: r.left + r.width / 2, y: r.top + r.height / 2, w: r.width, h: r.height };
}

/** The target nearest to `from` in direction (dx, dy), or null. */
export function nearest(from, list, dx, dy) {
  const a = centre(from);
  let best = null;
  let bestCost = Infinity;
  for (const el of list) {
    if (el === from) continue;
    const b = centre(el);
    const along = (b.x - a.x) * dx + (b.y - a.y) * dy;  // distance in the key's direction
    const across = Math.abs((b.x - a.x) * dy) + Math.abs((b.y - a.y) * dx);
    if (along <= 1) continue;
    const cost = along + 2 * across;
    if (cost < bestCost) { bestCost = cost; best = el; }
  }
  return best;
}

const ARROWS = { ArrowLeft: [-1, 0], ArrowRight: [1, 0], ArrowUp: [0, -1], ArrowDown: [0, 1] };

function focusOn(el) {
  if (!el) return;
  el.focus({ preventScroll: true });
  el.scrollIntoView?.({ block: "nearest", inline: "nearest" });
}

// (In the capture phase: a target's own handler stops the key from bubbling.)
board.addEventListener("keydown", (ev) => {
  if (ev.key !== "Enter" && ev.key !== " ") return;
  // A pick that narrowed the choices without a menu: on to the targets that finish it.
  requestAnimationFrame(() => {
    const active = document.activeElement;
    if (document.getElementById("menu") || (active && active.closest && active.closest(".ns-target"))) return;
    focusOn(targets()[0]);
  });
}, true);

board.addEventListener("keydown", (ev) => {
  const el = ev.target.closest && ev.target.closest(".ns-target");
  if (!el || ev.altKey || ev.ctrlKey || ev.metaKey) return;
  const list = targets();
  let next = null;
  if (ARROWS[ev.key]) {
    const [dx, dy] = ARROWS[ev.key];
    next = nearest(el, list, dx, dy);
    // Nothing that way: keep to the order of the targets, so every one can be reached.
    if (!next) next = list[(list.indexOf(el) + (dx + dy > 0 ? 1 : -1) + list.length) % list.length];
  } else if (ev.key === "Home") next = list[0];
  else if (ev.key === "End") next = list[list.length - 1];
  else return;
  ev.preventDefault();
  focusOn(next);
});

/** Up/Down (and Left/Right) walk a list of buttons: the choices, a menu. */
function walk(container, selector) {
  container.addEventListener("keydown", (ev) => {
    const delta = { ArrowDown: 1, ArrowRight: 1, ArrowUp: -1, ArrowLeft: -1 }[ev.key];
    const items = [...container.querySelectorAll(selector)];
    const i = items.indexOf(document.activeElement);
    if (i < 0) return;
    let j = null;
    if (delta) j = (i + delta + items.length) % items.length;
    else if (ev.key === "Home") j = 0;
    else if (ev.key === "End") j = items.length - 1;
    if (j === null) return;
    ev.preventDefault();
    items[j].focus();
  });
}
walk(actions, "button");

document.addEventListener("keydown", (ev) => {
  if (!["Shift", "Control", "Alt", "Meta"].includes(ev.key)) keyboard = true;
}, true);
document.addEventListener("pointerdown", () => { keyboard = false; }, true);
document.addEventListener("focusin", (ev) => {
  const el = ev.target.closest && ev.target.closest("#board .ns-target, #board .ns-picked");
  if (el) boardFocus = el.id;
  else if (!ev.target.closest(".menu")) boardFocus = null;
});

// A redraw replaces the board (or, drawn in place, takes the focus stop off the target the
// keyboard was on): give the keyboard its place back.
function regainPlace() {
  if (!keyboard || boardFocus === null) return;
  const active = document.activeElement;
  if (active && active !== document.body && document.contains(active) && active.matches("[tabindex], a, button, input, select, textarea")) return;
  const list = targets();
  if (!list.length) return;  // not this seat's turn: the place comes back with the targets
  const same = list.find((el) => el.id === boardFocus);
  focusOn(same || list[0]);
}
new MutationObserver(regainPlace).observe(board, { childList: true });
board.addEventListener("nightsky:drawn", regainPlace);

// A menu of choices opened from the keyboard: beside its target, and focused.
new MutationObserver((records) => {
  for (const r of records) {
    for (const node of r.addedNodes) {
      if (node.nodeType !== 1 || !node.classList.contains("menu")) continue;
      node.setAttribute("aria-label", "Choose one");
      for (const b of node.querySelectorAll("button")) b.setAttribute("role", "menuitem");
      walk(node, "button");
      if (!keyboard) continue;
      const from = boardFocus && board.querySelector(`[id="${CSS.escape(boardFocus)}"]`);
      if (from) {
        const rect = from.getBoundingClientRect();
        node.style.left = `${Math.max(8, Math.min(rect.right + 8, window.innerWidth - 230))}px`;
        node.style.top = `${Math.max(8, Math.min(rect.top, window.innerHeight - node.offsetHeight - 8))}px`;
      }
      node.querySelector("button")?.focus();
    }
  }
}).observe(document.body, { childList: true });

// Escape closes a menu (game.js forgets the pick): the keyboard goes back to the board.
document.addEventListener("keydown", (ev) => {
  if (ev.key !== "Escape" || !keyboard) return;
  requestAnimationFrame(() => {
    if (document.activeElement && document.activeElement !== document.body) return;
    const list = targets();
    focusOn(list.find((el) => el.id === boardFocus) || list[0]);
  });
});
