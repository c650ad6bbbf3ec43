"""Deterministic randomness keyed by purpose: the same seed and purpose always draw the same."""

from __future__ import annotations

import hashlib
import random
from collections.abc import Sequence
from dataclasses import dataclass
from typing import TypeVar

T = TypeVar("T")


@dataclass(frozen=True, slots=True)
class PurposeRng:
    """A random source derived from the game seed, one independent stream per purpose.

    ``pick("tie:day3", options)`` depends only on the seed, the purpose and the options,
    not on how many draws came before: re-resolving a phase after a GM correction gives the
    same draws, and every draw can be shown to the GM with its purpose.
    """

    seed: int | str

    def stream(self, purpose: str) -> random.Random:
        """A private ``random.Random`` for one purpose (never the module-global one)."""
        digest = hashlib.sha256(f"{self.seed}|{purpose}".encode()).digest()
        return random.Random(int.from_bytes(digest[:16], "big"))

    def pick(self, purpose: str, options: Sequence[T]) -> T:
        """Pick one of ``options`` for ``purpose``.

        Args:
            purpose: what the draw decides, unique within the game (``rival_target:Ann``).
            options: the candidates, in a stable order (seat order).

        Returns:
            The chosen candidate.

        Raises:
            ValueError: ``options`` is empty.
        """
        if not options:
            raise ValueError(f"nothing to draw from for {purpose!r}")
        return options[self.stream(purpose).randrange(len(options))]
