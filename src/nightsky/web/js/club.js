// What the club's pages share: posting a change (errors shown), and the seat invitations a
// signed-in player was sent (accepting one takes the seat: its token is kept here, no link).
import { api, h, rememberSeat, toast } from "./api.js";

export async function act(path, body) {
  try { return await api(path, { method: "POST", body }); } catch (e) { toast(e.message); throw e; }
}

export function item(text, ...buttons) {
  return h("div", { class: "lobby-item" }, h("div", {}, text), h("div", { class: "row" }, ...buttons));
}

async function takeSeat(inv) {
  const r = await act(`/api/invitations/${inv.id}/accept`);
  rememberSeat(r.game_id, { token: r.token, seat: r.seat, game: inv.game });
  location.href = `/g/${r.game_id}`;
}

/** The invitations as rows with Accept and Decline (``reload`` after a decline). */
export function invitationItems(invitations, reload) {
  const rows = invitations.map((inv) => item(
    `${inv.from} invites you to seat ${inv.seat + 1} of a ${inv.rated ? "rated " : ""}${inv.game} table`,
    h("button", { class: "primary", type: "button", "data-invite": inv.id, onclick: () => takeSeat(inv) }, "Accept"),
    h("button", { type: "button", onclick: async () => { await act(`/api/invitations/${inv.id}/decline`); reload(); } }, "Decline")));
  return rows.length ? rows : [h("div", { class: "empty" }, "No invitations.")];
}
