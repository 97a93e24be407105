"""What a path names, before a file is read or written (:mod:`litqeval_gui.core.paths`),
and files written together or not at all (:class:`~litqeval_gui.core.records.exporting.Staged`)."""

import os

import pytest

from litqeval_gui.core.errors import LitqError
from litqeval_gui.core.paths import check_input, output_file
from litqeval_gui.core.records.exporting import Staged


def test_an_input_must_be_a_regular_file(tmp_path):
    (tmp_path / "file").write_text("x")
    (tmp_path / "link").symlink_to(tmp_path / "file")
    assert check_input(tmp_path / "link") == tmp_path / "link"
    os.mkfifo(tmp_path / "fifo")
    (tmp_path / "folder").mkdir()
    for name, says in (("fifo", "fifo is not a regular file (a FIFO)"),
                       ("folder", "folder is a folder"), ("none", "none: no such file")):
        with pytest.raises(LitqError) as refused:
            check_input(tmp_path / name)
        assert str(refused.value) == f"{tmp_path}/{says}"


def test_an_output_through_a_link_is_the_file_it_points_to(tmp_path):
    (tmp_path / "file").write_text("x")
    (tmp_path / "link").symlink_to("file")
    assert output_file(tmp_path / "link") == tmp_path / "file"
    assert output_file(tmp_path / "new") == tmp_path / "new"
    (tmp_path / "to-fifo").symlink_to("fifo")
    os.mkfifo(tmp_path / "fifo")
    with pytest.raises(LitqError, match=r"to-fifo is a link to .*/fifo, which is not a "
                                        r"regular file \(a FIFO\); choose another file name"):
        output_file(tmp_path / "to-fifo")


def test_staged_files_are_written_all_or_none(tmp_path):
    first, second = tmp_path / "first.txt", tmp_path / "second.txt"
    first.write_text("old")

    def fails(partial):
        partial.write_text("half")
        raise OSError(28, "No space left on device")

    with pytest.raises(LitqError, match=r"second\.txt: cannot write the counts \(No space "
                                        r"left on device\)"), Staged() as staged:
        staged.write(first, lambda partial: partial.write_text("new"), "the diagram")
        staged.write(second, fails, "the counts")
        staged.move()
    assert first.read_text() == "old"
    assert sorted(p.name for p in tmp_path.iterdir()) == ["first.txt"]
    with Staged() as staged:
        staged.write(first, lambda partial: partial.write_text("new"), "the diagram")
        with pytest.raises(LitqError, match="two of the files to write are this one"):
            staged.write(tmp_path / "." / "first.txt", lambda partial: None, "the counts")
