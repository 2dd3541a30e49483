"""The Mihi Anguli game: options, the action id space, chance notation, tutorials."""

from __future__ import annotations

from typing import Any

from nightsky.core.game import Action, Game, GameInfo, Option, Tutorial
from nightsky.core.info import Level
from nightsky.games.mihi_anguli import attribution
from nightsky.games.mihi_anguli import board as B
from nightsky.games.mihi_anguli.actions import Move, MoveTable, Roll, parse_roll
from nightsky.games.mihi_anguli.components import load_sheet
from nightsky.games.mihi_anguli.evaluator import MihiAnguliEvaluator
from nightsky.games.mihi_anguli.observer import MihiAnguliObserver
from nightsky.games.mihi_anguli.state import MihiAnguliState
from nightsky.games.mihi_anguli.tutorials import tutorials as _tutorials
from nightsky.games.mihi_anguli.ui import MihiAnguliUI


class MihiAnguliGame(Game):
    """Mihi Anguli for 1-4 players (solo ranks; multiplayer turns are simultaneous)."""

    info = GameInfo(
        id="mihi-anguli",
        title="Mihi Anguli",
        min_players=1,
        max_players=4,
        chance=True,
        hidden_information=False,
        simultaneous=True,
        description=(
            "Roll-and-write: map a patch of sky in five weeks, buying abilities and supporters "
            "with experience, stars and squares."
        ),
        options=(
            Option("components", str, "", "path of a sheet TOML replacing the designed sheet"),
        ),
        default_players=1,
        # A turn is a chain of the seat's own steps that evaluate rates well (it looks through
        # a pending choice): score leaves at once, look three steps ahead, and value a step by
        # its best follow-up (docs/agents.md, the Mihi Anguli trials). Stop at the dice: the
        # seats act at once and then roll, so without it only the last seat's search reached
        # its next turn's roll, and that seat fell 5 points behind (docs/games/mihi-anguli.md).
        # Judge positions by the learned value: the heuristic underrates the sheet's engine
        # (MATHEMATICIAN, STUDYING), which the weights tuned by play correct (docs/agents.md,
        # "The learned value finds the sheet's engine").
        search_defaults="rollout=none,c=0.2,depth=3,backup=max,chance=stop,value=learned",
        # A learned value of a sheet (value.py, scripts/train_value.py, docs/games/mihi-anguli.md).
        value_model="value.json",
        # Difficulty levels, weakest first (docs/agents.md, scripts/ladder.py).
        resign_rule="MA-11.1",  # rules.md: our ruling on resigning
        levels=(
            Level(
                "easy",
                "greedy:epsilon=0.7",
                "seven moves in ten random, the rest greedy: beats random 91% (200 games, 86-94%)",
            ),
            Level(
                "medium",
                "greedy:epsilon=0.35",
                "greedy with about one move in three random: beats easy 90% (200 games, 85-93%)",
            ),
            Level(
                "hard",
                "greedy:epsilon=0.15",
                "greedy with one move in seven random: beats medium 86% (200 games, 80-90%)",
            ),
            Level(
                "expert",
                # The search on the learned value (search_defaults): the levels below are
                # greedy diluted by random moves (docs/agents.md, "Mihi Anguli's ladder").
                "ismcts:seconds=0.2",
                "0.2 s of search a move on the learned value: beats greedy 94% (200 games,"
                " 90-97%) and hard 98% (200 games, 96-99%)",
            ),
        ),
    )
    ui_class = MihiAnguliUI
    observer_class = MihiAnguliObserver
    component_events = attribution.component_events  # the design lab's hook
    evaluator_class = MihiAnguliEvaluator

    def __init__(self, players: int | str | None = None, **params: Any) -> None:
        super().__init__(players, **params)
        self.compiled = B.compile_sheet(load_sheet(self.options["components"] or None))
        self._rolls: dict[tuple, Roll] = {}
        # MihiAnguliState.sample_chance's code of a roll -> the roll.
        self.roll_codes: dict[int, Roll] = {}
        self._actions = self._build_actions()
        self.act: dict[tuple[str, int, int], Move] = {m_key(m): m for m in self._actions}
        self.moves = MoveTable(self._actions, self.compiled.nitems, B.NPTS)

    def new_initial_state(self) -> MihiAnguliState:
        return MihiAnguliState(self)

    def roll(self, dice: tuple) -> Roll:
        r = self._rolls.get(dice)
        if r is None:
            r = self._rolls[dice] = Roll(dice)
        return r

    def _build_actions(self) -> list[Move]:
        out: list[Move] = [
            Move("go", text="advance"),
            Move("mentor", text="MENTOR"),
            *[Move("promote", w, text=f"PROMOTER W{w}") for w in range(1, 6)],
            Move("claim", 0, text="claim points"),
            Move("claim", 1, text="claim map"),
            Move("done", text="done"),
            Move("end", text="end turn"),
        ]
        out += [Move("fill", it.index, text=f"fill {it.label}") for it in self.compiled.items]
        out += [Move("at", q, text=f"at {B.point_name(q)}") for q in range(B.NPTS)]
        dice = range(1, 7)
        pairs = [(a, b) for a in dice for b in dice if a <= b]
        out += [Move("pos1", x, y, text=f"POS1 {x} {y}") for x in dice for y in dice]
        out += [Move("pos2", d, text=f"POS2 {d}") for d in dice]
        out += [Move("pos3", d, text=f"POS3 {d}") for d in dice]
        out += [Move("pos4", a, b, text=f"POS4 {a} {b}") for a, b in pairs]
        out += [Move("plot1", d, k, text=f"PLOT1 {d} r{k}") for d in dice
                for k, _r, _c in B.LAYOUTS[d]]
        out += [Move("plot2", d, text=f"PLOT2 {d}") for d in dice]
        out += [Move("plot3", d, text=f"PLOT3 {d}") for d in dice]
        out += [Move("plot4", a, b, text=f"PLOT4 {a} {b}") for a, b in pairs]
        out += [Move("plot5", a, b, text=f"PLOT5 {a} {b}") for a, b in pairs]
        out += [Move("rec", d, w, text=f"REC {d} W{w}") for d in dice for w in range(1, 6)]
        out += [Move("opt", d, text=f"OPT {d}") for d in dice]
        out += [Move("study", d, text=f"STUDY {d}") for d in dice]
        return out

    def all_actions(self) -> list[Action]:
        return self._actions  # type: ignore[return-value]

    def parse_chance(self, text: str) -> Action | None:
        r = parse_roll(text, self.num_players)
        return None if r is None else self.roll(r.dice)

    def tutorials(self) -> list[Tutorial]:
        return _tutorials(self)


def m_key(m: Move) -> tuple[str, int, int]:
    return (m.kind, m.a, m.b)
