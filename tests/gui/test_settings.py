"""Settings: the overridden folder, atomic JSON, corrupt files, recent projects."""

import json
import logging

import pytest

from litqeval_gui.gui import settings
from litqeval_gui.gui.settings import MAX_RECENT, Settings


def test_config_dir_follows_the_environment(isolated_config):
    assert settings.config_dir() == isolated_config
    assert settings.data_dir() == isolated_config
    assert settings.log_path() == isolated_config / "litqeval-gui.log"


def test_values_round_trip_through_the_file(isolated_config, tmp_path):
    s = Settings()
    s.geometry = b"\x01\x02geometry\xff"
    s.set_splitter_sizes("main", [250, 950])
    s.last_dir = tmp_path
    s.save()
    assert [p.name for p in isolated_config.iterdir()] == ["settings.json"]  # no temp file left
    again = Settings()
    assert again.geometry == b"\x01\x02geometry\xff"
    assert again.splitter_sizes("main") == [250, 950]
    assert again.splitter_sizes("other") is None
    assert again.last_dir == tmp_path


def test_recent_files_most_recent_first_capped_and_missing_dropped(isolated_config, tmp_path):
    files = []
    for i in range(MAX_RECENT + 3):
        path = tmp_path / f"p{i}.litq"
        path.write_text("x")
        files.append(path)
    s = Settings()
    for path in files:
        s.add_recent(path)
    s.add_recent(files[5])  # opened again: moves to the front, not duplicated
    s.save()
    recent = Settings().recent_files
    assert recent[0] == files[5].resolve()
    assert len(recent) == MAX_RECENT and len(set(recent)) == MAX_RECENT
    assert recent[1] == files[-1].resolve()
    files[-1].unlink()
    assert files[-1].resolve() not in Settings().recent_files
    s.clear_recent()
    assert s.recent_files == []


def test_corrupt_or_odd_json_gives_defaults_and_a_log_line(isolated_config, tmp_path, caplog):
    isolated_config.mkdir(parents=True)
    path = isolated_config / "settings.json"
    path.write_text("{not json", encoding="utf-8")
    with caplog.at_level(logging.WARNING, logger="litqeval_gui.gui.settings"):
        s = Settings()
    assert s.geometry is None and s.recent_files == [] and s.splitter_sizes("main") is None
    assert "unreadable" in caplog.text
    path.write_text(json.dumps({"geometry": "@@not base64", "splitters": [1, 2],
                                "recent_files": "nope", "last_dir": 5}), encoding="utf-8")
    s = Settings()
    assert s.geometry is None and s.splitter_sizes("main") is None and s.recent_files == []
    assert s.last_dir.is_dir()
    path.write_text("[1, 2]", encoding="utf-8")
    assert Settings().recent_files == []
    s.set_splitter_sizes("main", [1, 2])  # repairs the odd value on the next save
    s.save()
    assert Settings().splitter_sizes("main") == [1, 2]


def test_a_failed_write_leaves_the_old_file(isolated_config, monkeypatch):
    s = Settings()
    s.set_splitter_sizes("main", [1, 2])
    s.save()

    def broken(*args, **kwargs):
        raise OSError("disk full")

    monkeypatch.setattr(settings.os, "replace", broken)
    s.set_splitter_sizes("main", [3, 4])
    with pytest.raises(OSError, match="disk full"):
        s.save()
    assert Settings().splitter_sizes("main") == [1, 2]
    assert [p.name for p in isolated_config.iterdir()] == ["settings.json"]
