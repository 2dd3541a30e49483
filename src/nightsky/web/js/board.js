// The board: the game's SVG with its legal choices highlighted, or its text drawing.
//
// Contract (State.board_svg / State.action_ui): every clickable SVG element has an id equal to
// a target named by some legal action (a <g> with a <title>; the shapes to outline inside it
// carry class="hit", else its first shape is outlined). A click on a target takes its action;
// when several legal actions share it, they are offered in a small menu (and the action list
// is narrowed to them) while their further targets glow, so a second click can choose too.
// Elements may also carry `data-detail` (lines of fine print) and `data-section` (a part of
// the board worth jumping to): hover, focus or a tap shows the detail in a panel beside the
// board; the sections become buttons of the board's toolbar.
//
// The board is drawn in a viewport that pans (drag, scroll, the arrow keys on the board) and
// zooms (buttons, ctrl+wheel, pinch, + and -). Its first scale is never below the one at which
// the smallest text is READABLE_PX CSS pixels and, on a small or touch screen, every click
// target at least TAP_SEEN_PX; there a target smaller than TAP_PX gets a clear pad around it
// that a finger may tap (so a phone is not zoomed in to one corner of the board). After every redraw whose choosable targets are out of view, the
// viewport frames them. A small overview shows the whole board and where the view is (a click
// there looks there). The section the game names as the viewer's hand (`dock`) is drawn a
// second time under the board, so it stays in view wherever the board is scrolled; a click on
// it acts on the board. Nothing here knows any game.

import { syncChildren } from "./api.js";
import { morphSvg, prepare } from "./morph.js";

export const READABLE_PX = 12;
export const TAP_PX = 40;
export const TAP_SEEN_PX = 24;  // (WCAG 2.2's smallest target; the pad makes it TAP_PX to tap)
const MAX_AUTO_SCALE = 4;
const MAX_FIT_SCALE = 1.6;
const DOCK_SHARE = 0.27;   // the dock takes at most this share of the window's height
const DETAIL_LINES = 6;    // a hover box lists at most this many lines (then "and N more")

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
  clean(svg);
  return document.importNode(svg, true);
}

/** The shapes of a target that carry its outline: its `.hit` shapes, else its first shape. */
function hitShapes(el) {
  const hits = [...el.querySelectorAll(".hit")];
  if (el.classList.contains("hit")) hits.unshift(el);
  if (hits.length) return hits;
  if (SHAPES.has(el.localName)) return [el];
  const first = el.querySelector(":is(rect, circle, ellipse, polygon, path):not([data-ns-added])");
  return first ? [first] : [];
}
const SHAPES = new Set(["rect", "circle", "ellipse", "polygon", "path"]);

/** Nodes the page put into the board (a tooltip where the element had none): not the game's. */
const added = (n) => n.nodeType === 1 && n.hasAttribute("data-ns-added");

/** Make parsed nodes safe (as parseSvg does for a whole board). */
function clean(node) {
  node.querySelectorAll("script, foreignObject").forEach((n) => n.remove());
  for (const el of [node, ...node.querySelectorAll("*")]) {
    for (const a of [...el.attributes]) {
      if (a.name.toLowerCase().startsWith("on")) el.removeAttribute(a.name);
      if (/^(href|xlink:href)$/i.test(a.name) && /^\s*javascript:/i.test(a.value)) el.removeAttribute(a.name);
    }
  }
}

const MARKS = ["ns-target", "ns-picked", "ns-hit", "ns-picked-hit", "ns-hover"];

/** Take back what the page put into the board's text (tooltips: own ones back; added nodes),
 * so the live board maps onto its SVG text again. The glows and focus stops stay: the next
 * paint keeps those that stay (no style to compute again, no copy for the dock to redo) and
 * `clearStale` takes off the rest. */
function unmarkText(svg) {
  for (const t of svg.querySelectorAll("title[data-ns-own]")) {
    t.textContent = t.getAttribute("data-ns-own");
    t.removeAttribute("data-ns-own");
  }
  svg.querySelectorAll("[data-ns-added]").forEach((t) => t.remove());
}

const STOP = ["tabindex", "role", "aria-label", "data-ns-stop"];

/** Take the last draw's glows and focus stops off the parts not in `keep` (this draw's targets
 * and their outlined shapes, which paint() sets), and the list's hover light off every part. */
function clearStale(svg, keep) {
  for (const el of svg.querySelectorAll(`${MARKS.map((m) => `.${m}`).join(", ")}, [data-ns-stop]`)) {
    if (keep.has(el)) { el.classList.remove("ns-hover"); continue; }
    el.classList.remove(...MARKS);
    if (el.hasAttribute("class") && !el.classList.length) el.removeAttribute("class");
    for (const a of STOP) el.removeAttribute(a);
  }
}

/** Run `fn` when the page is idle (after the frame that shows a redraw). */
const whenIdle = (fn) => (window.requestIdleCallback ? requestIdleCallback(fn, { timeout: 500 }) : setTimeout(fn, 50));

const boards = new WeakMap();  // container -> what it shows: {svg, text, act(id, ev)}

/** The board's one click and key handler (its targets change with every redraw; it stays). */
function boardOf(container) {
  let b = boards.get(container);
  if (b) return b;
  b = { svg: null, text: null, act: () => {} };
  boards.set(container, b);
  const onTarget = (ev) => {
    const el = ev.target.closest && ev.target.closest(".ns-target");
    if (el && b.svg && b.svg.contains(el)) b.act(el.id, ev);
  };
  container.addEventListener("click", onTarget);
  container.addEventListener("keydown", (ev) => { if (ev.key === "Enter" || ev.key === " ") onTarget(ev); });
  return b;
}

