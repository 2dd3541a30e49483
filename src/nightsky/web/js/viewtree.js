// "What you know": a game's view (a JSON-ready dict) drawn as labelled sections, definition
// lists and tables a person can read. Nothing here knows any game: the game's UI may name its
// keys (`view_labels`: a key, or a dotted path such as "seats.rays", mapped to words); other
// keys are shown as words ("saved_ap" → "Saved ap"). Long content wraps: the page never widens.

const MAX_TABLE_COLUMNS = 7;
const MAX_LIST_ROWS = 12;

/** Words for `key` at `path` (the dotted keys above it, list indexes left out). */
function labelOf(key, path, labels) {
  const full = path ? `${path}.${key}` : String(key);
  if (labels[full]) return labels[full];
  if (labels[key]) return labels[key];
  const words = String(key).replace(/[_-]+/g, " ").trim();
  return words.charAt(0).toUpperCase() + words.slice(1);
}

function el(tag, cls, ...kids) {
  const node = document.createElement(tag);
  if (cls) node.className = cls;
  for (const k of kids.flat(Infinity)) node.append(k instanceof Node ? k : document.createTextNode(String(k)));
  return node;
}

const isScalar = (x) => x === null || x === undefined || typeof x !== "object";

function scalarText(x) {
  if (x === null || x === undefined || x === "") return "—";
  if (x === true) return "yes";
  if (x === false) return "no";
  return String(x);
}

function scalar(x) {
  const span = el("span", x === null || x === undefined || x === "" ? "muted" : "", scalarText(x));
  return span;
}

/** A list of scalars: chips that wrap; an empty one says so. */
function chips(list) {
  if (!list.length) return el("span", "muted", "none");
  return el("span", "chips", list.map((x) => el("span", "chip", scalarText(x))));
}

/** True when every item is a dict whose values are scalars or scalar lists (a table). */
function tableRows(list) {
  if (!list.length || !list.every((x) => x && typeof x === "object" && !Array.isArray(x))) return null;
  const cols = [];
  for (const row of list) {
    for (const [k, v] of Object.entries(row)) {
      if (!(isScalar(v) || (Array.isArray(v) && v.every(isScalar)))) return null;
      if (!cols.includes(k)) cols.push(k);
    }
  }
  return cols.length <= MAX_TABLE_COLUMNS ? cols : null;
}

/** Name one item of a list of dicts: its own name or id where it has one, else its number. */
function itemTitle(item, i, key, path, labels) {
  for (const k of ["name", "title", "id", "card"]) {
    if (item && typeof item[k] === "string" && item[k]) return item[k];
  }
  if (item && Number.isInteger(item.seat)) return `${labelOf("seat", path, labels)} ${item.seat}`;
  return `${labelOf(key, path, labels)} #${i + 1}`;
}

function valueNode(value, key, path, labels, depth) {
  if (isScalar(value)) return scalar(value);
  const here = path ? `${path}.${key}` : String(key);
  if (Array.isArray(value)) {
    if (value.every(isScalar)) return chips(value);
    if (value.every((x) => Array.isArray(x) && x.every(isScalar))) {
      // A grid (rows of scalars): a plain table without headings.
      return el("div", "vt-scroll", el("table", "vt-grid",
        value.map((row) => el("tr", "", row.map((x) => el("td", "", scalarText(x)))))));
    }
    const cols = tableRows(value);
    if (cols) {
      return el("div", "vt-scroll", el("table", "vt-table",
        el("tr", "", cols.map((c) => el("th", "", labelOf(c, here, labels)))),
        value.map((row) => el("tr", "", cols.map((c) => el("td", "",
          Array.isArray(row[c]) ? chips(row[c]) : scalar(row[c])))))));
    }
    return el("div", "vt-items", value.map((item, i) => (isScalar(item) ? scalar(item)
      : el("section", "vt-item",
        el("div", "vt-item-title", itemTitle(item, i, key, path, labels)),
        valueNode(item, key, path, labels, depth + 1)))));
  }
  const entries = Object.entries(value);
  if (!entries.length) return el("span", "muted", "none");
  if (entries.length > MAX_LIST_ROWS && entries.every(([, v]) => isScalar(v))) {
    // Many small facts (a board's slots): chips that flow in columns, not a long list.
    return el("div", "vt-facts", entries.map(([k, v]) =>
      el("span", "vt-fact", el("span", "vt-key", labelOf(k, here, labels)), " ", scalarText(v))));
  }
  return el("dl", "vt-dl", entries.map(([k, v]) => [
    el("dt", "", labelOf(k, here, labels)),
    el("dd", "", valueNode(v, k, here, labels, depth + 1)),
  ]));
}

/**
 * Draw `view` into `box`: one headed section per top-level key whose value is a list or a
 * dict, and one list of the plain facts (numbers, words) first.
 */
export function drawViewTree(box, view, labels = {}) {
  box.replaceChildren();
  if (!view || typeof view !== "object") { box.append(scalar(view)); return; }
  const facts = Object.entries(view).filter(([, v]) => isScalar(v) || (Array.isArray(v) && v.every(isScalar)));
  const parts = Object.entries(view).filter(([, v]) => !(isScalar(v) || (Array.isArray(v) && v.every(isScalar))));
  if (facts.length) {
    box.append(el("section", "vt-section",
      el("h4", "", labels[""] || "At a glance"),
      el("dl", "vt-dl", facts.map(([k, v]) => [el("dt", "", labelOf(k, "", labels)),
        el("dd", "", Array.isArray(v) ? chips(v) : scalar(v))]))));
  }
  for (const [k, v] of parts) {
    box.append(el("section", "vt-section", el("h4", "", labelOf(k, "", labels)),
      valueNode(v, k, "", labels, 1)));
  }
}
