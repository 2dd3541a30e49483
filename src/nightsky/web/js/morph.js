// Redraw only what changed: the board's SVG text before and after a move differ in a few
// stretches (the server's string edit, server/patches.py; else the common start and end of the
// two texts). Each stretch is widened to whole nodes (the fewest siblings around it under the
// deepest element that holds it); only those nodes of the live board are parsed again and
// swapped in, so focus, zoom, scroll and the untouched elements stay as they are. Nothing here
// knows any game: it reads the SVG text as XML.

const NODE = /<!--[\s\S]*?-->|<!\[CDATA\[[\s\S]*?\]\]>|<[?!][^>]*>|<\/[^>]*>|<(?:[^>"']|"[^"]*"|'[^']*')*>|[^<]+/g;
const UNSAFE = /<(?:script|foreignObject)\b/i;  // parseSvg drops these: the text no longer maps

/**
 * The XML text's nodes as a tree of offsets: {s, e, kids, parent, at, cs, ce, tag} (an
 * element: its content is cs..ce; a self-closing one has none) or {s, e, kids: null} (text,
 * a comment). `at` is the node's place among its parent's child nodes.
 */
export function indexXml(text) {
  const doc = { s: 0, e: text.length, kids: [], parent: null, cs: 0, ce: text.length, tag: "#document" };
  let cur = doc;
  NODE.lastIndex = 0;
  for (let m = NODE.exec(text); m; m = NODE.exec(text)) {
    const t = m[0], s = m.index, e = s + t.length;
    if (t[0] !== "<" || t.startsWith("<!--") || t.startsWith("<![CDATA[")) {
      if (cur !== doc) cur.kids.push({ s, e, kids: null, parent: cur, at: cur.kids.length });
    } else if (t[1] === "/") {
      cur.ce = s;
      cur.e = e;
      if (!cur.parent) return null;  // unbalanced
      cur = cur.parent;
    } else if (t[1] !== "?" && t[1] !== "!") {
      const tag = /^<([^\s/>]+)/.exec(t)[1];
      const closed = t.endsWith("/>");
      const node = { s, e, kids: [], parent: cur, at: cur.kids.length, cs: closed ? null : e, ce: closed ? null : e, tag };
      cur.kids.push(node);
      if (!closed) cur = node;
    }
  }
  return cur === doc && doc.kids.length === 1 ? doc.kids[0] : null;
}

let indexed = { text: null, root: null };  // the last text indexed (the board drawn now)

/**
 * Index `text` ahead of need (the board now drawn is the one the next move is morphed from):
 * a page calls this when it is idle, so the next redraw finds the index made.
 */
export function prepare(text) {
  if (indexed.text !== text) indexed = { text, root: indexXml(text) };
}

/** One stretch that covers old characters s..e-1 and turns them into `len` new ones. */
function commonEnds(a, b) {
  let s = 0;
  const n = Math.min(a.length, b.length);
  while (s < n && a.charCodeAt(s) === b.charCodeAt(s)) s++;
  let k = 0;
  while (k < n - s && a.charCodeAt(a.length - 1 - k) === b.charCodeAt(b.length - 1 - k)) k++;
  return [[s, a.length - k, b.length - k - s]];
}

/** The first child of `node` that ends after offset `x` (binary search on the sorted kids). */
function firstEndingAfter(kids, x) {
  let lo = 0, hi = kids.length;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if (kids[mid].e <= x) lo = mid + 1; else hi = mid;
  }
  return lo;
}

/** The whole sibling nodes that hold old characters s..e-1 (or the gap at s when s = e). */
function unitOf(root, s, e) {
  let el = root;
  if (root.cs === null || s < root.cs || e > root.ce) return null;  // the root's own tag
  for (;;) {
    const k = firstEndingAfter(el.kids, s);
    const kid = el.kids[k];
    // Go down while one child element's content holds the whole stretch (its tags untouched).
    if (kid && kid.kids && kid.cs !== null && kid.cs <= s && e <= kid.ce) {
      el = kid;
      continue;
    }
    let i = k, j = k;
    while (j < el.kids.length && el.kids[j].s < e) j++;
    // A text node next to the stretch goes with it (two text nodes side by side would not map).
    while (i > 0 && el.kids[i - 1].e === (i < j ? el.kids[i].s : s) && !el.kids[i - 1].kids) i--;
    while (j < el.kids.length && el.kids[j].s === (i < j ? el.kids[j - 1].e : e) && !el.kids[j].kids) j++;
    return { el, i, j, s: i < j ? Math.min(s, el.kids[i].s) : s, e: i < j ? Math.max(e, el.kids[j - 1].e) : e };
  }
}

/** Merge stretches into disjoint runs of siblings, in order; null when they do not nest. */
function units(root, hunks) {
  const out = [];
  for (const [s, e, len] of hunks) {
    let u = unitOf(root, s, e);
    if (!u) return null;
    u.hunks = [[s, e, len]];
    for (let last = out[out.length - 1]; last && u.s <= last.e; last = out[out.length - 1]) {
      out.pop();
      if (u.el === last.el) {  // siblings that meet: one run
        u = { el: u.el, i: Math.min(last.i, u.i), j: Math.max(last.j, u.j), s: Math.min(last.s, u.s),
          e: Math.max(last.e, u.e), hunks: [...last.hunks, ...u.hunks] };
      } else if (u.e <= last.e && u.s >= last.s) {
        u = { ...last, hunks: [...last.hunks, ...u.hunks] };  // inside the run already taken
      } else if (u.s <= last.s && u.e >= last.e) {
        u.hunks = [...last.hunks, ...u.hunks];  // a run around it
      } else {
        return null;
      }
    }
    out.push(u);
  }
  return out;
}

/** The live DOM node that the string node `n` drew (below `svg`, drawn from `root`). */
function domOf(n, root, svg, kids) {
  const path = [];
  for (let x = n; x !== root; x = x.parent) path.push(x.at);
  let node = svg;
  for (let k = path.length - 1; k >= 0; k--) {
    node = kids(node)[path[k]];
    if (!node) return null;
  }
  return node;
}

/** A node's child nodes as the SVG text has them (leaving out what the page added). */
function kidsOf(node, skip) {
  return [...node.childNodes].filter((c) => !skip(c));
}

/** The live nodes to replace and what replaces them, for these stretches; null when they do not
 * map onto the live board or their new text does not parse on its own. */
function plan(svg, root, old, text, hunks, skip) {
  const list = units(root, hunks);
  if (!list) return null;
  const head = old.slice(root.s, root.cs);
  // First find every live node and every new fragment; change the board only when all map.
  const jobs = [];
  const frags = [];
  const kidsAt = new Map();  // live element -> its child nodes (each looked up once)
  const kids = (el) => { if (!kidsAt.has(el)) kidsAt.set(el, kidsOf(el, skip)); return kidsAt.get(el); };
  let delta = 0;
  for (const u of list) {
    const from = u.s + delta;
    for (const [s, e, len] of u.hunks) delta += len - (e - s);
    frags.push(text.slice(from, u.e + delta));
    const parent = u.el === root ? svg : domOf(u.el, root, svg, kids);
    if (!parent || parent.localName !== u.el.tag.replace(/^.*:/, "")) return null;
    const now = kids(parent);
    if (now.length !== u.el.kids.length) return null;
    const gone = now.slice(u.i, u.j);
    if (gone.some((g, k) => g.nodeType === 1 && g.localName !== u.el.kids[u.i + k].tag.replace(/^.*:/, ""))) return null;
    jobs.push({ parent, gone, before: now[u.j] || null });
  }
  // Every new fragment in one parse (each in a group of its own, under the board's own root tag).
  const doc = new DOMParser().parseFromString(
    `${head}${frags.map((f) => `<g>${f}</g>`).join("")}</svg>`, "image/svg+xml");
  if (doc.querySelector("parsererror") || doc.documentElement.children.length !== jobs.length) return null;
  [...doc.documentElement.children].forEach((g, k) => { jobs[k].fresh = [...g.childNodes]; });
  return jobs;
}

/**
 * Turn the live board `svg` (drawn from the text `old`) into the drawing of `text` by
 * replacing only the nodes that changed. `hunks` ([[start, end, newLength], ...] on `old`, in
 * order) says where; without them the two texts are compared. `sanitize(node)` cleans parsed
 * nodes; `skip(node)` names nodes the page added (left out when mapping). Returns the elements
 * put in (for checks), or null when only a whole redraw will do (the root's own tag changed,
 * the text does not parse, the live board does not match its text).
 */
export function morphSvg(svg, old, text, hunks, { sanitize, skip }) {
  if (UNSAFE.test(text) || UNSAFE.test(old)) return null;
  prepare(old);
  const root = indexed.root;
  if (!root) return null;
  // A string edit's stretches need not keep to the tags (a closing tag cut in one stretch and
  // put back in another): then the one stretch from the first change to the last will do.
  const jobs = (hunks && hunks.length && plan(svg, root, old, text, hunks, skip))
    || plan(svg, root, old, text, commonEnds(old, text), skip);
  if (!jobs) return null;
  // The board no longer shows `old`: its index is spent (the next morph starts from `text`).
  indexed = { text: null, root: null };
  const added = [];
  for (const { parent, gone, before, fresh } of jobs) {
    for (const g of gone) g.remove();
    for (const f of fresh) {
      const node = document.importNode(f, true);
      if (node.nodeType === 1) { sanitize(node); added.push(node); }
      // (after the removal: the node after the run may be one the page added, kept in place)
      if (before && before.parentNode === parent) parent.insertBefore(node, before); else parent.append(node);
    }
  }
  return added;
}
