"""text/ sits just above the domain: it imports the standard library, third-party packages,
`forethought.domain` and `forethought.errors`, and nothing else of the package."""

from __future__ import annotations

import ast
from pathlib import Path

import forethought.text

ALLOWED = ("forethought.text", "forethought.domain", "forethought.errors")


def test_text_imports_only_the_domain_and_the_errors() -> None:
    modules = sorted(Path(forethought.text.__file__).parent.rglob("*.py"))
    assert len(modules) >= 7
    for path in modules:
        for node in ast.walk(ast.parse(path.read_text("utf-8"))):
            if isinstance(node, ast.ImportFrom):
                assert node.level == 0, f"{path.name}: relative import"
                names = [node.module or ""]
            elif isinstance(node, ast.Import):
                names = [alias.name for alias in node.names]
            else:
                continue
            for name in names:
                if name == "forethought" or name.startswith("forethought."):
                    assert name.startswith(ALLOWED), f"{path.name} imports {name}"
