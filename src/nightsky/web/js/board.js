// The board: the game's SVG with its legal choices highlighted, or its text drawing.
//
// Contract (State.board_svg / State.action_ui): every clickable SVG element has an id equal to
// a target named by some legal action (a <g> with a <title>; the shapes to outline inside it
// carry class="hit", else its first shape is outlined). A click on a target takes its action;
// when several legal actions share it, they are offered in a small menu (and the action list
// is narrowed to them) while their further targets glow, so a second click can choose too.
// Nothing here knows any game.

/** Map each target id to the legal choices that name it. */
export function targetMap(legal) {
  const map = new Map();
  for (const choice of legal) {
    for (const t of choice.targets || []) {
      if (!map.has(t)) map.set(t, []);
      map.get(t).push(choice);
    }
  }
  return map;
}

/** Parse server SVG text into a safe <svg> node (no scripts, no event attributes). */
export function parseSvg(text) {
  const doc = new DOMParser().parseFromString(text, "image/svg+xml");
  const svg = doc.documentElement;
  if (!svg || svg.nodeName.toLowerCase() !== "svg" || doc.querySelector("parsererror")) return null;
  svg.querySelectorAll("script, foreignObject").forEach((n) => n.remove());
  for (const el of [svg, ...svg.querySelectorAll("*")]) {
    for (const a of [...el.attributes]) {
      if (a.name.toLowerCase().startsWith("on")) el.removeAttribute(a.name);
      if (/^(href|xlink:href)$/i.test(a.name) && /^\s*javascript:/i.test(a.value)) el.removeAttribute(a.name);
    }
  }
  return document.importNode(svg, true);
}

/** The shapes of a target that carry its outline: its `.hit` shapes, else its first shape. */
function hitShapes(el) {
  const hits = [...el.querySelectorAll(".hit")];
  if (el.classList.contains("hit")) hits.unshift(el);
  if (hits.length) return hits;
  if (SHAPES.has(el.localName)) return [el];
  const first = el.querySelector("rect, circle, ellipse, polygon, path");
  return first ? [first] : [];
}
const SHAPES = new Set(["rect", "circle", "ellipse", "polygon", "path"]);

/**
 * Draw the board into `container`.
 * onChoose(choice) takes an action; onNarrow(choices, event) offers the choices left after a
 * click on a target several of them share (a menu); the clicked targets stay picked and only
 * the targets that narrow further glow, so a second click (a card after a cell) can finish.
 * Returns {highlight(choice|null), reset()} so the list can point at the board on hover and
 * a cancelled menu can clear the picks.
 */
export function drawBoard(container, { svg, text, legal, onChoose, onNarrow, picked: initial = [] }) {
  container.replaceChildren();
  const node = svg ? parseSvg(svg) : null;
  if (!node) {
    const pre = document.createElement("pre");
    pre.className = "text";
    pre.textContent = text || "";
    container.append(pre);
    return { highlight() {}, reset() {}, picked: () => [], needsMenu: () => true, targets: new Map(), svg: null };
  }
  container.append(node);
  const byId = new Map();
  for (const id of targetMap(legal).keys()) {
    // Look up inside this SVG only (ids may hold dots, commas, colons; the page has ids too).
    const el = node.querySelector(`[id="${CSS.escape(id)}"]`);
    if (el) byId.set(id, el);
  }
  // Targets picked before a redraw stay picked when some choice still names them all.
  let picked = initial.filter((t) => byId.has(t));
  if (!legal.some((c) => picked.every((t) => (c.targets || []).includes(t)))) picked = [];
  let active = new Map();  // target id -> the choices a click on it leaves
  const remaining = () => legal.filter((c) => picked.every((p) => (c.targets || []).includes(p)));

  function paint() {
    active = new Map();
    const rem = remaining();
    for (const [t, choices] of targetMap(rem)) {
      if (picked.includes(t)) continue;
      // After a pick, a target every remaining choice shares would not narrow: it stays dark.
      if (picked.length && rem.length > 1 && choices.length === rem.length) continue;
      active.set(t, choices);
    }
    for (const [id, el] of byId) {
      const on = active.has(id);
      el.classList.toggle("ns-target", on);
      el.classList.toggle("ns-picked", picked.includes(id));
      for (const s of hitShapes(el)) {
        s.classList.toggle("ns-hit", on);
        s.classList.toggle("ns-picked-hit", picked.includes(id));
      }
      if (on) {
        el.setAttribute("tabindex", "0");
        el.setAttribute("role", "button");
        el.setAttribute("aria-label", active.get(id).map((c) => c.label).join(" / "));
      } else {
        el.removeAttribute("tabindex");
        el.removeAttribute("role");
      }
    }
  }

  for (const [id, el] of byId) {
    const tip = document.createElementNS("http://www.w3.org/2000/svg", "title");
    tip.textContent = targetMap(legal).get(id).map((c) => c.label).join(" / ");
    const own = [...el.children].find((c) => c.localName === "title");
    if (own) own.replaceWith(tip); else el.prepend(tip);
    const act = (ev) => {
      const choices = active.get(id);
      if (!choices) return;
      ev.preventDefault();
      ev.stopPropagation();
      if (choices.length === 1) { onChoose(choices[0]); return; }
      picked.push(id);
      paint();
      onNarrow(choices, ev);
    };
    el.addEventListener("click", act);
    el.addEventListener("keydown", (ev) => { if (ev.key === "Enter" || ev.key === " ") act(ev); });
  }
  paint();
  return {
    svg: node,
    targets: byId,
    reset() { picked = []; paint(); },
    picked() { return [...picked]; },
    /** True when some remaining choice has no glowing target left: only a menu can pick it. */
    needsMenu() {
      return remaining().some((c) => !(c.targets || []).some((t) => active.has(t)));
    },
    highlight(choice) {
      node.querySelectorAll(".ns-hover").forEach((e) => e.classList.remove("ns-hover"));
      if (!choice) return;
      for (const t of choice.targets || []) byId.get(t)?.classList.add("ns-hover");
    },
  };
}
