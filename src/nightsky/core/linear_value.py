"""A game's learned value as data: linear weights over named features, read from a JSON file.

A game with a learned value (``GameInfo.value_model``) computes its own features; this module
only reads and checks the weights file that ``scripts/train_value.py`` writes (fields
``features``, ``weights``, ``bias``) and takes the dot product. Plain Python, no numpy: a
search calls it at every cut-off.
"""

from __future__ import annotations

import json
import math
from pathlib import Path
from typing import Any


class LinearValue:
    """Linear weights over a game's features plus a bias."""

    def __init__(self, weights: list[float], bias: float) -> None:
        self.weights = weights
        self.bias = bias

    def predict(self, feats: list[float]) -> float:
        """The bias plus the weights' dot product with ``feats`` (as many as the weights)."""
        total = self.bias
        for w, x in zip(self.weights, feats, strict=True):
            total += w * x
        return total


def _number(value: Any, where: str) -> float:
    if isinstance(value, bool) or not isinstance(value, (int, float)) or not math.isfinite(value):
        raise ValueError(f"{where} must be a finite number, got {value!r}")
    return float(value)


def parse_linear_value(data: Any, names: tuple[str, ...], source: str) -> LinearValue:
    """A ``LinearValue`` from a weights file's decoded JSON whose ``features`` must be
    ``names``; ``ValueError`` naming ``source`` and the field for anything missing or wrong
    (a stale file whose features differ from the game's included)."""
    if not isinstance(data, dict):
        raise ValueError(f"{source}: must be a JSON object, got {type(data).__name__}")
    listed = data.get("features")
    if not isinstance(listed, list) or tuple(listed) != names:
        raise ValueError(
            f"{source}: field 'features' must list {len(names)} names {list(names)} "
            f"(the features this version computes), got {listed!r}; retrain with "
            "scripts/train_value.py"
        )
    weights = data.get("weights")
    if not isinstance(weights, list) or len(weights) != len(names):
        raise ValueError(
            f"{source}: field 'weights' must be a list of {len(names)} numbers, got {weights!r}"
        )
    ws = [_number(w, f"{source}: field 'weights' item {i}") for i, w in enumerate(weights)]
    if "bias" not in data:
        raise ValueError(f"{source}: field 'bias' is missing")
    return LinearValue(ws, _number(data["bias"], f"{source}: field 'bias'"))


def load_linear_value(path: Path, names: tuple[str, ...]) -> LinearValue:
    """Read and check the weights file at ``path`` (``ValueError`` naming it when unreadable)."""
    try:
        text = path.read_text(encoding="utf-8")
    except OSError as exc:
        raise ValueError(f"{path.name}: cannot read the weights file ({exc.strerror})") from None
    try:
        data = json.loads(text)
    except json.JSONDecodeError as exc:
        raise ValueError(f"{path.name}: not valid JSON ({exc.msg}, line {exc.lineno})") from None
    return parse_linear_value(data, names, path.name)