/**
 * Draw the board into `container`: the first time whole, then (the same board redrawn after
 * a move) only the parts of the SVG text that changed (`edit`: how the text was made from the
 * one drawn before, patch.js stringEdit; web/js/morph.js), so the focus, zoom, scroll and the
 * untouched elements stay.
 * onChoose(choice) takes an action; onNarrow(choices, event) offers the choices left after a
 * click on a target several of them share (a menu); the clicked targets stay picked and only
 * the targets that narrow further glow, so a second click (a card after a cell) can finish.
 * Returns {highlight(choice|null), reset()} so the list can point at the board on hover and
 * a cancelled menu can clear the picks.
 */
export function drawBoard(container, { svg, text, legal, onChoose, onNarrow, picked: initial = [], dock = null, edit = null }) {
  const port = viewportOf(container);
  const was = boardOf(container);
  let node = null;
  let fresh = null;  // the elements a redraw put in (null: the board was drawn whole)
  const focused = document.activeElement;
  const focusId = was.svg && was.svg.contains(focused) ? focused.id : null;
  if (svg && was.svg && was.text !== null && container.contains(was.svg)) {
    unmarkText(was.svg);
    const hunks = edit && edit.base === was.text ? edit.hunks : null;
    fresh = was.text === svg ? [] : morphSvg(was.svg, was.text, svg, hunks, { sanitize: clean, skip: added });
    if (fresh) node = was.svg;
  }
  if (!node) {
    port.save();
    container.replaceChildren();
    node = svg ? parseSvg(svg) : null;
  }
  was.svg = node;
  was.text = node ? svg : null;
  if (!node) {
    const pre = document.createElement("pre");
    pre.className = "text";
    pre.textContent = text || "";
    container.append(pre);
    was.act = () => {};
    port.attach(null, [], null);
    return { highlight() {}, reset() {}, picked: () => [], needsMenu: () => true, targets: new Map(), svg: null };
  }
  if (!fresh) container.append(node);
  const byChoice = targetMap(legal);
  const byId = new Map();
  if (byChoice.size) {
    // Looked up inside this SVG only (ids may hold dots, commas, colons; the page has ids too).
    for (const el of node.querySelectorAll("[id]")) if (byChoice.has(el.id) && !byId.has(el.id)) byId.set(el.id, el);
  }
  if (fresh) clearStale(node, new Set([...byId.values()].flatMap((el) => [el, ...hitShapes(el)])));
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
        const set = (a, v) => { if (el.getAttribute(a) !== v) el.setAttribute(a, v); };  // (no change: no mutation)
        set("tabindex", "0");
        set("role", "button");
        set("aria-label", active.get(id).map((c) => c.label).join(" / "));
        set("data-ns-stop", "");
      } else if (el.hasAttribute("data-ns-stop")) {
        for (const a of STOP) el.removeAttribute(a);
      }
    }
    port.padTargets();
    port.paintDock();
  }

  for (const [id, el] of byId) {
    // The tooltip lists the choices; the element's own name stays for the detail panel.
    const words = byChoice.get(id).map((c) => c.label).join(" / ");
    const own = [...el.children].find((c) => c.localName === "title");
    if (own) {
      own.setAttribute("data-ns-own", own.textContent);
      own.textContent = words;
    } else {
      const tip = document.createElementNS("http://www.w3.org/2000/svg", "title");
      tip.setAttribute("data-ns-added", "");
      tip.textContent = words;
      el.prepend(tip);
    }
  }
  was.act = (id, ev) => {
    const choices = active.get(id);
    if (!choices) return;
    ev.preventDefault();
    ev.stopPropagation();
    if (choices.length === 1) { onChoose(choices[0]); return; }
    picked.push(id);
    paint();
    // The targets that finish the choice glow now: bring them into view when none is (a
    // phone's board shows a corner of it; the hand may lie below the picked planet).
    port.showTargets();
    onNarrow(choices, ev);
  };
  port.svg = null;  // (the dock copies the board once it is attached, not before)
  port.dockName = dock;
  paint();
  port.attach(node, [...byId.values()], legal, fresh);
  // A redraw that replaced the focused target: the keyboard stays on it (or the board).
  if (focusId !== null && !node.contains(document.activeElement)) {
    const again = byId.get(focusId);
    if (again && again.hasAttribute("tabindex")) again.focus({ preventScroll: true });
  }
  container.dispatchEvent(new CustomEvent("nightsky:drawn"));  // (a11y.js: the keyboard's place)
  // The next redraw starts from this board: index its text when the page is idle, if this
  // very board still shows it then (a newer draw made in between indexes its own).
  whenIdle(() => { if (was.svg === node && was.text === svg) prepare(svg); });
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

// ------------------------------------------------------------------ viewport: pan, zoom, detail

const ports = new WeakMap();

/** The pan/zoom state of a board container, kept across redraws (a push redraws the board). */
function viewportOf(container) {
  let port = ports.get(container);
  if (!port) {
    port = new Viewport(container);
    ports.set(container, port);
  }
  return port;
}

/** The effective size of a length of `el`'s user space on screen, per CSS pixel of scale. */
function screenScale(el) {
  const m = el.getScreenCTM();
  return m ? Math.sqrt(Math.abs(m.a * m.d - m.b * m.c)) : 1;
}

/** How much `el`'s user space is scaled within `root`'s (its transforms and those of the
 * groups around it), read from their transform attributes: no layout. */
