"""The layer system (CR 613): every continuous effect of a game applied in layer order, once
per change of the game, and read by every characteristic query.

- ``values.py``: the record of an object's characteristics, and the draft the layers write;
- ``apply.py``: the effects of each layer, timestamps (CR 613.7) and dependency (CR 613.8);
- ``filters.py``: matching objects against filters through a view of the characteristics;
- ``system.py``: the per-game cache, its invalidation and its checking mode.

``engine/characteristics.py`` answers the rest of the engine's questions from here.
"""

from __future__ import annotations

from .apply import (
           LAYER_OF,
           LayerEffect,
           LayerResult,
           compute,
           dependency_order,
           depends,
)
from .system import CHECK_ENV, LayerCacheError, LayerSystem
from .values import Characteristics, printed

__all__ = [
           "CHECK_ENV",
           "LAYER_OF",
           "Characteristics",
           "LayerCacheError",
           "LayerEffect",
           "LayerResult",
           "LayerSystem",
           "compute",
           "dependency_order",
           "depends",
           "printed",
]
