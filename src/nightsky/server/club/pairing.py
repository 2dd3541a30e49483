"""Tournament pairing and standings, free of the database and of any game.

A tournament's history is its list of ``Result``: one per table (the players in seat order and
the place each took) or per bye. Points per game are the share of the other players a player
finished ahead of (a tie counts half): 1, 1/2 or 0 in a duel; a bye is worth a full point.

- **Round robin** (two-player tables): the circle method, every player meets every other once
  (``rounds_needed``: n - 1 rounds, n with an odd count, one bye a round).
- **Swiss** (any table size): players sorted by points, then tie-breaks, then their entry
  order; each table is filled from the top of that list with the players who met the table's
  players least, searching (backtracking, for duels) for a round without repeat pairings
  whenever one exists. With a player count that is not a multiple of the table size, the
  lowest-placed players who had no bye yet get one.

Tie-breaks: **Buchholz** (the sum of the opponents' points; at a multi-player table, the mean
of that table's opponents) and **Sonneborn-Berger** (the sum, per game, of the points earned
times the opponents' mean points: in a duel, the points of the players beaten plus half of
those drawn).
"""

from __future__ import annotations

from collections import Counter, defaultdict
from collections.abc import Sequence
from dataclasses import dataclass, field
from itertools import combinations

KINDS = ("swiss", "round-robin")


@dataclass(frozen=True)
class Result:
    """One table of a round (players in seat order, each one's place, 1 = best; ties
    share a place), or a bye (one player, ``bye=True``)."""

    round: int
    players: tuple[int, ...]
    places: tuple[int, ...]
    bye: bool = False


@dataclass(frozen=True)
class Pairing:
    """One round: the tables (players in seat order) and who sits out with a bye."""

    tables: list[tuple[int, ...]]
    byes: list[int] = field(default_factory=list)


@dataclass(frozen=True)
class Standing:
    player: int
    points: float
    buchholz: float
    sonneborn_berger: float
    games: int
    byes: int


def game_points(places: Sequence[int]) -> list[float]:
    """Each seat's points for one game: the share of the others it finished ahead of."""
    n = len(places)
    if n < 2:
        return [1.0] * n
    return [
        sum(1.0 if p < q else 0.5 if p == q else 0.0 for j, q in enumerate(places) if j != i)
        / (n - 1)
        for i, p in enumerate(places)
    ]


def scores(results: Sequence[Result]) -> defaultdict[int, float]:
    """Every player's points so far."""
    out: defaultdict[int, float] = defaultdict(float)
    for r in results:
        for p, pts in zip(r.players, game_points(r.places), strict=True):
            out[p] += pts
    return out


def standings(players: Sequence[int], results: Sequence[Result]) -> list[Standing]:
    """The table of the tournament, best first: points, Buchholz, Sonneborn-Berger, then
    entry order."""
    pts = scores(results)
    buch: defaultdict[int, float] = defaultdict(float)
    sb: defaultdict[int, float] = defaultdict(float)
    games: Counter[int] = Counter()
    byes: Counter[int] = Counter()
    for r in results:
        if r.bye:
            byes[r.players[0]] += 1
            continue
        earned = game_points(r.places)
        for i, p in enumerate(r.players):
            others = [q for q in r.players if q != p]
            mean = sum(pts[q] for q in others) / len(others)
            buch[p] += mean
            sb[p] += earned[i] * mean
            games[p] += 1
    rows = [
        Standing(p, pts[p], round(buch[p], 6), round(sb[p], 6), games[p], byes[p])
        for p in players
    ]
    entry = {p: i for i, p in enumerate(players)}
    rows.sort(key=lambda s: (-s.points, -s.buchholz, -s.sonneborn_berger, entry[s.player]))
    return rows


def rounds_needed(kind: str, players: int) -> int:
    """Rounds of a round robin of ``players`` (Swiss: the organiser chooses)."""
    if kind != "round-robin":
        raise ValueError(f"kind: only a round robin has a fixed round count, not {kind!r}")
    return players - 1 if players % 2 == 0 else players


