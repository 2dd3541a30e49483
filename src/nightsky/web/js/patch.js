// Light updates: after the first view a socket that asked for them ("patches": true in its
// hello) is sent what changed (server/patches.py): new sections whole, an edit per changed
// section (objects key by key, lists by splice or item, strings by character stretches, which
// may copy stretches of the old string), and the log lines added; a section sent back after a
// while (your choices, after another player's turn) may be edited from one of a few views
// before the last.
// pushedView() turns every push into the whole view again; a patch for a version this page
// already holds gives that view, one for an older view than it holds null (the page then asks
// for the whole view).
let last = null;  // the newest whole view this page holds (pushed, assembled, or fetched)
let earlier = [];  // a few views before it (server/patches.py EARLIER), for sections sent back
const EARLIER = 4;
const edits = new WeakMap();  // a view -> {key: {base, hunks}} for its string sections edited

/**
 * How the string section `key` of `view` was made from the view before it, when a patch
 * edited it: {base: the old string, hunks: [[start, end, newLength], ...] on it, in order}.
 * A drawing that holds `base` may redraw just those stretches (web/js/morph.js).
 */
export function stringEdit(view, key) {
  const e = view && edits.get(view);
  return (e && e[key]) || null;
}

/** A string edit's stretches on the old string: [[start, end, newLength], ...]. */
export function hunksOf(op) {
  const out = [];
  let at = 0;
  for (const [kept, cut, text] of op.s) {
    const start = at + kept;
    const len = typeof text === "string" ? text.length
      : text.reduce((n, p) => n + (typeof p === "string" ? p.length : p[1] - p[0]), 0);
    out.push([start, start + cut, len]);
    at = start + cut;
  }
  return out;
}

function hold(v) {
  if (last && last.version < v.version) earlier = earlier.concat([last]).slice(-EARLIER);
  last = v;
}

/** Remember a whole view that came another way (an HTTP answer), if it is newer. */
export function remember(v) {
  if (v && v.view && v.step === undefined && (!last || v.version >= last.version)) hold(v);
}

/** ``old`` with the edit ``op`` made (server/patches.py DIFF); ``old`` is left as it was. */
export function applyEdit(old, op) {
  if ("v" in op) return op.v;
  if (op.o) {
    const out = { ...old };
    for (const k of op.x || []) delete out[k];
    for (const [k, sub] of Object.entries(op.o)) out[k] = applyEdit(old[k], sub);
    return out;
  }
  if (op.i) {
    const out = old.slice();
    for (const [n, sub] of op.i) out[n] = applyEdit(out[n], sub);
    return out;
  }
  if (op.m) {
    const out = [];
    for (const p of op.m) {
      if (Array.isArray(p)) out.push(...old.slice(p[0], p[1]));
      else if (p.e) out.push(applyEdit(old[p.e[0]], p.e[1]));
      else out.push(...p.a);
    }
    return out;
  }
  const parts = [];
  let at = 0;
  for (const [kept, cut, text] of op.s) {
    const start = at + kept, end = start + cut;
    parts.push(old.slice(at, start));
    if (typeof text === "string") parts.push(text);
    else for (const p of text) parts.push(typeof p === "string" ? p : old.slice(p[0], p[1]));
    at = end;
  }
  parts.push(old.slice(at));
  return parts.join("");
}

/** The whole view a push brings: a ``view`` message's, or a ``patch`` applied to the last one. */
export function pushedView(msg) {
  if (msg.type === "view") { hold(msg.data); return last; }
  const p = msg.data;
  if (last && last.version !== p.base && last.version >= p.version) return last;  // had it
  if (!last || last.version !== p.base) return null;
  const v = { ...last, ...p.set };
  for (const k of p.drop || []) delete v[k];
  const made = {};
  for (const [k, op] of Object.entries(p.diff || {})) {
    v[k] = applyEdit(last[k], op);
    if (op.s && typeof last[k] === "string") made[k] = { base: last[k], hunks: hunksOf(op) };
  }
  edits.set(v, made);
  for (const [k, [version, op]] of Object.entries(p.back || {})) {
    const from = earlier.find((e) => e.version === version);
    if (!from) return null;  // edited from a view this page never held: ask for the whole one
    v[k] = applyEdit(from[k], op);
  }
  if (p.log) v.log = (last.log || []).slice(0, p.log.from).concat(p.log.add);
  hold(v);
  return v;
}
