"""The vector env's per-game loops, compiled with the engine (``setup.py``, ``COMPILED``).

``nightsky.rl.vector`` keeps the Gymnasium side (numpy batches, infos, seeds); the work done
once per game and step is here, in plain Python over the game contract (no numpy, no
Gymnasium: this module imports with the engine alone), so mypyc turns it into calls between
compiled classes instead of interpreted frames:

* ``advance``: chance events and the other seats' moves until the learner acts;
* ``step_games``: the learner's action in every game, then ``advance``, then the reward;
* ``write_rows``: every game's observation (``Observer.observation_into``, or
  ``update_into`` on rows kept from the last step) into its row of the batch, and its legal
  ids into its row of the mask batch.

The state is the caller's (lists of states, agents, random streams, rewarders): nothing here
keeps any, so the env pickles and copies as before.
"""

from __future__ import annotations

import random
import time
from typing import Any

from nightsky.agents.simple import RandomAgent
from nightsky.core.observer import Observer
from nightsky.core.state import CHANCE, State


def advance(
    state: State,
    seat: int,
    agents: dict[int, Any],
    chance_rng: random.Random,
    agent_rng: random.Random,
    counts: list[int],
) -> bool:
    """Play chance (``counts[0] += 1`` each) and the other seats (``counts[1]``) of ``state``
    until ``seat`` acts (False) or the game ends (True)."""
    while True:
        players = state.current_players()
        if not players:
            return True
        if len(players) == 1 and players[0] == CHANCE:
            state.step(state.sample_chance(chance_rng), CHANCE)
            counts[0] += 1
            continue
        if seat in players:
            return False
        other = min(players)
        agent = agents[other]
        if type(agent) is RandomAgent:
            # RandomAgent.choose's very draw: State.random_action is choice(rng,
            # legal_actions) by contract (the same action, the same numbers drawn), and a game
            # may make it without the list (Shooting Star's ~90 placements a move).
            action = state.random_action(other, agent_rng)
        else:
            action = agent.choose(state, other, agent_rng)
        # An agent picks among legal_actions (the contract of Agent.choose): no re-check.
        state.step(action, other)
        counts[1] += 1


def step_games(
    states: list[State],
    ids: list[int],
    actions: list[Any],
    mask: bytearray,
    seat: int,
    opponents: list[dict[int, Any]],
    chance_rngs: list[random.Random],
    agent_rngs: list[random.Random],
    rewarders: list[Any],
    every_step: bool,
    rewards: list[float],
    counts: list[int],
    illegal_reward: float,
    illegal: list[int],
) -> list[int]:
    """Apply the action of id ``ids[i]`` (``actions``: the id table) for ``seat`` in every game,
    play on to the learner's next turn and set ``rewards[i]``; the games that ended, ascending.

    An id out of range or not set in the game's row of ``mask`` (the flat mask batch, written
    by ``write_rows`` for this very position) moves nothing: that game ends with
    ``illegal_reward`` and its index is appended to ``illegal`` too.
    ``every_step``: the rewarders pay during the game (``shaped``); otherwise they pay only
    at the end (``win``, ``score``: zero before), so they are asked only then."""
    finals: list[int] = []
    n_ids = len(actions)
    for i in range(len(states)):
        a = ids[i]
        if a < 0 or a >= n_ids or not mask[i * n_ids + a]:
            rewards[i] = illegal_reward
            illegal.append(i)
            finals.append(i)
            continue
        state = states[i]
        state.step(actions[a], seat)  # legal: the mask says so
        over = advance(state, seat, opponents[i], chance_rngs[i], agent_rngs[i], counts)
        if over or every_step:
            rewards[i] = float(rewarders[i].step(state)[seat])
        if over:
            finals.append(i)
    return finals


def write_rows(
    states: list[State],
    seat: int,
    observer: Observer,
    obs_rows: list[Any],
    mask_rows: list[Any],
    ident: dict[Any, Any] | None,
    game: Any,
    memos: list[Any] | None = None,
    blank: list[int] | None = None,
    by_object: bool = False,
    alt: dict[Any, Any] | None = None,
) -> None:
    """Every live game's observation of ``seat`` into ``obs_rows[i]``, and 1 at each of its
    legal ids in ``mask_rows[i]`` (a ``memoryview`` of its row of the mask batch, zeroed by the
    caller). The ids are set as the int objects they already are (the id table's values, or
    the small ints of ``legal_action_ids``): no index is made per entry, and no table of
    boxed indices sits in the cache (the batch's rows are small; such a table is not).

    ``memos`` None: the rows hold zeros on entry (``Observer.observation_into``). Otherwise
    each row holds what ``memos[i]`` describes (``Observer.update_into``: only the entries
    that change are written) and gets its new memo; a finished game's row is to be zeroed by
    the caller (its index appended to ``blank``, its memo set to None).

    ``ident`` maps ``id()`` of each object of ``game.all_actions()`` (kept alive by the
    caller) to its id (or, ``by_object``, each object itself); an action not found there is
    looked up in ``alt`` (the table keyed by object, where ``ident`` is keyed by ``id()``: an
    equal action that is not the table's own object, as The Stars Are Right's summonings that
    carry their tiles), then asked of ``game.action_id``. None: the state's own
    ``legal_action_ids``."""
    one: Any = 1
    for i in range(len(states)):
        state = states[i]
        if state.is_terminal():
            if memos is not None and memos[i] is not None:
                memos[i] = None
                if blank is not None:
                    blank.append(i)
            continue
        if memos is None:
            observer.observation_into(state, seat, obs_rows[i])
        else:
            memos[i] = observer.update_into(state, seat, obs_rows[i], memos[i])
        row = mask_rows[i]
        if ident is None:
            ids: list[Any] = state.legal_action_ids(seat)  # Any: the objects, not unboxed
            for j in ids:
                row[j] = one
        else:
            for a in state.legal_actions(seat):
                k = ident.get(a) if by_object else ident.get(id(a))
                if k is None:
                    if alt is not None:
                        k = alt.get(a)
                    if k is None:
                        k = game.action_id(a)
                row[k] = one


def lookup_seconds(table: dict[Any, Any], actions: list[Any], by_object: bool) -> float:
    """Seconds ``write_rows`` spends finding the ids of ``actions`` in ``table`` (keyed by
    object or by ``id()``): the vector env picks the faster table with it."""
    start = time.perf_counter()
    for a in actions:
        k: int | None = table.get(a) if by_object else table.get(id(a))
        if k is None:
            raise KeyError(f"{a!r} is not in the id table")
    return time.perf_counter() - start