def pair_round_robin(players: Sequence[int], round_no: int) -> Pairing:
    """Round ``round_no`` (1-based) of a two-player round robin by the circle method."""
    ring: list[int | None] = list(players)
    if len(ring) % 2:
        ring.append(None)
    n = len(ring)
    if not 1 <= round_no <= n - 1:
        raise ValueError(f"round: a round robin of {len(players)} has rounds 1..{n - 1}")
    r = round_no - 1
    rotated = [ring[0], *(ring[1:][-r:] + ring[1:][:-r] if r else ring[1:])]
    tables: list[tuple[int, ...]] = []
    byes: list[int] = []
    for i in range(n // 2):
        a, b = rotated[i], rotated[n - 1 - i]
        if a is None or b is None:
            byes.append(a if b is None else b)  # type: ignore[arg-type]
            continue
        # alternate who sits first, so each player starts about half of their games
        tables.append((a, b) if (r + i) % 2 == 0 else (b, a))
    return Pairing(tables, byes)


def meetings(results: Sequence[Result]) -> Counter[frozenset[int]]:
    """How often each pair of players shared a table."""
    out: Counter[frozenset[int]] = Counter()
    for r in results:
        if not r.bye:
            for a, b in combinations(r.players, 2):
                out[frozenset((a, b))] += 1
    return out


def pair_swiss(players: Sequence[int], results: Sequence[Result], table_size: int) -> Pairing:
    """The next Swiss round for tables of ``table_size`` (see the module's doc)."""
    if table_size < 2:
        raise ValueError("table_size: a table seats at least 2 players")
    order = [s.player for s in standings(players, results)]
    had_bye = {r.players[0] for r in results if r.bye}
    byes: list[int] = []
    for _ in range(len(order) % table_size):
        # the lowest-placed player without a bye yet (everyone had one: the lowest)
        pick = next((p for p in reversed(order) if p not in had_bye), order[-1])
        order.remove(pick)
        byes.append(pick)
    met = meetings(results)
    if table_size == 2:
        pairs = _pair_duels(order, met, repeats=0) or _pair_duels(order, met, repeats=None)
        assert pairs is not None
        tables = [_seat_order(t, results) for t in pairs]
    else:
        tables = [_seat_order(t, results) for t in _fill_tables(order, met, table_size)]
    return Pairing(tables, byes)


def _pair_duels(
    order: list[int], met: Counter[frozenset[int]], repeats: int | None
) -> list[tuple[int, int]] | None:
    """Pairs from the top of ``order`` down, each player with the highest-placed opponent
    allowed (met at most ``repeats`` times; None: any, fewest meetings first), backtracking
    when the rest cannot be paired. None: no such pairing."""
    if not order:
        return []
    top, rest = order[0], order[1:]
    candidates = rest
    if repeats is None:
        candidates = sorted(rest, key=lambda q: met[frozenset((top, q))])
    for q in candidates:
        if repeats is not None and met[frozenset((top, q))] > repeats:
            continue
        tail = _pair_duels([x for x in rest if x != q], met, repeats)
        if tail is not None:
            return [(top, q), *tail]
        if repeats is None:
            break  # any pairing of the rest works when repeats are allowed
    return None


def _fill_tables(
    order: list[int], met: Counter[frozenset[int]], size: int
) -> list[tuple[int, ...]]:
    """Multi-player tables: each from the best-placed free player, adding the free players
    who met the table's players least (ties: the better placed)."""
    free, tables = list(order), []
    while free:
        table = [free.pop(0)]
        while len(table) < size:
            best = min(
                free, key=lambda q: (sum(met[frozenset((q, t))] for t in table), free.index(q))
            )
            free.remove(best)
            table.append(best)
        tables.append(tuple(table))
    return tables


def _seat_order(table: Sequence[int], results: Sequence[Result]) -> tuple[int, ...]:
    """The players of a table in seat order: whoever sat first least often sits first."""
    firsts = Counter(r.players[0] for r in results if not r.bye)
    entry = {p: i for i, p in enumerate(table)}
    return tuple(sorted(table, key=lambda p: (firsts[p], entry[p])))
