"""Resources reach every installation; the bundle's spec names what the app imports lazily."""

import ast
import configparser
import importlib.util
import json
import os
import shutil
import subprocess
import sys
import types
import zipfile
from pathlib import Path

import pytest

from litqeval_gui.core import scaleout
from litqeval_gui.core.demo import TOPIC_FILES
from litqeval_gui.resources import CANDIDATES, resource, resources_dir

ROOT = Path(__file__).resolve().parents[1]
SPEC = ROOT / "packaging" / "litqeval.spec"
PACKAGE = ROOT / "litqeval_gui"


def test_resources_are_found_beside_the_package_in_a_source_tree():
    assert resources_dir() == ROOT / "resources"
    assert resource("icons", "app.svg").read_text(encoding="utf-8").lstrip().startswith("<")
    for name in ("common.json", *TOPIC_FILES):
        assert json.loads(resource("demo", name).read_text(encoding="utf-8"))
    desktop = configparser.ConfigParser(interpolation=None)
    desktop.read(resource("litqeval-gui.desktop"), encoding="utf-8")
    entry = desktop["Desktop Entry"]
    assert entry["Exec"].split()[0] == "litqeval-gui" and entry["Icon"] == "litqeval-gui"


def test_the_package_holds_no_resources_of_its_own():
    assert not (PACKAGE / "resources").exists() and not CANDIDATES[0].exists()


def test_a_wheel_carries_the_resources_and_the_installed_package_finds_them(tmp_path):
    """The wheel ``pip install .`` installs: resources/ inside as litqeval_gui/_resources,
    found from there (an interpreter that sees only the unpacked wheel)."""
    source = tmp_path / "source"  # a copy: the build writes build/ and egg-info beside it
    for name in ("litqeval_gui", "resources", "packaging"):
        shutil.copytree(ROOT / name, source / name, ignore=shutil.ignore_patterns("__pycache__"))
    for name in ("pyproject.toml", "README.md"):
        shutil.copy(ROOT / name, source / name)
    built = subprocess.run(
        [sys.executable, "-c", "import sys; from setuptools import build_meta; "
         "print(build_meta.build_wheel(sys.argv[1]))", str(tmp_path / "wheel")],
        cwd=source, capture_output=True, text=True, timeout=300)
    assert built.returncode == 0, built.stderr[-3000:]
    wheel = tmp_path / "wheel" / built.stdout.split()[-1]
    names = set(zipfile.ZipFile(wheel).namelist())
    expected = {f"litqeval_gui/_resources/{path.relative_to(ROOT / 'resources').as_posix()}"
                for path in (ROOT / "resources").rglob("*") if path.is_file()}
    assert expected and expected <= names
    assert not any(name.startswith(("resources/", "packaging/", "tests/")) for name in names)
    site = tmp_path / "site"
    zipfile.ZipFile(wheel).extractall(site)
    found = subprocess.run(
        [sys.executable, "-c", "import litqeval_gui.resources as r; "
         "print(r.__file__); print(r.resources_dir())"],
        cwd=tmp_path, env={"PYTHONPATH": str(site)}, capture_output=True, text=True, timeout=60)
    assert found.returncode == 0, found.stderr
    module, folder = found.stdout.split("\n")[:2]
    assert Path(module).parent == site / "litqeval_gui"
    assert Path(folder) == site / "litqeval_gui" / "_resources"


def spec_lists() -> dict[str, list[str]]:
    """The spec's top-level list literals, by name."""
    lists = {}
    for node in ast.parse(SPEC.read_text(encoding="utf-8")).body:
        if isinstance(node, ast.Assign) and isinstance(node.value, ast.List):
            try:
                lists[node.targets[0].id] = ast.literal_eval(node.value)
            except ValueError:  # a list built from others (EXCLUDES)
                continue
    return lists


# Run in a fresh interpreter: the spec's excludes cannot be imported (as in the bundle,
# where PyInstaller left them out), then every module of the app is imported. An optional
# import (pyqtgraph's ``try: from PySide6 import QtTest``) degrades as it does there; a
# required one fails and is named.
IMPORT_EVERY_MODULE = """
import importlib, json, pkgutil, sys
excluded = json.loads(sys.argv[1])

class Excluded:
    def find_spec(self, name, path=None, target=None):
        if any(name == e or name.startswith(e + ".") for e in excluded):
            raise ModuleNotFoundError(f"No module named {name!r} (excluded)", name=name)
        return None

sys.meta_path.insert(0, Excluded())
import litqeval_gui
failed = []
for module in pkgutil.walk_packages(litqeval_gui.__path__, "litqeval_gui."):
    try:
        importlib.import_module(module.name)
    except ImportError as exc:
        failed.append(f"{module.name}: {exc}")
print("\\n".join(failed))
"""


