"""How errors are answered: every error body is ``{"error": {"code", "message", ...}}`` with a
stable code (``ServerError``; validation errors name their ``field``; malformed JSON is 400;
anything unexpected is a logged 500 that says nothing more)."""

from __future__ import annotations

import logging

from fastapi import FastAPI, Request
from fastapi.exceptions import RequestValidationError
from fastapi.responses import JSONResponse
from starlette.exceptions import HTTPException as StarletteHTTPException

from nightsky.server.rooms import ServerError

log = logging.getLogger("nightsky.server")

BODY_PARSE_FAILED = "There was an error parsing the body"  # FastAPI's words (deep nesting)


async def _server_error(_: Request, exc: ServerError) -> JSONResponse:
    headers: dict[str, str] = {}
    if exc.status == 429:
        headers["retry-after"] = str(exc.extra["retry_after"])
    elif exc.status == 401:
        # RFC 6750: a request without credentials gets the bare challenge, a wrong token
        # the error code.
        bad = exc.code == "bad_token"
        headers["www-authenticate"] = 'Bearer error="invalid_token"' if bad else "Bearer"
    return JSONResponse(exc.body(), status_code=exc.status, headers=headers or None)

async def _invalid(_: Request, exc: RequestValidationError) -> JSONResponse:
    errs = exc.errors()
    if any(e.get("type") == "json_invalid" for e in errs):
        return JSONResponse(
            {"error": {"code": "malformed_json", "message": "the body is not valid JSON"}}, 400
        )
    first = errs[0] if errs else {}
    where = ".".join(str(p) for p in first.get("loc", ()) if p != "body")
    return JSONResponse(
        {
            "error": {
                "code": "validation_error",
                "field": where or None,
                "message": f"{where or 'request'}: {first.get('msg')}",
            }
        },
        422,
    )

async def _http(_: Request, exc: StarletteHTTPException) -> JSONResponse:
    if exc.status_code == 400 and exc.detail == BODY_PARSE_FAILED:
        # json.loads gave up (30,000 nested brackets, a 5,000-digit number): not JSON
        # this server reads.
        msg = "the body is not JSON this server reads (too deeply nested or too large)"
        return JSONResponse({"error": {"code": "malformed_json", "message": msg}}, 400)
    code = {404: "not_found", 405: "method_not_allowed"}.get(exc.status_code, "http_error")
    return JSONResponse({"error": {"code": code, "message": str(exc.detail)}}, exc.status_code)

async def _bug(_: Request, exc: Exception) -> JSONResponse:
    log.exception("unexpected error", exc_info=exc)
    body = {"error": {"code": "internal_error", "message": "the server failed; try again"}}
    return JSONResponse(body, 500)


def install_handlers(app: FastAPI) -> None:
    """Answer every error of ``app`` in this API's error body."""
    app.add_exception_handler(ServerError, _server_error)  # type: ignore[arg-type]
    app.add_exception_handler(RequestValidationError, _invalid)  # type: ignore[arg-type]
    app.add_exception_handler(StarletteHTTPException, _http)  # type: ignore[arg-type]
    app.add_exception_handler(Exception, _bug)
