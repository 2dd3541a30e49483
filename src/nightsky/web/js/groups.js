// A long list of choices in groups a new player can scan: the choices are grouped by the
// board target they share at one place of their target lists (Shooting Star's first turn,
// 108 choices: nine cards, each to one of twelve planets), each group named as the board
// names that target. Nothing here knows any game: it reads the choices' targets and the
// board's own labels (`data-label`, else the element's own tooltip).

/** Lists longer than this are shown in groups. */
export const GROUP_MIN = 24;

/**
 * The choices in groups, [{key, choices}] in the order of their first choice, by the target
 * at the place of the target lists that makes the fewest groups (two at least, and at least
 * two choices a group on average); null when no place groups them.
 */
export function groupChoices(list) {
  if (!list.length) return null;
  const places = Math.min(...list.map((c) => (c.targets || []).length));
  let best = null;
  for (let k = 0; k < places; k++) {
    const by = new Map();
    for (const c of list) {
      const t = c.targets[k];
      if (!by.has(t)) by.set(t, []);
      by.get(t).push(c);
    }
    if (by.size >= 2 && by.size * 2 <= list.length && (!best || by.size < best.size)) best = by;
  }
  return best && [...best].map(([key, choices]) => ({ key, choices }));
}

/** The words every label starts with (whole words), or "". */
export function commonStart(labels) {
  if (!labels.length) return "";
  const words = labels.map((l) => l.split(/\s+/));
  const out = [];
  for (let i = 0; i < words[0].length; i++) {
    const w = words[0][i];
    if (!words.every((ws) => ws[i] === w)) break;
    out.push(w);
  }
  return out.join(" ");
}

/** How the board names the target `el` (its label, else its own tooltip), or "". */
export function boardName(el) {
  if (!el) return "";
  if (el.dataset && el.dataset.label) return el.dataset.label;
  const own = [...el.children].find((c) => c.localName === "title");
  return own ? (own.getAttribute("data-ns-own") ?? own.textContent).trim() : "";
}
