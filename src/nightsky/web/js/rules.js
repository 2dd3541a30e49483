// Rules at hand on the game page: links to the game's rules and tutorials, and the text of
// the rule a refused choice names (from the catalogue, /api/catalog/{game}/rules), with a
// link to it on the rules page. Nothing here knows any game.
import { api, h } from "./api.js";

const $ = (id) => document.getElementById(id);
const RULE_ID = /\b[A-Z]{1,5}-\d+(?:\.\d+)+[a-z]?\b/g;
const catalogues = new Map();  // game id -> Promise<{id: text}>
let linked = null;

const rulesUrl = (game, id) => `/games/${encodeURIComponent(game)}/rules${id ? `#${id}` : ""}`;

/** The game's rule catalogue ({} when it has none or it cannot be fetched). */
export function catalogue(game) {
  if (!catalogues.has(game)) {
    catalogues.set(game, api(`/api/catalog/${encodeURIComponent(game)}/rules`).catch(() => ({})));
  }
  return catalogues.get(game);
}

/** Point the page's rule links (the header's, the log's) at `game`. */
export function linkRules(game) {
  if (!game || linked === game) return;
  linked = game;
  const about = `/games/${encodeURIComponent(game)}`;
  const head = $("rules-link");
  if (head) { head.href = rulesUrl(game); head.hidden = false; }
  const box = $("rule-links");
  if (box) {
    box.replaceChildren(
      h("a", { href: rulesUrl(game), target: "_blank", rel: "noopener" }, "Rules"),
      h("a", { href: `${about}/how-to-play`, target: "_blank", rel: "noopener" }, "How to play"),
      h("a", { href: `${about}#tutorials`, target: "_blank", rel: "noopener" }, "Tutorials"),
      h("a", { href: about, target: "_blank", rel: "noopener" }, "About"));
    box.hidden = false;
  }
}

/** The rule ids an API error names: its `rule` field first, then those in its message. */
export function ruleIds(err) {
  const ids = [err.rule, ...((err.message || "").match(RULE_ID) || [])].filter(Boolean);
  return [...new Set(ids)];
}

/** Show the rule a refused choice names, beside the choices. True when one was shown. */
export async function explainRefusal(game, err) {
  const ids = ruleIds(err);
  if (!game || !ids.length) return false;
  const rules = await catalogue(game);
  const id = ids.find((x) => rules[x]);
  const box = $("rule-note");
  if (!id || !box) return false;
  box.replaceChildren(
    h("div", { class: "rule-head" }, h("span", {}, `Refused: ${err.message}`),
      h("button", { type: "button", class: "ghost", "aria-label": "Close the rule", onclick: clearRefusal }, "✕")),
    h("div", { class: "rule-text", "data-rule": id }, h("b", {}, id), rules[id]),
    h("a", { href: rulesUrl(game, id), target: "_blank", rel: "noopener", class: "rule-anchor" },
      `Read ${id} in the rules →`));
  box.hidden = false;
  return true;
}

export function clearRefusal() {
  const box = $("rule-note");
  if (box) { box.hidden = true; box.replaceChildren(); }
}
