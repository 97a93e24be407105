"""Layering rule: core/ and metrics/ never import Qt or pyqtgraph."""

import ast
import pathlib
import subprocess
import sys

PACKAGE = pathlib.Path(__file__).resolve().parents[1] / "litqeval_gui"
FORBIDDEN = ("PySide6", "PyQt5", "PyQt6", "pyqtgraph", "shiboken6")


def _imported_modules(path: pathlib.Path) -> set[str]:
    tree = ast.parse(path.read_text(encoding="utf-8"))
    names: set[str] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            names.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            names.add(node.module)
    return names


def test_core_and_metrics_sources_do_not_import_qt():
    offenders = []
    for layer in ("core", "metrics"):
        for path in (PACKAGE / layer).rglob("*.py"):
            bad = {m for m in _imported_modules(path) if m.split(".")[0] in FORBIDDEN}
            if bad:
                offenders.append(f"{path.relative_to(PACKAGE)}: {sorted(bad)}")
    assert offenders == []


def test_importing_core_and_metrics_loads_no_qt_module():
    """Import every core/metrics module in a fresh interpreter; no Qt may be loaded."""
    modules = [
        ".".join(p.relative_to(PACKAGE.parent).with_suffix("").parts)
        for layer in ("core", "metrics")
        for p in (PACKAGE / layer).rglob("*.py")
    ]
    code = (
        "import importlib, sys\n"
        f"for m in {modules!r}: importlib.import_module(m)\n"
        f"print(sorted(k for k in sys.modules if k.split('.')[0] in {FORBIDDEN!r}))\n"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "[]"


def test_checker_detects_a_qt_import(tmp_path):
    sample = tmp_path / "bad.py"
    sample.write_text("from PySide6 import QtCore\nimport numpy\n")
    assert "PySide6" in _imported_modules(sample)