function scaleWithin(el, root) {
  let det = 1;
  for (let n = el; n && n !== root; n = n.parentNode) {
    if (n.localName === "svg") return screenScale(el) / (screenScale(root) || 1);  // a nested viewport
    const list = n.transform && n.transform.baseVal;  // (read only: consolidate() rewrites it)
    for (let i = 0; list && i < list.numberOfItems; i++) {
      const m = list.getItem(i).matrix;
      det *= m.a * m.d - m.b * m.c;
    }
  }
  return Math.sqrt(Math.abs(det));
}

class Viewport {
  constructor(container) {
    this.box = container;
    this.tools = document.getElementById(`${container.id}-tools`);
    this.detail = document.getElementById(`${container.id}-detail`);
    this.svg = null;
    this.scale = null;     // CSS px per SVG unit; null until the first board
    this.user = false;     // the player zoomed: keep their scale
    this.scroll = [0, 0];
    this.pinned = null;    // the element whose detail a tap pinned
    this.size = [0, 0];    // the viewBox's width and height
    this.origin = [0, 0];  // the viewBox's x and y
    this.framedFor = null; // the legal choices the view was last framed on
    this.dockName = null;  // the section drawn again in the dock (the viewer's hand)
    this.dockBox = document.getElementById("dock");
    this.dockView = document.getElementById("dock-view");
    this.overview = document.getElementById(`${container.id}-overview`);
    this.listen();
  }

  save() {
    if (this.svg) this.scroll = [this.box.scrollLeft, this.box.scrollTop];
  }

  /**
   * Show `svg` with its `targets`. `fresh`: the elements a redraw of the same board put in
   * (null: a new board): then the zoom and scroll stay, and only new text can raise the scale.
   */
  attach(svg, targets, legal, fresh = null) {
    const same = fresh !== null;
    this.svg = svg;
    this.targets = targets;
    this.box.classList.toggle("has-svg", !!svg);
    if (!svg) { this.drawTools([]); this.showDetail(null); this.drawDock(); this.drawOverview(); return; }
    const vb = svg.viewBox && svg.viewBox.baseVal;
    const size = vb && vb.width ? [vb.width, vb.height] : [800, 600];
    const resized = size[0] !== this.size[0] || size[1] !== this.size[1];
    this.size = size;
    this.origin = vb && vb.width ? [vb.x, vb.y] : [0, 0];
    const first = this.scale === null;
    if (!same) {
      svg.removeAttribute("width");
      svg.removeAttribute("height");
      // The readable scale is measured on a new board (a whole redraw of another size, the
      // first one); a redraw of the same board keeps it unless new text needs more.
      if (first || (resized && !this.user)) this.scale = this.neededScale();
      this.setSize(this.scale);
      [this.box.scrollLeft, this.box.scrollTop] = this.scroll;
    } else if (resized) {
      if (!this.user) this.scale = this.neededScale();
      this.setSize(this.scale);
    } else if (!this.user && fresh.length) {
      const need = this.neededFor(fresh);
      if (need > this.scale * 1.001) this.apply(Math.min(need, MAX_AUTO_SCALE));
    }
    this.padTargets();
    // Everything is measured before anything else is written (one layout): a new board's
    // dock first (it takes room from the board), the framing, the dock's new parts, the
    // overview; then the dock and the overview are drawn.
    if (!same) this.drawDock();
    // Frame the choosable targets at first paint and whenever new choices are out of view.
    const key = (legal || []).map((c) => c.action).join("\n");
    if (first || key !== this.framedFor) this.showTargets(first);
    this.framedFor = key;
    const overview = this.measureOverview();
    if (same) this.drawDock();
    overview();
    const sections = [...svg.querySelectorAll("[data-section]")];
    const names = sections.map((el) => el.dataset.section).join("\n");
    if (!same || names !== this.sectionNames) this.drawTools(sections);
    this.sectionNames = names;
    if (this.pinned) {
      const id = this.pinned.id;
      const again = svg.contains(this.pinned) ? this.pinned
        : id ? svg.querySelector(`[id="${CSS.escape(id)}"]`) : null;
      this.pinned = again;
      this.showDetail(again);
    } else {
      this.showDetail(null);
    }
  }

  /** The scale at which the smallest text among `els` (new parts of the board) is readable.
   * (Read from the style and the transforms alone: no layout in the middle of a redraw.) */
  neededFor(els) {
    let need = 0;
    for (const el of els) {
      for (const t of el.localName === "text" ? [el] : el.querySelectorAll("text")) {
        if (!t.textContent.trim()) continue;
        const size = parseFloat(getComputedStyle(t).fontSize) * scaleWithin(t, this.svg);
        if (size > 0) need = Math.max(need, 1.002 * READABLE_PX / size);
      }
    }
    return need;
  }

  /** The docked section's rectangle in board units, or null (measured once per section). */
  dockRect() {
    const sec = this.dockSection();
    if (!sec) return null;
    const d = this.dockCache();
    d.note(d.watch.takeRecords());
    if (d.sec !== sec || !d.rect || d.dirty.has(d.top(sec))) {
      const r = this.unitsOf(sec);
      // The same place as before: what was found to reach into it still does.
      if (!d.rect || ["x", "y", "w", "h"].some((k) => Math.abs(r[k] - d.rect[k]) > 0.01)) d.meets = new WeakMap();
      d.sec = sec;
      d.rect = r;
    }
    return d.rect.w > 0 && d.rect.h > 0 ? d.rect : null;
  }

