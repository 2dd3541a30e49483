// The games page's invitations: seats friends invited this account to (signed in only).
import { api } from "./api.js";
import { invitationItems } from "./club.js";

const box = document.getElementById("club-invitations");

async function load() {
  try {
    const f = await api("/api/friends");
    box.replaceChildren(...invitationItems(f.invitations, load));
    box.closest(".panel").hidden = false;
  } catch { /* signed out: no panel */ }
}

if (box) { load(); setInterval(load, 10000); }
