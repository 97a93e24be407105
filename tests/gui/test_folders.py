"""Where save dialogs open (:mod:`litqeval_gui.gui.folders`): the project's folder when it
is writable, the last folder used, else the documents folder — never a read-only folder
nor the app's own data folder beside the demo. The tests run as root, whom ``os.access``
lets write anywhere: a folder whose mode gives nobody write permission is read-only to
the helper all the same."""

from __future__ import annotations

import os
import shutil
from contextlib import contextmanager
from pathlib import Path

import pytest
from PySide6.QtCore import QStandardPaths
from PySide6.QtWidgets import QFileDialog

import litqeval_gui
from litqeval_gui.gui import folders
from litqeval_gui.gui import settings as settings_module
from litqeval_gui.gui.export_dialog import export_dialog
from litqeval_gui.gui.settings import Settings
from tests.gui.test_evaluation_screen import open_evaluation, project_file, topic_file

__all__ = ["project_file", "topic_file"]  # fixtures of the evaluation screen's tests


@contextmanager
def read_only(folder: Path):
    """``folder`` with no write permission for anyone while the block runs."""
    mode = folder.stat().st_mode
    folder.chmod(0o555)
    try:
        yield folder
    finally:
        folder.chmod(mode)


@pytest.fixture
def documents(tmp_path, monkeypatch) -> Path:
    """The user's documents folder, a temporary one."""
    docs = tmp_path / "Documents"
    docs.mkdir()
    real = QStandardPaths.writableLocation
    monkeypatch.setattr(QStandardPaths, "writableLocation", lambda where: str(docs) if
                        where == QStandardPaths.StandardLocation.DocumentsLocation
                        else real(where))
    return docs


@pytest.fixture
def starts(monkeypatch) -> list[Path]:
    """The folders save dialogs open in (each is cancelled)."""
    opened: list[Path] = []
    monkeypatch.setattr(QFileDialog, "getSaveFileName",
                        lambda parent, caption, start="", *a, **k:
                        opened.append(Path(start).parent) or ("", ""))
    return opened


def test_a_read_only_folder_is_not_writable_even_for_root(tmp_path):
    folder = tmp_path / "shared"
    folder.mkdir()
    assert folders.writable(folder) and folders.usable(folder)
    with read_only(folder):
        assert not folders.writable(folder) and not folders.usable(folder)
    assert sorted(folder.iterdir()) == []  # the probe file is gone
    (tmp_path / "a file").write_text("x")
    assert not folders.writable(tmp_path / "a file")
    assert not folders.writable(tmp_path / "missing")


def test_the_apps_own_folders_are_never_offered(tmp_path, isolated_config):
    data = settings_module.data_dir()
    (data / "deeper").mkdir(parents=True)
    assert folders.writable(data)  # writable, but the app's (the demo lives there)
    for own in (data, data / "deeper", Path(litqeval_gui.__file__).parent):
        assert folders.is_app_folder(own) and not folders.usable(own)
    assert not folders.is_app_folder(tmp_path)


def test_the_folder_falls_back_from_the_project_to_the_last_one_to_documents(
        tmp_path, documents, isolated_config):
    project = tmp_path / "review" / "p.litq"
    project.parent.mkdir()
    last = tmp_path / "exports"
    last.mkdir()
    settings = Settings()
    settings.last_dir = last
    assert folders.save_folder(settings, project) == project.parent
    assert folders.save_folder(settings) == last
    with read_only(project.parent):
        assert folders.save_folder(settings, project) == last
        with read_only(last):
            assert folders.save_folder(settings, project) == documents
    settings.last_dir = settings_module.data_dir()
    settings_module.data_dir().mkdir(parents=True, exist_ok=True)
    assert folders.save_folder(settings) == documents  # never the demo's folder
    with read_only(documents):
        assert folders.save_folder(settings) == Path.home()


def test_remember_keeps_only_a_folder_a_dialog_may_offer(tmp_path, documents, isolated_config):
    settings = Settings()
    data = settings_module.data_dir()
    data.mkdir(parents=True, exist_ok=True)
    settings.last_dir = data  # kept by an older version
    folders.remember(settings, data)
    assert settings.last_dir == documents
    folders.remember(settings, tmp_path)
    assert settings.last_dir == tmp_path
    folders.remember(settings, data)  # the demo opened: the last folder stays
    assert settings.last_dir == tmp_path


def test_exporting_records_of_a_project_in_a_read_only_folder_starts_in_documents(
        qtbot, tmp_path, documents, starts):
    from PySide6.QtWidgets import QWidget

    parent = QWidget()
    qtbot.addWidget(parent)
    shared = tmp_path / "shared"
    shared.mkdir()
    settings = Settings()
    settings.last_dir = settings_module.data_dir()
    with read_only(shared):
        assert export_dialog(parent, shared / "p.litq", "scopus", list, settings) is None
    assert export_dialog(parent, shared / "p.litq", "scopus", list, settings) is None
    assert starts == [documents, shared]


def test_new_project_opens_in_the_last_folder_or_documents_never_beside_the_demo(
        window, project_path, tmp_path, documents, starts, isolated_config):
    window.new_project()
    assert starts == [documents]  # nothing used yet
    demo = settings_module.data_dir() / "demo.litq"
    demo.parent.mkdir(parents=True, exist_ok=True)
    shutil.copyfile(project_path, demo)
    assert window.open_project(demo)
    window.new_project()
    assert starts[-1] == documents  # not the app's data folder
    assert window.open_project(project_path)
    window.new_project()
    assert starts[-1] == project_path.parent  # the last folder used
    with read_only(project_path.parent):
        window.new_project()
    assert starts[-1] == documents


def test_the_evaluation_report_starts_in_the_projects_folder_else_documents(
        window, qtbot, project_file, tmp_path, documents, starts, isolated_config):
    view = open_evaluation(window, qtbot, project_file)
    assert view.data is not None
    window.settings.last_dir = documents  # elsewhere: the project's folder comes first
    window.action("report").trigger()
    assert starts == [project_file.parent]
    window.close_project()
    demo = settings_module.data_dir() / "demo.litq"  # a project in the app's data folder
    demo.parent.mkdir(parents=True, exist_ok=True)
    shutil.copyfile(project_file, demo)
    window.settings.last_dir = settings_module.data_dir()  # as an older version kept it
    view = open_evaluation(window, qtbot, demo)
    window.action("report").trigger()
    assert starts[-1] == documents
    window.close_project()
    shared = tmp_path / "shared"
    shared.mkdir()
    copy = Path(shutil.copyfile(project_file, shared / "p.litq"))
    view = open_evaluation(window, qtbot, copy)
    with read_only(shared):
        window.action("report").trigger()
    assert starts[-1] == documents
    assert os.access(shared, os.W_OK)  # given back its mode