  /** What the dock keeps between draws of one board: the section and its rectangle, which of
   * the board's top-level parts reach into it, their copies, and the parts changed since. */
  dockCache() {
    if (this.dock && this.dock.svg === this.svg) return this.dock;
    if (this.dock) this.dock.watch.disconnect();
    const d = { svg: this.svg, sec: null, rect: null, meets: new WeakMap(), copies: new WeakMap(),
      copy: null, dirty: new Set() };
    const top = (n) => {
      while (n && n.parentNode !== d.svg) n = n.parentNode;
      return n;
    };
    const note = (records) => {
      for (const r of records) {
        if (r.target === d.svg) {
          if (r.type === "attributes") d.copy = null;  // the board's own attributes: copy anew
          continue;  // (a top-level part added is new to the caches; one removed is not drawn)
        }
        const t = top(r.target);
        if (t) d.dirty.add(t);
      }
    };
    d.top = top;
    d.note = note;
    d.watch = new MutationObserver(note);
    d.watch.observe(d.svg, { subtree: true, childList: true, attributes: true, characterData: true });
    d.take = () => { note(d.watch.takeRecords()); const out = d.dirty; d.dirty = new Set(); return out; };
    this.dock = d;
    return d;
  }

  /** Where `el` lies on the board, in the board's own units: {x, y, w, h}. */
  unitsOf(el, at = this.svg.getBoundingClientRect()) {
    const r = el.getBoundingClientRect();
    const s = at.width / this.size[0] || 1;
    return { x: this.origin[0] + (r.left - at.left) / s, y: this.origin[1] + (r.top - at.top) / s,
      w: r.width / s, h: r.height / s };
  }

  dockSection() {
    if (!this.svg || !this.dockName || !this.dockBox || window.innerWidth <= 700) return null;
    return [...this.svg.querySelectorAll("[data-section]")].find((e) => e.dataset.section === this.dockName) || null;
  }

  /**
   * Bring the choosable targets into view: the box around them, centred when it fits, else
   * its top-left corner. Targets the dock already shows do not count while others exist.
   * Without `force`, nothing moves when some target is already in full view.
   */
  showTargets(force = false) {
    const b = this.box.getBoundingClientRect();
    let rects = this.targets.filter((el) => el.classList.contains("ns-target"))
      .map((el) => el.getBoundingClientRect()).filter((r) => r.width);
    const sec = this.dockSection();
    if (sec) {
      const d = sec.getBoundingClientRect();
      const rest = rects.filter((r) => !(r.top >= d.top - 1 && r.bottom <= d.bottom + 1
        && r.left >= d.left - 1 && r.right <= d.right + 1));
      if (rest.length) rects = rest;
      else if (rects.length) return;  // every choice is in the dock, which is in view
    }
    if (!rects.length) return;
    const seen = rects.some((r) => r.left >= b.left && r.right <= b.right && r.top >= b.top && r.bottom <= b.bottom);
    if (seen && !force) return;
    const left = Math.min(...rects.map((r) => r.left)), right = Math.max(...rects.map((r) => r.right));
    const top = Math.min(...rects.map((r) => r.top)), bottom = Math.max(...rects.map((r) => r.bottom));
    const w = right - left, hgt = bottom - top;
    const dx = w <= b.width - 16 ? left - b.left - (b.width - w) / 2 : left - b.left - 8;
    const dy = hgt <= b.height - 16 ? top - b.top - (b.height - hgt) / 2 : top - b.top - 8;
    this.box.scrollLeft += dx;
    this.box.scrollTop += dy;
  }

  // ---------------------------------------------------------------- the dock and the overview
  /** Draw the docked section again under the board (its own readable scale, capped height). */
  drawDock() {
    const box = this.dockBox, view = this.dockView;
    if (!box || !view) return;
    const r = this.dockRect();
    if (!r) {
      if (!box.hidden) { box.hidden = true; view.replaceChildren(); }
      document.body.classList.remove("docked");
      return;
    }
    if (box.hidden) box.hidden = false;
    document.body.classList.add("docked");
    const name = document.getElementById("dock-name");
    if (name && name.textContent !== this.dockName) name.textContent = this.dockName;
    this.paintDock();
  }

  /**
   * Copy the board's docked section into the dock (after every paint: the glow follows).
   * Only the board's top-level parts that reach into the section are copied, so the dock stays
   * light however large the board is, and the copy is kept from draw to draw: a part is copied
   * again only when it changed (a MutationObserver on the board says which), and measured only
   * when it is new or changed. Its url(#...) references resolve to the board's own
   * definitions, which are not copied: every id stays unique on the page.
   */
  paintDock() {
    const view = this.dockView;
    const r = this.dockRect();
    if (!view || !r || !this.svg) return;
    const d = this.dockCache();
    const dirty = d.take();
    const parts = [...this.svg.children].filter((c) => c.localName !== "defs");
    const unknown = parts.filter((c) => dirty.has(c) || !d.meets.has(c));
    if (unknown.length) {
      // (all measured together: one layout)
      const sec = d.sec.getBoundingClientRect();
      for (const c of unknown) {
        const q = c.getBoundingClientRect();
        d.meets.set(c, q.left < sec.right && q.right > sec.left && q.top < sec.bottom && q.bottom > sec.top);
      }
    }
    if (!d.copy) {
      d.copy = this.svg.cloneNode(false);
      d.copy.removeAttribute("id");
    }
    const copy = d.copy;
    const put = [];
    for (const c of parts) {
      if (!d.meets.get(c)) continue;
      let dup = dirty.has(c) ? null : d.copies.get(c);
      if (!dup) {
        dup = c.cloneNode(true);
        // Ids stay unique on the page: the copy's clickable parts point at the board's by data-ref.
        for (const el of [dup, ...dup.querySelectorAll("[id]")]) {
          if (!el.id) continue;
          el.dataset.ref = el.id;
          el.removeAttribute("id");
        }
        for (const el of [dup, ...dup.querySelectorAll("[tabindex], [role]")]) {
          el.removeAttribute("tabindex");
          el.removeAttribute("role");
        }
        d.copies.set(c, dup);
      }
      put.push(dup);
    }
    syncChildren(copy, put);
    const scale = this.scale || 1;
    const maxH = Math.max(110, window.innerHeight * DOCK_SHARE);
    const set = (el, prop, value) => { if (el.style[prop] !== value) el.style[prop] = value; };
    const box = `${r.x} ${r.y} ${r.w} ${r.h}`;
    if (copy.getAttribute("viewBox") !== box) copy.setAttribute("viewBox", box);
    set(copy, "width", `${r.w * scale}px`);
    set(copy, "height", `${r.h * scale}px`);
    set(view, "height", `${Math.min(r.h * scale + 2, maxH)}px`);
    if (view.firstChild !== copy || view.childNodes.length !== 1) {
      const keep = [view.scrollLeft, view.scrollTop];
      view.replaceChildren(copy);
      [view.scrollLeft, view.scrollTop] = keep;
    }
  }

