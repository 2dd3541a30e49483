"""Passkeys (issue 53 item 1): WebAuthn registration and authentication ceremonies against a
software authenticator (a P-256 key, "none" attestation, made here byte by byte as the
WebAuthn spec lays them out), challenges kept on the server and used once, the origin and the
signature checked."""

from __future__ import annotations

import hashlib
import json
import os
import struct
from typing import Any

from cryptography.hazmat.primitives import hashes
from cryptography.hazmat.primitives.asymmetric import ec
from webauthn.helpers import bytes_to_base64url as b64

from tests.server.test_accounts import csrf, second, sign_up

ORIGIN = "http://testserver"  # the TestClient's base URL: the relying party is "testserver"


def sha256(data: bytes) -> bytes:
    return hashlib.sha256(data).digest()


class SoftAuthenticator:
    """One passkey on a pretend security key."""

    def __init__(self) -> None:
        self.key = ec.generate_private_key(ec.SECP256R1())
        self.cred_id = os.urandom(16)
        self.count = 0

    def _cose(self) -> bytes:
        import cbor2

        n = self.key.public_key().public_numbers()
        return cbor2.dumps({1: 2, 3: -7, -1: 1, -2: n.x.to_bytes(32, "big"),
                            -3: n.y.to_bytes(32, "big")})

    def create(self, options: dict[str, Any], origin: str = ORIGIN) -> dict[str, Any]:
        import cbor2

        client = json.dumps({"type": "webauthn.create", "challenge": options["challenge"],
                             "origin": origin, "crossOrigin": False}).encode()
        flags = 0x01 | 0x04 | 0x40  # user present, user verified, attested credential data
        auth = (sha256(options["rp"]["id"].encode()) + bytes([flags]) + struct.pack(">I", 0)
                + bytes(16) + struct.pack(">H", len(self.cred_id)) + self.cred_id + self._cose())
        att = cbor2.dumps({"fmt": "none", "attStmt": {}, "authData": auth})
        return {"id": b64(self.cred_id), "rawId": b64(self.cred_id), "type": "public-key",
                "response": {"clientDataJSON": b64(client), "attestationObject": b64(att)}}

    def get(self, options: dict[str, Any], origin: str = ORIGIN,
            key: ec.EllipticCurvePrivateKey | None = None) -> dict[str, Any]:
        self.count += 1
        client = json.dumps({"type": "webauthn.get", "challenge": options["challenge"],
                             "origin": origin, "crossOrigin": False}).encode()
        auth = sha256(options["rpId"].encode()) + bytes([0x05]) + struct.pack(">I", self.count)
        sig = (key or self.key).sign(auth + sha256(client), ec.ECDSA(hashes.SHA256()))
        return {"id": b64(self.cred_id), "rawId": b64(self.cred_id), "type": "public-key",
                "response": {"clientDataJSON": b64(client), "authenticatorData": b64(auth),
                             "signature": b64(sig)}}


def register(client, token: str, device: SoftAuthenticator) -> Any:
    r = client.post("/api/account/passkeys/options", headers=csrf(token))
    assert r.status_code == 200, r.text
    options = json.loads(r.json()["options"])
    assert options["rp"]["id"] == "testserver" and options["user"]["name"] == "Ada"
    return client.post("/api/account/passkeys", headers=csrf(token), json={
        "challenge_id": r.json()["challenge_id"], "credential": device.create(options)})


def begin_sign_in(client) -> tuple[str, dict[str, Any]]:
    r = client.post("/api/account/passkey/options")
    assert r.status_code == 200, r.text
    return r.json()["challenge_id"], json.loads(r.json()["options"])


def test_register_a_passkey_then_sign_in_with_it_on_another_device(client):
    token = sign_up(client)
    device = SoftAuthenticator()
    r = register(client, token, device)
    assert r.status_code == 201 and r.json() == {"passkeys": 1}
    phone = second(client)
    cid, options = begin_sign_in(phone)
    r = phone.post("/api/account/passkey/signin",
                   json={"challenge_id": cid, "credential": device.get(options)})
    assert r.status_code == 200, r.text
    assert r.json()["account"]["name"] == "Ada" and r.json()["csrf"]
    assert phone.get("/api/account").json()["account"]["name"] == "Ada"
    # the same passkey again is refused (the options exclude it, the server too)
    r = register(client, token, device)
    assert r.status_code == 409 and r.json()["error"]["code"] == "passkey_known"


def test_passkey_ceremonies_refuse_replays_forgeries_and_other_origins(client):
    token = sign_up(client)
    device = SoftAuthenticator()
    assert register(client, token, device).status_code == 201
    anon = second(client)
    # registering needs the session's CSRF token
    assert client.post("/api/account/passkeys/options").status_code == 403
    # a signature by another key
    cid, options = begin_sign_in(anon)
    forged = device.get(options, key=ec.generate_private_key(ec.SECP256R1()))
    r = anon.post("/api/account/passkey/signin", json={"challenge_id": cid, "credential": forged})
    assert r.status_code == 401 and r.json()["error"]["code"] == "bad_credentials"
    # the challenge was used up by that try: a good answer to it is refused too
    r = anon.post("/api/account/passkey/signin",
                  json={"challenge_id": cid, "credential": device.get(options)})
    assert r.status_code == 400 and r.json()["error"]["code"] == "bad_challenge"
    # an answer made on a phishing site's page (another origin)
    cid, options = begin_sign_in(anon)
    r = anon.post("/api/account/passkey/signin", json={
        "challenge_id": cid, "credential": device.get(options, origin="https://evil.example")})
    assert r.status_code == 401
    # a passkey this server never registered
    cid, options = begin_sign_in(anon)
    r = anon.post("/api/account/passkey/signin",
                  json={"challenge_id": cid, "credential": SoftAuthenticator().get(options)})
    assert r.status_code == 401
    # a made-up ceremony id
    r = anon.post("/api/account/passkey/signin",
                  json={"challenge_id": "nope", "credential": device.get(options)})
    assert r.status_code == 400
    assert anon.get("/api/account").json()["account"] is None
