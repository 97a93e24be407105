"""Reviewer names and exclusion reasons are plain one-line text wherever they enter: a
merged decisions file, a decision, a resolution, an unblinding, the screening's reason
list, the session. A name or reason left empty by its control characters is refused in
one line, and a merge takes only reasons on the screening's list."""

import json
import shutil

import pytest

from litqeval_gui.core.errors import LitqError
from litqeval_gui.core.jobs import run_job
from litqeval_gui.core.projectfile.project import Project
from litqeval_gui.core.screening.log import store
from litqeval_gui.core.screening.reviewers.exchange import export_decisions, merge_decisions
from litqeval_gui.core.screening.session import ScreeningSession
from tests.support.screening import screening_project

EVIL = "\x1b]0;PWNED\x07\x1b[2J\x1b[31mEvil\x00"  # a terminal's title, clear, red; a NUL


@pytest.fixture(scope="module")
def template(tmp_path_factory):
    """Topic T, list L (12 records), screening s with the reason 'wrong population'."""
    path, _ = screening_project(tmp_path_factory.mktemp("plain"), 12)
    with Project.open(path) as project:
        store.create_screening(project, "T", "s", ["L"], reasons=["wrong population"])
    return path


def bobs_file(template, folder, reviewer, reason):
    """Bob's copy excludes two records ('wrong population'); his decisions file, with
    ``reviewer`` for his name (header and events) and ``reason`` for the reason."""
    bob = folder / "bob.litq"
    shutil.copy(template, bob)
    with Project.open(bob) as project:
        screening = store.find_screening(project, "T", "s")
        for record in store.items(project, screening.id)[:2]:
            project.write(store.decide_op(screening, record, "exclude", store.Context("Bob"),
                                          reason="wrong population"))
        export_decisions(project, screening, "Bob", folder / "bob.jsonl")
    header, *events = [json.loads(line) for line in
                       (folder / "bob.jsonl").read_text(encoding="utf-8").splitlines()]
    header["reviewer"] = reviewer
    for event in events:
        event.update(reviewer=reviewer, reason=reason)
    out = folder / "edited.jsonl"
    out.write_text("".join(json.dumps(line) + "\n" for line in (header, *events)))
    return out


def stored(path):
    with Project.open(path, readonly=True) as project:
        return sorted(project.db.execute("SELECT reviewer, reason FROM screening_events"))


def merge(path, source):
    with Project.open(path) as project:
        return run_job(merge_decisions(project, source))


def test_names_and_reasons_of_a_merged_file_come_in_plain(tmp_path, template):
    ada = shutil.copy(template, tmp_path / "ada.litq")
    source = bobs_file(template, tmp_path, EVIL, "wrong\tpopulation\n")
    report = merge(ada, source)
    assert report.added_by == {"]0;PWNED [2J [31mEvil": 2}
    assert stored(ada) == [("]0;PWNED [2J [31mEvil", "wrong population")] * 2


def test_a_reason_not_on_the_list_refuses_the_whole_file(tmp_path, template):
    ada = shutil.copy(template, tmp_path / "ada.litq")
    source = bobs_file(template, tmp_path, "Bob", "\x01\x1b[31m")
    with pytest.raises(LitqError) as refused:
        merge(ada, source)
    assert str(refused.value) == (
        "edited.jsonl gives 1 reason(s) that are not on the reason list of screening 's' "
        "('[31m'); add them to the list first if they are right; nothing was merged")
    assert stored(ada) == []


def test_a_name_of_nothing_but_control_characters_is_refused(tmp_path, template):
    ada = shutil.copy(template, tmp_path / "ada.litq")
    with pytest.raises(LitqError) as refused:
        merge(ada, bobs_file(template, tmp_path, "\x1b\x07", "wrong population"))
    assert str(refused.value) == ("edited.jsonl: line 2: an event needs its reviewer's "
                                  "name; '\\x1b\\x07' is nothing but control characters")
    assert stored(ada) == []


def test_what_the_store_takes_in_is_plain(tmp_path, template):
    path = shutil.copy(template, tmp_path / "p.litq")
    with Project.open(path) as project:
        screening = store.find_screening(project, "T", "s")
        first, second = store.items(project, screening.id)[:2]
        made = project.write(store.decide_op(screening, first, "exclude",
                                             store.Context("Ada\n\x1b[31m"),
                                             reason="wrong\x1bpopulation")).value
        assert (made.reviewer, made.reason) == ("Ada [31m", "wrong population")
        resolved = project.write(store.resolve_op(screening, second, "include",
                                                  "\x9b2J third")).value
        assert resolved.reviewer == "2J third"
        project.write(store.set_reasons_op(screening.id, ["a\x1bb", "a b", " c\t"]))
        assert store.get_screening(project, screening.id).reasons == ("a b", "c")
        for refused, says in (
                (lambda: store.set_reasons_op(screening.id, ["ok", "\x1b"]),
                 "an exclusion reason needs a text; '\\x1b' is nothing but control characters"),
                (lambda: store.decide_op(screening, first, "include", store.Context("\x07")),
                 "every decision needs the reviewer's name; '\\x07' is nothing but control "
                 "characters"),
                (lambda: store.unblind_op(screening, "\x00"),
                 "unblinding needs the reviewer's name; '\\x00' is nothing but control "
                 "characters")):
            with pytest.raises(LitqError) as error:
                refused()
            assert str(error.value) == says
        assert ScreeningSession(project, screening, "Ada\n\x1b[31m").reviewer == "Ada [31m"