  /** The overview: the board's outline, its sections, the glowing targets and the view. */
  drawOverview() {
    this.measureOverview()();
  }

  /**
   * Measure what the overview shows (reads only) and return what draws it (writes only), so
   * a redraw measures everything it needs before it changes anything: one layout.
   */
  measureOverview() {
    const ov = this.overview;
    if (!ov) return () => {};
    const b = this.box;
    const fits = !this.svg || (b.scrollWidth <= b.clientWidth + 2 && b.scrollHeight <= b.clientHeight + 2);
    const hidden = fits || window.innerWidth <= 700;
    if (hidden) return () => { ov.hidden = true; this.ovFits = true; };
    const [W, H] = this.size;
    const [ox, oy] = this.origin;
    const at = this.svg.getBoundingClientRect();
    const sections = [...this.svg.querySelectorAll("[data-section]")].map((sec) => this.unitsOf(sec, at));
    const glowing = this.targets.filter((t) => t.classList.contains("ns-target")).map((el) => this.unitsOf(el, at));
    const s = this.scale || 1;
    const view = [ox + b.scrollLeft / s, oy + b.scrollTop / s, b.clientWidth / s, b.clientHeight / s];
    return () => {
      ov.hidden = false;
      this.ovFits = false;
      const NS = "http://www.w3.org/2000/svg";
      const mk = (tag, attrs) => {
        const n = document.createElementNS(NS, tag);
        for (const [k, v] of Object.entries(attrs)) n.setAttribute(k, v);
        return n;
      };
      const map = mk("svg", { viewBox: `${ox} ${oy} ${W} ${H}`, preserveAspectRatio: "xMidYMid meet" });
      map.append(mk("rect", { x: ox, y: oy, width: W, height: H, class: "ov-board" }));
      for (const r of sections) map.append(mk("rect", { x: r.x, y: r.y, width: r.w, height: r.h, class: "ov-section" }));
      for (const r of glowing) {
        map.append(mk("rect", { x: r.x, y: r.y, width: Math.max(r.w, 10), height: Math.max(r.h, 10), class: "ov-target" }));
      }
      this.ovView = mk("rect", { class: "ov-view", x: view[0], y: view[1], width: view[2], height: view[3] });
      map.append(this.ovView);
      ov.replaceChildren(map);
      this.queuePlaceOverview();
    };
  }

  /** Place the overview after the next frame (its corner is measured on a laid-out page). */
  queuePlaceOverview() {
    if (this.ovQueued) return;
    this.ovQueued = true;
    requestAnimationFrame(() => { this.ovQueued = false; this.placeOverview(); });
  }

  /** Put the overview in a corner of the board where it covers no glowing target (none free:
   * it steps aside until the view moves). */
  placeOverview() {
    const ov = this.overview;
    if (!ov || !this.svg || this.ovFits) return;
    const glowing = this.targets.filter((t) => t.classList.contains("ns-target"))
      .map((t) => t.getBoundingClientRect()).filter((r) => r.width);
    const hits = (a) => glowing.some((r) => r.left < a.right && r.right > a.left && r.top < a.bottom && r.bottom > a.top);
    ov.style.visibility = "";
    for (const corner of ["br", "bl", "tr", "tl"]) {
      ov.dataset.corner = corner;
      if (!hits(ov.getBoundingClientRect())) return;
    }
    ov.style.visibility = "hidden";
  }

  /** Move the overview's frame with the board's scroll. */
  followOverview() {
    if (!this.ovView || !this.overview || this.overview.hidden) return;
    const s = this.scale || 1;
    const b = this.box;
    this.ovView.setAttribute("x", this.origin[0] + b.scrollLeft / s);
    this.ovView.setAttribute("y", this.origin[1] + b.scrollTop / s);
    this.ovView.setAttribute("width", b.clientWidth / s);
    this.ovView.setAttribute("height", b.clientHeight / s);
    this.queuePlaceOverview();
  }

  /** The width scale at which the whole board fits the container's width. */
  fitWidth() {
    const w = this.box.clientWidth - 2;
    return w > 0 ? w / this.size[0] : 1;
  }

  /** The scale whole board fits the container (width and height). */
  fitAll() {
    const h = this.box.clientHeight - 2;
    return Math.min(this.fitWidth(), h > 0 ? h / this.size[1] : Infinity);
  }

  /** Small screens and touch: targets must be big enough for a finger. */
  touchy() {
    return window.matchMedia("(pointer: coarse)").matches || window.innerWidth <= 700;
  }

