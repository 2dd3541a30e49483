// Light updates: after the first view a socket that asked for them ("patches": true in its
// hello) is sent what changed (server/patches.py): the sections that changed, the log lines
// added, and the board's changed stretches over its tokens (a tag with the text after it).
// pushedView() turns every push into the whole view again; a patch for a version this page
// already holds gives that view, one for an older view than it holds null (the page then asks
// for the whole view).
let last = null;  // the newest whole view this page holds (pushed, assembled, or fetched)

const TOKEN = /<[^<]*|[^<]+/g;  // the server's tokens (server/patches.py TOKEN)

/** Remember a whole view that came another way (an HTTP answer), if it is newer. */
export function remember(v) {
  if (v && v.view && v.step === undefined && (!last || v.version >= last.version)) last = v;
}

/** The whole view a push brings: a ``view`` message's, or a ``patch`` applied to the last one. */
export function pushedView(msg) {
  if (msg.type === "view") { last = msg.data; return last; }
  const p = msg.data;
  if (last && last.version !== p.base && last.version >= p.version) return last;  // had it
  if (!last || last.version !== p.base) return null;
  const v = { ...last, ...p.set };
  for (const k of p.drop || []) delete v[k];
  if (p.log) v.log = (last.log || []).slice(0, p.log.from).concat(p.log.add);
  if (p.svg) {
    const old = last.svg.match(TOKEN) || [];
    const parts = [];
    let at = 0;
    for (const [start, end, text] of p.svg) { parts.push(...old.slice(at, start), text); at = end; }
    parts.push(...old.slice(at));
    v.svg = parts.join("");
  }
  last = v;
  return v;
}
