"""Request and response bodies of the HTTP API (pydantic; they make the OpenAPI schema)."""

from __future__ import annotations

import unicodedata
from typing import Annotated, Any, Literal

from pydantic import AfterValidator, BaseModel, ConfigDict, Field

NAME_MAX = 40


def _plain_name(value: str) -> str:
    """A display name: no control or format characters (bidi overrides, zero widths)."""
    if any(unicodedata.category(c) in ("Cc", "Cf", "Cs", "Co", "Zl", "Zp") for c in value):
        raise ValueError("a name may not hold control characters")
    return value.strip()


Name = Annotated[str, Field(max_length=NAME_MAX), AfterValidator(_plain_name)]


class ErrorDetail(BaseModel):
    code: str = Field(description="Stable machine-readable code, e.g. `illegal_action`.")
    message: str
    retry_after: int | None = Field(None, description="Seconds to wait, with 429.")
    rule: str | None = Field(None, description="Rule id that refuses an action (422).")
    current_version: int | None = Field(None, description="With `stale_version` (409).")
    field: str | None = None


class ErrorBody(BaseModel):
    error: ErrorDetail


DAY = 86_400.0
Seconds = Annotated[float, Field(allow_inf_nan=False)]


class ClockRequest(BaseModel):
    """A table's clock. `realtime`: a bank per seat (`bank_seconds`, default 600) plus
    `increment_seconds` (default 0) when its turn ends; `turnbased`: `move_seconds` per turn
    (default one day); `untimed`: none. On timeout, or while a player is away, `bot:SPEC`
    plays the seat until its player takes it back; `forfeit` drops the seat where the rules
    allow it (else a greedy bot plays it)."""

    model_config = ConfigDict(extra="forbid")
    mode: Literal["untimed", "realtime", "turnbased"] = "untimed"
    bank_seconds: Seconds | None = Field(None, gt=0, le=30 * DAY)
    increment_seconds: Seconds | None = Field(None, ge=0, le=DAY)
    move_seconds: Seconds | None = Field(None, gt=0, le=60 * DAY)
    on_timeout: str | None = Field(
        None,
        max_length=200,
        pattern=r"^(forfeit|bot:.+)$",
        description="`bot:SPEC` (default `bot:greedy`) or `forfeit`.",
    )


class AwayRequest(BaseModel):
    model_config = ConfigDict(extra="forbid")
    away: bool = Field(description="true: a stand-in bot plays your seat; false: you are back.")


class CreateGame(BaseModel):
    """A new game: each seat is `human` or an agent spec (`random`, `greedy`, `mcts:...`)."""

    model_config = ConfigDict(extra="forbid")
    game: str = Field(max_length=64, examples=["shooting-star"])
    players: int | None = Field(None, ge=1, le=16)
    options: dict[str, Any] = Field(default_factory=dict)
    seats: list[Annotated[str, Field(max_length=200)]] = Field(
        min_length=1, max_length=16, examples=[["human", "greedy"]]
    )
    names: list[Name] | None = Field(None, max_length=16)
    seed: int | None = Field(
        None,
        ge=0,
        lt=2**62,
        description="Seed of chance and bots: only on a table with at most one human seat.",
    )
    listed: bool = Field(
        False,
        description="Show the table in the lobby: anyone may watch it there and take its free "
        "seats. Default: private, its invited seats taken only with their invite links.",
    )
    clock: ClockRequest | None = Field(None, description="Absent: untimed.")
    rated: bool = Field(
        False,
        description="A rated table: you must be signed in, every seat `human` and taken by a "
        "different signed-in account, and a clock set; the end changes the players' ratings.",
    )


class SeatToken(BaseModel):
    seat: int
    token: str = Field(description="Secret of this seat: send it as `Authorization: Bearer`.")
    invite: str = Field(description="Link that opens the game as this seat.")


class Invite(BaseModel):
    seat: int
    code: str = Field(description="One-time code: `POST /api/games/{id}/claim` spends it.")
    invite: str = Field(description="Link that claims this seat (`/g/{id}#invite=CODE`).")


class CreatedGame(BaseModel):
    id: str
    version: int
    tokens: list[SeatToken] = Field(description="The creator's own seat only.")
    invites: list[Invite] = Field(description="One per other human seat.")
    you: int | None = Field(description="The creator's seat (the first human seat).")


class ClaimRequest(BaseModel):
    model_config = ConfigDict(extra="forbid")
    invite: str = Field(max_length=100)
    name: Name | None = None


class RenewRequest(BaseModel):
    model_config = ConfigDict(extra="forbid")
    seat: int = Field(ge=0, le=64)


class Renewed(BaseModel):
    seat: int
    code: str
    invite: str


class ActionRequest(BaseModel):
    model_config = ConfigDict(extra="forbid")
    action: str = Field(max_length=200, description="The action's notation, from `legal`.")
    version: int = Field(
        ge=-(2**62), lt=2**62, description="The version of the view the action was chosen on."
    )


class UndoRequest(BaseModel):
    model_config = ConfigDict(extra="forbid")
    version: int = Field(ge=-(2**62), lt=2**62)


class JoinRequest(BaseModel):
    model_config = ConfigDict(extra="forbid")
    seat: int | None = Field(None, ge=0, le=64)
    name: Name | None = None


