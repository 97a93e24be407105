"""GUI tests run offscreen, write settings to a temporary folder, and capture error boxes."""

import os

import pytest

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")


@pytest.fixture(autouse=True)
def isolated_config(tmp_path, monkeypatch):
    """Settings, logs and recent files go to a temporary folder, never the real one."""
    folder = tmp_path / "config"
    monkeypatch.setenv("LITQEVAL_CONFIG_DIR", str(folder))
    return folder


@pytest.fixture
def shown_errors(monkeypatch):
    """Errors that would be shown to the user, as (title, message, details)."""
    from litqeval_gui.gui import notify

    seen = []
    monkeypatch.setattr(notify, "presenter", lambda parent, t, m, d: seen.append((t, m, d)))
    return seen
