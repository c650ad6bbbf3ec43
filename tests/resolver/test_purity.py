"""The engine stays pure: no clock, no environment, no global random generator, no printing."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

RESOLVER = Path(__file__).resolve().parents[2] / "resolver"
FORBIDDEN_MODULES = {"time", "datetime", "os", "socket", "subprocess", "requests", "logging"}
# reading ruleset files is the loader's job; nothing else in resolver/ opens a file
FILE_READERS = {"ruleset.py"}


@pytest.mark.parametrize(
    "path", sorted(RESOLVER.rglob("*.py")), ids=lambda p: str(p.relative_to(RESOLVER))
)
def test_module_is_pure(path: Path) -> None:
    tree = ast.parse(path.read_text(encoding="utf-8"))
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            names = {a.name.split(".")[0] for a in node.names}
        elif isinstance(node, ast.ImportFrom):
            names = {(node.module or "").split(".")[0]}
        else:
            names = set()
        assert not names & FORBIDDEN_MODULES, (path, names)
        is_name = isinstance(node, ast.Attribute) and isinstance(node.value, ast.Name)
        if is_name and node.value.id == "random":  # type: ignore[attr-defined]
            assert node.attr == "Random", f"{path}: random.{node.attr} (use PurposeRng)"  # type: ignore[attr-defined]
        if isinstance(node, ast.Call) and isinstance(node.func, ast.Name):
            assert node.func.id not in ("print", "input"), path
            if node.func.id == "open":
                assert path.name in FILE_READERS, path
        if isinstance(node, ast.Attribute) and node.attr in ("read_text", "write_text"):
            assert path.name in FILE_READERS, path