def test_no_module_of_the_app_needs_a_module_the_bundle_excludes():
    """The bundle's main window failed on ``No module named 'PySide6.QtOpenGL'``
    (pyqtgraph's plots import it) while every test passed: importing each module of the
    app with the spec's excludes made unimportable shows it without building the bundle."""
    lists = spec_lists()
    excluded = lists["NOT_BUNDLED"] + lists["NEVER_LOADED"]
    assert "PySide6.QtQml" in excluded and "dask" in excluded  # the spec was read
    done = subprocess.run([sys.executable, "-c", IMPORT_EVERY_MODULE, json.dumps(excluded)],
                          capture_output=True, text=True, timeout=300, cwd=ROOT,
                          env={**os.environ, "QT_QPA_PLATFORM": "offscreen"})
    assert done.returncode == 0, done.stderr[-3000:]
    assert done.stdout.strip() == "", f"modules that need an excluded one:\n{done.stdout}"


def test_the_excluded_module_check_names_a_module_the_app_needs():
    """The same check with QtOpenGL excluded names it (it can fail)."""
    done = subprocess.run([sys.executable, "-c", IMPORT_EVERY_MODULE,
                           json.dumps(["PySide6.QtOpenGL"])],
                          capture_output=True, text=True, timeout=300, cwd=ROOT,
                          env={**os.environ, "QT_QPA_PLATFORM": "offscreen"})
    assert done.returncode == 0, done.stderr[-3000:]
    assert "litqeval_gui.gui.plots" in done.stdout and "PySide6.QtOpenGL" in done.stdout


def lazy_imports() -> set[str]:
    """Third-party modules the package imports inside functions or by
    ``importlib.import_module("name")`` (PyInstaller may miss both)."""
    found = set()
    for path in PACKAGE.rglob("*.py"):
        tree = ast.parse(path.read_text(encoding="utf-8"))
        for function in ast.walk(tree):
            if not isinstance(function, ast.FunctionDef | ast.AsyncFunctionDef):
                continue
            for node in ast.walk(function):
                if isinstance(node, ast.Import):
                    found.update(alias.name for alias in node.names)
                elif isinstance(node, ast.ImportFrom) and node.level == 0:
                    found.add(node.module)
                elif (isinstance(node, ast.Call) and getattr(node.func, "attr", "") == "import_module"
                      and node.args and isinstance(node.args[0], ast.Constant)):
                    found.add(node.args[0].value)
    return {name for name in found if name.split(".")[0] not in sys.stdlib_module_names
            and name.split(".")[0] not in ("litqeval_gui", "PySide6")}


def test_the_spec_names_every_module_the_app_imports_lazily():
    lists = spec_lists()
    lazy = lazy_imports()
    assert {"umap", "openpyxl", "rispy", "pylatexenc.latexencode"} <= lazy  # the scan works
    hidden = lists["HIDDEN_IMPORTS"]
    missing = {name for name in lazy  # ``from a.b import c`` is covered by a.b or a.b.c
               if not any(entry == name or entry.startswith(f"{name}.") for entry in hidden)
               and name.split(".")[0] not in lists["NOT_BUNDLED"]}
    assert not missing, f"add to HIDDEN_IMPORTS in {SPEC.name}: {sorted(missing)}"
    assert 'collect_submodules("litqeval_gui")' in SPEC.read_text(encoding="utf-8")


def test_every_hidden_import_of_the_spec_exists():
    lists = spec_lists()
    for name in lists["HIDDEN_IMPORTS"] + lists["WITH_SOURCE"]:
        assert importlib.util.find_spec(name) is not None, name
    assert "torch" in SPEC.read_text(encoding="utf-8")  # excluded, never bundled


@pytest.fixture
def frozen_main(monkeypatch, tmp_path):
    """This process as a frozen executable: ``__main__`` names a script file that is not
    there (PyInstaller keeps it in the archive)."""
    main = types.ModuleType("__main__")
    main.__file__ = str(tmp_path / "launch.py")
    monkeypatch.setitem(sys.modules, "__main__", main)
    monkeypatch.setattr(sys, "frozen", True, raising=False)


def test_a_frozen_executable_starts_the_parallel_parsers_workers(frozen_main):
    """Its entry calls freeze_support() first (packaging/launch.py), so the workers can
    start; reading the missing script made the bundle parse every big RIS file serially."""
    assert scaleout.main_importable()


def test_the_bundle_entry_calls_freeze_support_before_importing_the_app():
    tree = ast.parse((ROOT / "packaging" / "launch.py").read_text(encoding="utf-8"))
    guard = next(node for node in tree.body if isinstance(node, ast.If))
    first = guard.body[0].value
    assert ast.unparse(first) == "multiprocessing.freeze_support()"
    top_imports = {alias.name for node in tree.body if isinstance(node, ast.Import)
                   for alias in node.names}
    assert top_imports <= set(sys.stdlib_module_names)


def test_the_data_the_bundle_leaves_out_is_never_loaded():
    """Qt's translations are left out of the bundle: no module of the app installs a
    translator (the app is in English)."""
    assert spec_lists()["NOT_SHIPPED_DATA"] == ["PySide6/Qt/translations"]
    users = [path.name for path in PACKAGE.rglob("*.py")
             if "QTranslator" in path.read_text(encoding="utf-8")
             or "installTranslator" in path.read_text(encoding="utf-8")]
    assert users == []
