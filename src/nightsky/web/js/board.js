// The board: the game's SVG with its legal choices highlighted, or its text drawing.
//
// Contract (State.board_svg / State.action_ui): every clickable SVG element has an id equal to
// a target named by some legal action. A click on a target takes its action; when several
// legal actions share it, they are offered in a small menu (and the action list is narrowed to
// them). Nothing here knows any game.

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

/**
 * Draw the board into `container`.
 * onChoose(choice) takes an action; onNarrow(choices, event) offers several.
 * Returns {highlight(choice|null)} so the action list can point at the board on hover.
 */
export function drawBoard(container, { svg, text, legal, onChoose, onNarrow }) {
  container.replaceChildren();
  const node = svg ? parseSvg(svg) : null;
  if (!node) {
    const pre = document.createElement("pre");
    pre.className = "text";
    pre.textContent = text || "";
    container.append(pre);
    return { highlight() {}, targets: new Map(), svg: null };
  }
  container.append(node);
  const map = targetMap(legal);
  const byId = new Map();
  for (const [id, choices] of map) {
    const el = node.querySelector(`[id="${CSS.escape(id)}"]`);
    if (!el) continue;
    byId.set(id, el);
    el.classList.add("ns-target");
    el.setAttribute("tabindex", "0");
    el.setAttribute("role", "button");
    const tip = choices.map((c) => c.label).join(" / ");
    el.setAttribute("aria-label", tip);
    const title = document.createElementNS("http://www.w3.org/2000/svg", "title");
    title.textContent = tip;
    el.prepend(title);
    const act = (ev) => {
      ev.preventDefault();
      ev.stopPropagation();
      if (choices.length === 1) onChoose(choices[0]);
      else onNarrow(choices, ev);
    };
    el.addEventListener("click", act);
    el.addEventListener("keydown", (ev) => { if (ev.key === "Enter" || ev.key === " ") act(ev); });
  }
  return {
    svg: node,
    targets: byId,
    highlight(choice) {
      node.querySelectorAll(".ns-hover").forEach((e) => e.classList.remove("ns-hover"));
      if (!choice) return;
      for (const t of choice.targets || []) byId.get(t)?.classList.add("ns-hover");
    },
  };
}