  /**
   * The first scale: the board fills the width (up to MAX_FIT_SCALE), but never smaller than
   * the scale at which the smallest text is READABLE_PX and, on touch or small screens, every
   * target TAP_SEEN_PX across (its pad makes it TAP_PX to tap: padTargets).
   */
  neededScale() {
    const scroll = [this.box.scrollLeft, this.box.scrollTop];
    this.setSize(1);
    let minFont = Infinity;
    for (const t of this.svg.querySelectorAll("text")) {
      if (!t.textContent.trim()) continue;
      const r = t.getBoundingClientRect();
      if (!r.width || !r.height) continue;
      const size = parseFloat(getComputedStyle(t).fontSize) * screenScale(t);
      if (size > 0 && size < minFont) minFont = size;
    }
    const base = screenScale(this.svg) || 1;  // CSS px per unit at scale 1 (page zoom aside)
    // (a hair over: rounding must not leave the smallest text at 11.99 px)
    let need = Number.isFinite(minFont) ? 1.002 * READABLE_PX * base / minFont : 0;
    if (this.touchy()) {
      for (const el of this.targets) {
        const r = el.getBoundingClientRect();
        const side = Math.min(r.width, r.height);
        if (side > 0) need = Math.max(need, 1.002 * TAP_SEEN_PX * base / side);
      }
      // Room for the pads: no target's centre within half a pad (and a hair) of another's.
      const at = this.targets.map((el) => el.getBoundingClientRect()).filter((r) => r.width)
        .map((r) => [r.left + r.width / 2, r.top + r.height / 2]);
      for (let i = 0; i < at.length; i++) {
        for (let j = i + 1; j < at.length; j++) {
          const d = Math.max(Math.abs(at[i][0] - at[j][0]), Math.abs(at[i][1] - at[j][1]));
          if (d > 0.5) need = Math.max(need, (TAP_PX / 2 + 3) * base / d);
        }
      }
    }
    need = Math.min(need, MAX_AUTO_SCALE);
    const fit = Math.min(this.fitWidth(), MAX_FIT_SCALE);
    if (this.scale !== null) this.setSize(this.scale);
    [this.box.scrollLeft, this.box.scrollTop] = scroll;
    return Math.max(need, fit);
  }

  /**
   * On touch or small screens, a clear pad behind each glowing target drawn smaller than TAP_PX
   * makes it that big to tap (measured first, then all pads put in: one layout).
   */
  padTargets() {
    if (!this.svg) return;
    this.svg.querySelectorAll(".ns-pad").forEach((p) => p.remove());
    if (!this.touchy()) return;
    const pads = [];
    const glowing = (this.targets || []).filter((el) => el.classList.contains("ns-target"));
    const rects = glowing.map((el) => el.getBoundingClientRect());
    glowing.forEach((el, n) => {
      const r = rects[n];
      if (el.localName !== "g" || !r.width || Math.min(r.width, r.height) >= TAP_PX) return;
      const k = screenScale(el) || 1;  // CSS px per unit of the target's own space
      const b = el.getBBox();
      // Half the pad on screen, short of every other target's centre (a tap there is theirs).
      let half = 1.01 * TAP_PX / 2;
      const cx = r.left + r.width / 2, cy = r.top + r.height / 2;
      rects.forEach((q, m) => {
        if (m === n || !q.width) return;
        const d = Math.max(Math.abs(q.left + q.width / 2 - cx), Math.abs(q.top + q.height / 2 - cy));
        half = Math.min(half, d - 2);
      });
      const w = Math.max(b.width, 2 * half / k), h = Math.max(b.height, 2 * half / k);
      if (w > b.width || h > b.height) pads.push([el, b.x + b.width / 2 - w / 2, b.y + b.height / 2 - h / 2, w, h]);
    });
    for (const [el, x, y, w, h] of pads) {
      const pad = document.createElementNS("http://www.w3.org/2000/svg", "rect");
      for (const [a, v] of [["x", x], ["y", y], ["width", w], ["height", h]]) pad.setAttribute(a, v);
      pad.setAttribute("class", "ns-pad");
      pad.setAttribute("fill", "transparent");
      pad.setAttribute("data-ns-added", "");
      el.prepend(pad);
    }
  }

  setSize(scale) {
    this.svg.style.width = `${this.size[0] * scale}px`;
    this.svg.style.height = `${this.size[1] * scale}px`;
    const pct = this.tools && this.tools.querySelector(".zoom-level");
    if (pct) pct.textContent = `${Math.round(scale * 100)}%`;
  }

  /** Zoom to `scale`, keeping the board point under `anchor` (box pixels; default: centre). */
  apply(scale, anchor) {
    const box = this.box;
    const old = this.scale || scale;
    const [ax, ay] = anchor || [box.clientWidth / 2, box.clientHeight / 2];
    const ux = (box.scrollLeft + ax) / old;
    const uy = (box.scrollTop + ay) / old;
    this.setSize(scale);
    this.scale = scale;
    box.scrollLeft = ux * scale - ax;
    box.scrollTop = uy * scale - ay;
    this.padTargets();
  }

  zoomTo(scale, anchor) {
    if (!this.svg) return;
    this.user = true;
    this.apply(Math.max(0.1, Math.min(scale, 6)), anchor);
    this.drawOverview();
  }

