"""Failheap Village hooks: what its ruleset data cannot say."""

from __future__ import annotations
