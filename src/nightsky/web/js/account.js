// The account box of the page header: sign up, sign in, sign out; who is signed in. Optional:
// everything works signed out, by invite links and seat tokens, exactly as before accounts.
// The session is an HttpOnly cookie this script never sees; the CSRF token every change must
// carry is kept in localStorage (api.js sends it) and refreshed from GET /api/account.
import { api, CSRF_KEY, h, rememberSeat, toast } from "./api.js";

let current = null;           // {name, display_name, member_since, is_admin} or null
let asked = null;             // the pending GET /api/account
const listeners = [];

function keep(me) {
  current = me.account;
  if (me.csrf) localStorage.setItem(CSRF_KEY, me.csrf); else localStorage.removeItem(CSRF_KEY);
  for (const f of listeners) f(current);
  return current;
}

/** The signed-in account (null: nobody), asked once per page. */
export function whoami() {
  if (!asked) asked = api("/api/account").then(keep).catch(() => keep({ account: null }));
  return asked;
}

export function onAccount(f) { listeners.push(f); }

/** The account's games on any device: [{id, seat, known, ...}] ([] when signed out). */
export async function accountGames() {
  if (!(await whoami())) return [];
  try { return (await api("/api/account/games")).games; } catch { return []; }
}

/** Play the account's seat at `gid` from this browser: a fresh token, kept like any seat's. */
export async function takeAccountSeat(gid, info = {}) {
  const r = await api(`/api/games/${gid}/seat`, { method: "POST" });
  rememberSeat(gid, { ...info, token: r.token, seat: r.seat });
  return r;
}

// ------------------------------------------------------------------ passkeys (WebAuthn)
const b64 = {
  toBytes(s) {
    const bin = atob(s.replace(/-/g, "+").replace(/_/g, "/") + "===".slice((s.length + 3) % 4));
    return Uint8Array.from(bin, (c) => c.charCodeAt(0));
  },
  of(buf) {
    let bin = "";
    for (const b of new Uint8Array(buf)) bin += String.fromCharCode(b);
    return btoa(bin).replace(/\+/g, "-").replace(/\//g, "_").replace(/=+$/, "");
  },
};

export const passkeysAvailable = () => typeof window.PublicKeyCredential === "function";

function credentialJSON(c) {
  if (typeof c.toJSON === "function") return c.toJSON();
  const r = c.response, out = { id: c.id, rawId: b64.of(c.rawId), type: c.type, response: {
    clientDataJSON: b64.of(r.clientDataJSON) } };
  if (r.attestationObject) out.response.attestationObject = b64.of(r.attestationObject);
  if (r.authenticatorData) out.response.authenticatorData = b64.of(r.authenticatorData);
  if (r.signature) out.response.signature = b64.of(r.signature);
  if (r.userHandle) out.response.userHandle = b64.of(r.userHandle);
  return out;
}

function creationOptions(o) {
  if (PublicKeyCredential.parseCreationOptionsFromJSON) return PublicKeyCredential.parseCreationOptionsFromJSON(o);
  return { ...o, challenge: b64.toBytes(o.challenge), user: { ...o.user, id: b64.toBytes(o.user.id) },
    excludeCredentials: (o.excludeCredentials || []).map((c) => ({ ...c, id: b64.toBytes(c.id) })) };
}

function requestOptions(o) {
  if (PublicKeyCredential.parseRequestOptionsFromJSON) return PublicKeyCredential.parseRequestOptionsFromJSON(o);
  return { ...o, challenge: b64.toBytes(o.challenge),
    allowCredentials: (o.allowCredentials || []).map((c) => ({ ...c, id: b64.toBytes(c.id) })) };
}

/** Add a passkey to the signed-in account (this device's authenticator). */
export async function addPasskey() {
  const start = await api("/api/account/passkeys/options", { method: "POST" });
  const cred = await navigator.credentials.create({ publicKey: creationOptions(JSON.parse(start.options)) });
  return api("/api/account/passkeys", { method: "POST",
    body: { challenge_id: start.challenge_id, credential: credentialJSON(cred) } });
}

async function passkeySignIn(form) {
  const note = form.querySelector(".account-note");
  try {
    const start = await api("/api/account/passkey/options", { method: "POST" });
    const cred = await navigator.credentials.get({ publicKey: requestOptions(JSON.parse(start.options)) });
    keep(await api("/api/account/passkey/signin", { method: "POST",
      body: { challenge_id: start.challenge_id, credential: credentialJSON(cred) } }));
    asked = Promise.resolve(current);
    form.closest("dialog").close();
    toast(`Signed in as ${current.name}.`, "info");
  } catch (e) { note.textContent = e.message || "The passkey did not work."; }
}

async function submit(kind, form) {
  const body = { name: form.elements.name.value.trim(), password: form.elements.password.value };
  const note = form.querySelector(".account-note");
  try {
    keep(await api(`/api/account/${kind}`, { method: "POST", body }));
    asked = Promise.resolve(current);
    form.closest("dialog").close();
    toast(kind === "signup" ? `Welcome, ${current.display_name}!` : `Signed in as ${current.name}.`, "info");
  } catch (e) {
    note.textContent = e.status === 429 ? e.message : e.message || "That did not work.";
  }
}

function dialog() {
  const form = h("form", { class: "account-form", method: "dialog", autocomplete: "on" },
    h("h2", {}, "Your account"),
    h("p", { class: "muted small" }, "Optional: with an account your games follow you to every device."),
    h("label", {}, "User name ", h("input", { name: "name", id: "account-name", required: true,
      minlength: 2, maxlength: 32, autocomplete: "username", pattern: "[A-Za-z0-9][A-Za-z0-9_.\\-]+" })),
    h("label", {}, "Password ", h("input", { name: "password", id: "account-password", type: "password",
      required: true, minlength: 8, maxlength: 256, autocomplete: "current-password" })),
    h("p", { class: "account-note small", role: "alert" }),
    h("div", { class: "row" },
      h("button", { type: "submit", class: "primary", id: "account-signin", value: "signin" }, "Sign in"),
      h("button", { type: "submit", id: "account-signup", value: "signup" }, "Sign up"),
      h("button", { type: "button", class: "ghost", onclick: () => box.close() }, "Cancel")),
    passkeysAvailable() ? h("button", { type: "button", class: "ghost small", id: "account-passkey",
      onclick: () => passkeySignIn(form) }, "Sign in with a passkey") : null);
  form.addEventListener("submit", (e) => {
    e.preventDefault();
    submit(e.submitter && e.submitter.value === "signup" ? "signup" : "signin", form);
  });
  const box = h("dialog", { class: "account-dialog", id: "account-dialog" }, form);
  document.body.append(box);
  return box;
}

async function signOut() {
  try { keep(await api("/api/account/signout", { method: "POST" })); } catch (e) { toast(e.message); }
  asked = Promise.resolve(null);
}

function draw(slot, box) {
  if (current) {
    slot.replaceChildren(
      h("a", { class: "crumb", href: `/u/${encodeURIComponent(current.name)}`, id: "account-me" },
        current.display_name),
      h("button", { type: "button", class: "ghost small", id: "account-signout", onclick: signOut }, "Sign out"));
  } else {
    slot.replaceChildren(h("button", { type: "button", class: "small", id: "account-open",
      onclick: () => box.showModal() }, "Sign in"));
  }
}

/** Fill the header's `#account` slot (if the page has one). */
export async function mountAccount() {
  const slot = document.getElementById("account");
  if (!slot) return;
  const box = dialog();
  onAccount(() => draw(slot, box));
  await whoami();
  draw(slot, box);
}

mountAccount();