  drawTools(sections) {
    const tools = this.tools;
    if (!tools) return;
    tools.hidden = !this.svg;
    if (!this.svg) return;
    const mk = (label, title, fn, cls = "", icon = "") => {
      const b = document.createElement("button");
      b.type = "button";
      b.className = cls;
      if (icon) {
        b.append(Object.assign(document.createElement("span"), { className: "icon", textContent: icon }),
          Object.assign(document.createElement("span"), { className: "long", textContent: label }));
        b.setAttribute("aria-label", title);
      } else {
        b.textContent = label;
      }
      b.title = title;
      b.addEventListener("click", fn);
      return b;
    };
    const jump = sections.map((el) => mk(el.dataset.section, `Show ${el.dataset.section}`,
      () => this.reveal(el.dataset.section), "section"));
    const level = document.createElement("span");
    level.className = "zoom-level";
    level.textContent = `${Math.round(this.scale * 100)}%`;
    tools.replaceChildren(
      Object.assign(document.createElement("span"), { className: "sections" }),
      Object.assign(document.createElement("span"), { className: "zoom" }));
    tools.firstChild.append(...jump);
    tools.lastChild.append(
      mk("−", "Zoom out", () => this.zoomTo(this.scale / 1.25), "zoom-out"),
      level,
      mk("+", "Zoom in", () => this.zoomTo(this.scale * 1.25), "zoom-in"),
      mk("Whole board", "Fit the whole board in view", () => this.zoomTo(this.fitAll()), "zoom-fit", "⤢"),
      mk("Readable", "Back to the readable size, framed on your choices", () => {
        this.user = false;
        this.apply(this.neededScale());
        this.showTargets(true);
        this.drawOverview();
      }, "zoom-reset", "Aa"));
  }

  /** Scroll so the section named `name` is in view, its top-left corner first. */
  reveal(name) {
    const el = this.svg && [...this.svg.querySelectorAll("[data-section]")].find((e) => e.dataset.section === name);
    if (!el) return;
    const r = el.getBoundingClientRect();
    const b = this.box.getBoundingClientRect();
    const left = this.box.scrollLeft + r.left - b.left - 6;
    const top = this.box.scrollTop + r.top - b.top - 6;
    const still = window.matchMedia("(prefers-reduced-motion: reduce)").matches;
    this.box.scrollTo({ left, top, behavior: still ? "auto" : "smooth" });
    this.showDetail(null);
  }

  /** The element whose detail a pointer over `node` shows: the nearest that names itself. */
  describedBy(node) {
    if (!this.svg || !node || !this.svg.contains(node)) return null;
    for (let el = node; el && el !== this.svg; el = el.parentNode) {
      if (el.nodeType !== 1) continue;
      if (el.dataset && (el.dataset.detail || el.dataset.name || el.dataset.label)) return el;
      if ([...el.children].some((c) => c.localName === "title")) return el;
    }
    return null;
  }

  showDetail(el) {
    const panel = this.detail;
    if (!panel) return;
    if (!el) {
      if (!panel.hidden || panel.firstChild) { panel.hidden = true; panel.replaceChildren(); }
      return;
    }
    const title = [...el.children].find((c) => c.localName === "title");
    const own = title && (title.getAttribute("data-ns-own") ?? (el.classList.contains("ns-target") ? "" : title.textContent));
    const name = el.dataset.name || el.dataset.label || own || "";
    const head = document.createElement("div");
    head.className = "detail-name";
    head.textContent = name || "";
    const body = document.createElement("div");
    body.className = "detail-body";
    const lines = (el.dataset.detail || "").split("\n").filter(Boolean);
    const cap = lines.length > DETAIL_LINES ? DETAIL_LINES - 1 : DETAIL_LINES;
    for (const line of lines.slice(0, cap)) {
      const d = document.createElement("div");
      d.textContent = line;
      body.append(d);
    }
    if (lines.length > cap) {
      const more = document.createElement("div");
      more.className = "detail-more";
      more.textContent = `… and ${lines.length - cap} more`;
      body.append(more);
    }
    panel.replaceChildren(head, body);
    if (el.classList.contains("ns-target") && title) {
      const act = document.createElement("div");
      act.className = "detail-act";
      const choices = title.textContent.split(" / ");
      act.textContent = choices.length > 3
        ? `Click: ${choices.length} choices here (${choices.slice(0, 2).join(" / ")} …)`
        : `Click to: ${title.textContent}`;
      panel.append(act);
    }
    panel.hidden = !name && !el.dataset.detail;
  }

