// A rated table's end: each seat's rating before and after (the view's `rating`).
import { h } from "./api.js";

/** The end card's ratings box, or null on an unrated table. */
export function ratingBox(v) {
  const r = v.rating;
  if (!r || !r.rated) return null;
  if (r.unrated) return h("p", { class: "muted", id: "rating-changes" }, r.unrated);
  if (!r.changes) return h("p", { class: "muted", id: "rating-changes" }, "Rated game: the ratings change when it ends.");
  const name = (seat) => (v.seats[seat] && v.seats[seat].name) || `Seat ${seat + 1}`;
  return h("div", { class: "rating-changes", id: "rating-changes" },
    r.changes.map((c) => {
      const d = c.after - c.before;
      return h("div", { class: `rating-line ${d >= 0 ? "up" : "down"}`, "data-seat": c.seat },
        `${name(c.seat)}: rating ${c.before} → ${c.after} (${d >= 0 ? "+" : ""}${d})`);
    }),
    h("a", { class: "small", href: `/leaderboard/${v.game}` }, "Leaderboard"));
}