class Joined(BaseModel):
    seat: int
    token: str


class LegalChoice(BaseModel):
    action: str = Field(description="Notation to POST.")
    label: str
    targets: list[str] = Field(description="Ids of board SVG elements that choose it.")


class LogLine(BaseModel):
    n: int = Field(description="Line number for this viewer: 1, 2, ... without gaps.")
    index: int = Field(description="The history entry the line tells (several lines may).")
    seat: int = Field(description="-1 for chance.")
    text: str = Field(description="The entry in words, as this viewer may know it.")
    notation: str = Field(description="The entry's notation as this viewer may see it.")
    by: str | None = Field(
        None, description="`bot`: a stand-in bot made this move for the human seat; `forfeit`."
    )


class PublicSeat(BaseModel):
    seat: int
    kind: str = Field(description="human, bot, or game (a seat the rules play).")
    name: str
    spec: str | None
    joined: bool
    color: str = Field(description="The seat's one colour (#rrggbb), as the board draws it.")


class ScorePartModel(BaseModel):
    key: str = Field(description="Key of `breakdown`.")
    label: str = Field(description="The column in words.")
    points: bool = Field(description="False: a count shown beside the points, not in the total.")


class Notice(BaseModel):
    version: int
    text: str


class SeatClock(BaseModel):
    seat: int
    timed: bool = Field(description="False: this seat has no clock (a bot, an untimed table).")
    seconds_left: float | None = Field(
        description="Seconds left when the clock last started or stopped (`since`)."
    )
    running: bool
    since: str | None = Field(description="ISO time the clock started running.")
    deadline: str | None = Field(description="ISO time it runs out, while running.")
    standin: str | None = Field(
        description="`away`, `timeout` or `resigned`: a bot plays the seat now."
    )
    forfeited: bool
    resigned: bool = Field(False, description="Its player resigned: the seat lost.")


class Clocks(BaseModel):
    mode: str
    bank_seconds: float | None
    increment_seconds: float | None
    move_seconds: float | None
    on_timeout: str
    seats: list[SeatClock]


class SeatView(BaseModel):
    """Everything one seat (or a spectator) may see now."""

    id: str
    game: str
    title: str
    params: dict[str, Any]
    version: int
    seat: int | None = Field(description="Your seat; null for a spectator.")
    seats: list[PublicSeat]
    status: str = Field(description="playing or over.")
    current_players: list[int]
    terminal: bool
    view: dict[str, Any] = Field(description="The game's own view(seat).")
    view_labels: dict[str, str] = Field(
        default_factory=dict, description="Words for the view's keys (key or dotted path)."
    )
    text: str = Field(description="Plain-text drawing for this viewer.")
    svg: str | None = Field(description="Board SVG, clickable ids = targets; null if none.")
    legal: list[LegalChoice]
    log: list[LogLine]
    scores: list[float] | None
    breakdown: list[dict[str, float]] | None
    score_parts: list[ScorePartModel] | None = Field(description="The score table's columns.")
    winners: list[int]
    listed: bool = Field(description="Shown in the lobby; false: a private table.")
    can_undo: bool
    notices: list[Notice] = Field(description="What happened to the table besides moves.")
    clocks: Clocks | None = Field(None, description="The table's clocks and stand-in bots.")
    resigned: list[int] = Field(
        default_factory=list, description="Seats whose players resigned (they lost)."
    )
    ended: str | None = Field(
        None,
        description="`resigned`: the table ended by resignation before the rules' end "
        "(`terminal` is then true, `scores` null).",
    )
    resign_rule: str | None = Field(
        None, description="The game's rule id of its ruling on resigning, if it has one."
    )


class ReplayView(BaseModel):
    """What a seat (with its token) or a spectator saw after `step` entries of a finished
    game's record."""

    id: str
    game: str
    title: str
    step: int
    steps: int
    seat: int | None = Field(description="Whose view this is; null for a spectator.")
    seats: list[PublicSeat]
    current_players: list[int]
    terminal: bool
    view: dict[str, Any]
    text: str
    svg: str | None
    legal: list[LegalChoice]
    log: list[LogLine]
    scores: list[float] | None
    breakdown: list[dict[str, float]] | None
    score_parts: list[ScorePartModel] | None
    winners: list[int]


class LobbySeat(BaseModel):
    seat: int
    kind: str
    name: str
    joined: bool


class LobbyGame(BaseModel):
    id: str
    game: str
    title: str
    players: int | None
    status: str
    listed: bool = Field(description="Shown in the lobby (false: private, reached by its links).")
    open_seats: list[int] = Field(description="Free seats anyone may join (listed tables only).")
    free_seats: list[int] = Field(description="Human seats still waiting for their player.")
    version: int
    seats: list[LobbySeat]
    created_at: str


class Catalog(BaseModel):
    games: list[dict[str, Any]] = Field(description="Each game's info with its options.")
    agents: list[str]


class Metrics(BaseModel):
    moves: dict[str, int]
    latency_ms: dict[str, dict[str, float]]
    games_in_memory: int


class Health(BaseModel):
    """Liveness: the process answers."""

    status: Literal["ok"]


class Ready(BaseModel):
    """Readiness: whether the database answers."""

    status: Literal["ready", "unavailable"]
    database: Literal["ok", "unreachable"]