  listen() {
    const box = this.box;
    box.addEventListener("scroll", () => this.followOverview(), { passive: true });
    // The arrow keys pan the board while it (not a target) has the focus; + and - zoom.
    box.addEventListener("keydown", (e) => {
      if (e.target !== box || e.altKey || e.ctrlKey || e.metaKey) return;
      const step = 80;
      const pan = { ArrowLeft: [-step, 0], ArrowRight: [step, 0], ArrowUp: [0, -step], ArrowDown: [0, step] }[e.key];
      if (pan) { e.preventDefault(); box.scrollLeft += pan[0]; box.scrollTop += pan[1]; return; }
      if (e.key === "+" || e.key === "=") { e.preventDefault(); this.zoomTo(this.scale * 1.25); }
      if (e.key === "-") { e.preventDefault(); this.zoomTo(this.scale / 1.25); }
    });
    // A click on the overview looks at that part of the board.
    this.overview?.addEventListener("click", (e) => {
      const r = this.overview.getBoundingClientRect();
      const [W, H] = this.size;
      const k = Math.min(r.width / W, r.height / H);
      const ux = (e.clientX - r.left - (r.width - W * k) / 2) / k;
      const uy = (e.clientY - r.top - (r.height - H * k) / 2) / k;
      const s = this.scale || 1;
      box.scrollLeft = ux * s - box.clientWidth / 2;
      box.scrollTop = uy * s - box.clientHeight / 2;
    });
    // A click in the dock acts on the board's own element of the same id.
    this.dockView?.addEventListener("click", (e) => {
      const el = e.target.closest && e.target.closest("[data-ref]");
      if (!el || !this.svg) return;
      const real = this.svg.querySelector(`[id="${CSS.escape(el.dataset.ref)}"]`);
      if (!real || !real.classList.contains("ns-target")) return;
      e.stopPropagation();
      real.dispatchEvent(new MouseEvent("click", { bubbles: true, cancelable: true, clientX: e.clientX, clientY: e.clientY }));
    });
    this.dockView?.addEventListener("pointerover", (e) => {
      if (e.pointerType === "touch" || !this.svg) return;
      const el = e.target.closest && e.target.closest("[data-ref]");
      const real = el && this.svg.querySelector(`[id="${CSS.escape(el.dataset.ref)}"]`);
      if (this.detail) this.detail.classList.add("right");
      this.showDetail(real ? this.describedBy(real) : null);
    });
    this.dockView?.addEventListener("pointerleave", () => { if (!this.pinned) this.showDetail(null); });
    // A tap anywhere off the board (or a scroll of the page) lets go of a pinned detail; a
    // pinned one also goes by itself after a while, so it never stays over the choices.
    document.addEventListener("pointerdown", (e) => {
      if (this.pinned && !box.contains(e.target)) { this.pinned = null; this.showDetail(null); }
    }, true);
    window.addEventListener("scroll", () => { if (this.pinned) { this.pinned = null; this.showDetail(null); } }, { passive: true });
    box.addEventListener("pointerover", (e) => {
      if (e.pointerType === "touch" || this.pinned) return;
      // The panel sits in the corner away from the pointer, so it hides nothing pointed at.
      const b = box.getBoundingClientRect();
      if (this.detail) this.detail.classList.toggle("right", e.clientX < b.left + b.width / 2);
      this.showDetail(this.describedBy(e.target));
    });
    box.addEventListener("pointerleave", (e) => {
      if (e.pointerType !== "touch" && !this.pinned) this.showDetail(null);
    });
    box.addEventListener("focusin", (e) => this.showDetail(this.describedBy(e.target)));
    // A tap on a part of the board pins its detail (a finger cannot hover); a tap on bare
    // sky clears it. A mouse shows details on hover and never pins.
    let touched = false;
    box.addEventListener("pointerdown", (e) => { touched = e.pointerType !== "mouse"; }, true);
    box.addEventListener("click", (e) => {
      if (this.dragged) { e.stopPropagation(); e.preventDefault(); this.dragged = false; return; }
      if (!touched) return;
      // A tap on a glowing target makes a choice: its detail is not pinned (it would stay over
      // the board drawn after the move, naming a choice already made).
      const acts = e.target.closest && e.target.closest(".ns-target");
      const el = acts ? null : this.describedBy(e.target);
      this.pinned = el;
      this.showDetail(el);
      clearTimeout(this.unpin);
      if (el) this.unpin = setTimeout(() => { if (this.pinned === el) { this.pinned = null; this.showDetail(null); } }, 4000);
    }, true);
    // Drag with the mouse to pan (touch pans natively: the board scrolls).
    let drag = null;
    box.addEventListener("pointerdown", (e) => {
      if (e.pointerType !== "mouse" || e.button !== 0 || !this.svg) return;
      drag = { x: e.clientX, y: e.clientY, left: box.scrollLeft, top: box.scrollTop, moved: false };
    });
    window.addEventListener("pointermove", (e) => {
      if (!drag) return;
      const dx = e.clientX - drag.x;
      const dy = e.clientY - drag.y;
      if (!drag.moved && Math.hypot(dx, dy) < 5) return;
      drag.moved = true;
      box.classList.add("panning");
      box.scrollLeft = drag.left - dx;
      box.scrollTop = drag.top - dy;
    });
    window.addEventListener("pointerup", () => {
      if (drag && drag.moved) this.dragged = true;  // the click that follows is no choice
      drag = null;
      box.classList.remove("panning");
      setTimeout(() => { this.dragged = false; }, 0);
    });
    // Ctrl+wheel (and a trackpad's pinch, which browsers send as one) zooms at the pointer.
    box.addEventListener("wheel", (e) => {
      if (!e.ctrlKey || !this.svg) return;
      e.preventDefault();
      const b = box.getBoundingClientRect();
      this.zoomTo(this.scale * Math.exp(-e.deltaY / 300), [e.clientX - b.left, e.clientY - b.top]);
    }, { passive: false });
    // Two fingers pinch-zoom the board (one finger pans it natively).
    let pinch = null;
    const dist = (t) => Math.hypot(t[0].clientX - t[1].clientX, t[0].clientY - t[1].clientY);
    box.addEventListener("touchstart", (e) => {
      if (e.touches.length === 2 && this.svg) pinch = { d: dist(e.touches), scale: this.scale };
    }, { passive: true });
    box.addEventListener("touchmove", (e) => {
      if (!pinch || e.touches.length !== 2) return;
      e.preventDefault();
      const b = box.getBoundingClientRect();
      const cx = (e.touches[0].clientX + e.touches[1].clientX) / 2 - b.left;
      const cy = (e.touches[0].clientY + e.touches[1].clientY) / 2 - b.top;
      this.zoomTo(pinch.scale * dist(e.touches) / pinch.d, [cx, cy]);
    }, { passive: false });
    box.addEventListener("touchend", () => { pinch = null; }, { passive: true });
  }
}
