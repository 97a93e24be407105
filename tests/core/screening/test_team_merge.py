"""Decisions files and merging (issue 25 §2): idempotent, order-independent, matched by
fingerprint across differently ordered imports, foreign files refused, all or nothing."""

import csv
import json
import shutil

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from litqeval_gui.core.errors import LitqError
from litqeval_gui.core.jobs import run_job
from litqeval_gui.core.projectfile.project import Project
from litqeval_gui.core.records import ingest
from litqeval_gui.core.screening.log import store
from litqeval_gui.core.screening.reviewers import team
from litqeval_gui.core.screening.reviewers.exchange import export_decisions, merge_decisions
from tests.support.screening import screening_project


@pytest.fixture(scope="module")
def template(tmp_path_factory):
    """A project with topic T, list L (30 records) and screening s, no decision yet."""
    path, _ = screening_project(tmp_path_factory.mktemp("team"), 30)
    with Project.open(path) as project:
        store.create_screening(project, "T", "s", ["L"])
    return path


def copy(template, folder, name):
    target = folder / f"{name}.litq"
    shutil.copy(template, target)
    return target


def screen(path, reviewer, labels, *, start=0):
    """``reviewer`` decides items start, start+1, … with ``labels``; returns record ids."""
    with Project.open(path) as project:
        screening = store.find_screening(project, "T", "s")
        ids = store.items(project, screening.id)[start:start + len(labels)]
        for record_id, label in zip(ids, labels, strict=True):
            project.write(store.decide_op(screening, record_id, label, store.Context(reviewer)))
        return ids


def state(path):
    """Each reviewer's current labels and the set of event identities."""
    with Project.open(path) as project:
        screening = store.find_screening(project, "T", "s")
        decided = {who: {r: e.label for r, e in d.items()}
                   for who, d in team.by_reviewer(project, screening.id).items()}
        events = sorted((e.reviewer, e.at, e.kind, e.record_id, e.label)
                        for e in store.events(project, screening.id))
        return decided, events


def export(path, reviewer, out):
    with Project.open(path) as project:
        return export_decisions(project, store.find_screening(project, "T", "s"), reviewer, out)


def merge(path, source):
    with Project.open(path) as project:
        return run_job(merge_decisions(project, source))


def test_merge_is_idempotent_and_order_independent(tmp_path, template):
    ada, bob, eve = (copy(template, tmp_path, n) for n in ("ada", "bob", "eve"))
    screen(ada, "Ada", ["include", "exclude", "include", "maybe"])
    screen(bob, "Bob", ["include", "include", "include", "exclude", "exclude"])
    screen(eve, "Eve", ["exclude", "exclude"], start=3)
    files = {n: tmp_path / f"{n}.jsonl" for n in ("Ada", "Bob", "Eve")}
    assert export(ada, "Ada", files["Ada"]) == 4
    export(bob, "Bob", files["Bob"])
    export(eve, "Eve", files["Eve"])
    first, second = copy(template, tmp_path, "one"), copy(template, tmp_path, "two")
    report = merge(first, files["Ada"])
    assert (report.added, report.present, report.unmatched) == (4, 0, 0)
    merge(first, files["Bob"])
    merge(first, files["Eve"])
    again = merge(first, files["Bob"])  # twice = once
    assert (again.added, again.present) == (0, 5)
    for name in ("Eve", "Bob", "Ada"):
        merge(second, files[name])
    assert state(first) == state(second)
    decided, _ = state(first)
    assert sorted(decided) == ["Ada", "Bob", "Eve"]
    assert list(decided["Eve"].values()) == ["exclude", "exclude"]


def test_conflicts_reported_by_merge(tmp_path, template):
    ada, bob = copy(template, tmp_path, "ada"), copy(template, tmp_path, "bob")
    ids = screen(ada, "Ada", ["include", "exclude", "include", "maybe"])
    screen(bob, "Bob", ["include", "include", "include", "maybe"])
    export(bob, "Bob", tmp_path / "bob.jsonl")
    report = merge(ada, tmp_path / "bob.jsonl")
    # record 2: include vs exclude; record 4: maybe on both sides (nobody decided it)
    assert (report.conflicts_before, report.conflicts_after) == (0, 2)
    assert report.new_conflicts == [ids[1], ids[3]]


def test_foreign_file_refused_and_project_unchanged(tmp_path, template):
    ada = copy(template, tmp_path, "ada")
    screen(ada, "Ada", ["include"])
    export(ada, "Ada", tmp_path / "ada.jsonl")
    other, _ = screening_project(tmp_path, 30)  # same records, a screening of its own
    with Project.open(other) as project:
        store.create_screening(project, "T", "s", ["L"])
    before = state(other)
    with pytest.raises(LitqError, match="from another project") as refused:
        merge(other, tmp_path / "ada.jsonl")
    assert "\n" not in str(refused.value)
    assert state(other) == before
    (tmp_path / "junk.jsonl").write_text('{"format": "something else"}\n')
    with pytest.raises(LitqError, match="not a LitQEval decisions file"):
        merge(other, tmp_path / "junk.jsonl")


def test_bad_label_midway_changes_nothing(tmp_path, template):
    ada, bob = copy(template, tmp_path, "ada"), copy(template, tmp_path, "bob")
    screen(ada, "Ada", ["include", "exclude", "include"])
    export(ada, "Ada", tmp_path / "ada.jsonl")
    lines = (tmp_path / "ada.jsonl").read_text().splitlines()
    last = json.loads(lines[-1])
    last["label"] = "perhaps"
    (tmp_path / "ada.jsonl").write_text("\n".join([*lines[:-1], json.dumps(last)]) + "\n")
    before = state(bob)
    with pytest.raises(LitqError, match="'perhaps'"):
        merge(bob, tmp_path / "ada.jsonl")
    assert state(bob) == before


def test_records_matched_across_differently_ordered_imports(tmp_path, template):
    ada = copy(template, tmp_path, "ada")
    decided_ids = screen(ada, "Ada", ["include", "exclude", "maybe", "include"])
    with Project.open(ada) as project:
        titles = [store.record_title(project, r) for r in decided_ids]
    export(ada, "Ada", tmp_path / "ada.jsonl")
    # the colleague's copy: the same export imported in reverse order, another screening
    # identity taken over from the file so the merge accepts it
    rows = list(csv.reader(open(template.parent / "L.csv", encoding="utf-8")))
    source = tmp_path / "R.csv"
    with open(source, "w", encoding="utf-8", newline="") as handle:
        csv.writer(handle, quoting=csv.QUOTE_ALL).writerows([rows[0], *reversed(rows[1:])])
    other = tmp_path / "other.litq"
    with Project.create(other) as project:
        run_job(ingest.import_file(project, source, topic="T", role="results", name="L"))
        screening = store.create_screening(project, "T", "s", ["L"])
        uuid = json.loads((tmp_path / "ada.jsonl").read_text().splitlines()[0])["screening"]
        project.write(lambda p: p.db.execute("UPDATE screenings SET uuid = ? WHERE id = ?",
                                             [uuid["uuid"], screening.id]) and store.DECISIONS)
    report = merge(other, tmp_path / "ada.jsonl")
    assert (report.added, report.unmatched) == (4, 0)
    with Project.open(other) as project:
        screening = store.find_screening(project, "T", "s")
        mine = store.reviewer_decisions(project, screening.id, "Ada")
        assert [store.record_title(project, e.record_id) for e in mine] == titles
        assert [e.label for e in mine] == ["include", "exclude", "maybe", "include"]
        assert [e.record_id for e in mine] != decided_ids  # other ids, same records


def test_unmatched_records_reported_with_examples(tmp_path, template):
    ada, bob = copy(template, tmp_path, "ada"), copy(template, tmp_path, "bob")
    screen(ada, "Ada", ["include", "exclude"])
    export(ada, "Ada", tmp_path / "ada.jsonl")
    lines = (tmp_path / "ada.jsonl").read_text().splitlines()
    event = json.loads(lines[1])
    event["record"] = {"doi": "", "pmid": "", "title": "a paper nobody imported"}
    (tmp_path / "ada.jsonl").write_text("\n".join([lines[0], json.dumps(event), lines[2]]))
    report = merge(bob, tmp_path / "ada.jsonl")
    assert (report.added, report.unmatched) == (1, 1)
    assert report.examples == ["a paper nobody imported"]


def test_merging_a_whole_copy_takes_its_decisions(tmp_path, template):
    ada, bob = copy(template, tmp_path, "ada"), copy(template, tmp_path, "bob")
    screen(ada, "Ada", ["include", "exclude"])
    screen(bob, "Bob", ["exclude", "exclude", "include"])
    report = merge(ada, bob)
    assert report.added == 3
    assert merge(ada, bob).added == 0
    decided, _ = state(ada)
    assert {who: list(d.values()) for who, d in decided.items()} == {
        "Ada": ["include", "exclude"], "Bob": ["exclude", "exclude", "include"]}
    with pytest.raises(LitqError, match="merged into itself"):
        merge(ada, ada)


@settings(max_examples=15, deadline=None, suppress_health_check=[
    HealthCheck.function_scoped_fixture])
@given(data=st.data())
def test_any_split_of_a_reviewers_events_merges_back(tmp_path_factory, template, data):
    folder = tmp_path_factory.mktemp("split")
    ada = copy(template, folder, "ada")
    actions = data.draw(st.lists(st.sampled_from(
        ["include", "exclude", "maybe", "undo", "redo"]), min_size=1, max_size=14))
    with Project.open(ada) as project:
        screening = store.find_screening(project, "T", "s")
        ids = store.items(project, screening.id)
        context = store.Context("Ada")
        for step, action in enumerate(actions):
            if action == "undo":
                project.write(store.undo_op(screening, context))
            elif action == "redo":
                project.write(store.redo_op(screening, context))
            else:
                project.write(store.decide_op(screening, ids[step % 4], action, context))
        wanted = {e.record_id: e.label for e in store.current_decisions(project, screening.id)}
    out = folder / "all.jsonl"
    if not wanted and not [a for a in actions if a not in ("undo", "redo")]:
        return
    export(ada, "Ada", out)
    header, *lines = out.read_text().splitlines()
    parts = data.draw(st.lists(st.integers(0, 3), min_size=len(lines), max_size=len(lines)))
    order = data.draw(st.permutations(range(4)))
    fresh = copy(template, folder, "fresh")
    for part in order:
        chosen = [line for line, p in zip(lines, parts, strict=True) if p == part]
        if chosen:
            (folder / f"{part}.jsonl").write_text("\n".join([header, *chosen]) + "\n")
            merge(fresh, folder / f"{part}.jsonl")
    with Project.open(fresh) as project:
        screening = store.find_screening(project, "T", "s")
        got = {e.record_id: e.label
               for e in store.reviewer_decisions(project, screening.id, "Ada")}
    assert got == wanted


@pytest.mark.parametrize("field, value", [("note", ["a", "list"]), ("position", "3"),
                                          ("tags", "not-a-list"), ("kind", "delete"),
                                          ("record", {"doi": {"x": 1}})])
def test_a_damaged_event_is_one_line_and_changes_nothing(tmp_path, template, field, value):
    ada, bob = copy(template, tmp_path, "ada"), copy(template, tmp_path, "bob")
    screen(ada, "Ada", ["include", "exclude"])
    export(ada, "Ada", tmp_path / "ada.jsonl")
    header, first, second = (tmp_path / "ada.jsonl").read_text().splitlines()
    event = json.loads(second)
    event[field] = value
    (tmp_path / "ada.jsonl").write_text("\n".join([header, first, json.dumps(event)]) + "\n")
    before = state(bob)
    with pytest.raises(LitqError) as refused:
        merge(bob, tmp_path / "ada.jsonl")
    assert "\n" not in str(refused.value)
    assert state(bob) == before


def test_a_decisions_file_is_never_written_onto_a_project_and_never_half(tmp_path, template):
    ada, other = copy(template, tmp_path, "ada"), copy(template, tmp_path, "other")
    screen(ada, "Ada", ["include", "exclude"])
    before = state(ada)
    for target, says in ((ada, "the project"), (other, "SQLite database"),
                         (tmp_path, "is a folder")):
        with pytest.raises(LitqError, match=says):
            export(ada, "Ada", target)
    assert state(ada) == before  # the project is still a project, its decisions intact
    assert state(other)[1] == []
    with pytest.raises(LitqError, match="cannot write the decisions file"):
        export(ada, "Ada", tmp_path / "missing" / "ada.jsonl")
    (tmp_path / "ada.jsonl").write_text("an older export\n", encoding="utf-8")
    assert export(ada, "Ada", tmp_path / "ada.jsonl") == 2  # replaced whole
    lines = (tmp_path / "ada.jsonl").read_text(encoding="utf-8").splitlines()
    assert json.loads(lines[0])["events"] == 2 and len(lines) == 3
    assert sorted(p.name for p in tmp_path.iterdir()) == ["ada.jsonl", "ada.litq", "other.litq"]


def _rewritten(source, target, change):
    """The decisions file ``source`` with ``change(event)`` applied to each event line."""
    header, *events = [json.loads(line) for line in source.read_text().splitlines()]
    for event in events:
        change(event)
    target.write_text("\n".join(json.dumps(line) for line in [header, *events]) + "\n")
    return target


def test_a_decisions_file_decides_only_as_its_own_reviewer(tmp_path, template):
    """Bob's file that names Ada in an event, undoes Ada's decision, or resolves as
    consensus is refused whole in one line, and nothing changes; Bob's own file merges,
    and the report says per reviewer what it added."""
    ada, bob = copy(template, tmp_path, "ada"), copy(template, tmp_path, "bob")
    [record] = screen(ada, "Ada", ["exclude"])
    screen(bob, "Bob", ["include", "exclude"])
    export(ada, "Ada", tmp_path / "ada.jsonl")
    merge(bob, tmp_path / "ada.jsonl")  # Bob's copy knows Ada's decision
    export(bob, "Bob", tmp_path / "bob.jsonl")
    before = state(ada)

    def as_ada(event):
        event["reviewer"] = "Ada"
    spoofed = _rewritten(tmp_path / "bob.jsonl", tmp_path / "spoofed.jsonl", as_ada)
    with pytest.raises(LitqError) as refused:
        merge(ada, spoofed)
    assert str(refused.value) == (
        "spoofed.jsonl is 'Bob''s decisions file but 2 of its events are not theirs "
        "(line 2: a decide by 'Ada'; line 3: a decide by 'Ada'); a decisions file adds "
        "only its own reviewer's decisions; nothing was merged")

    def consensus(event):
        event["kind"], event["reviewer"] = "resolve", "consensus"
    with pytest.raises(LitqError, match="line 2: a resolve by 'consensus'"):
        merge(ada, _rewritten(tmp_path / "bob.jsonl", tmp_path / "c.jsonl", consensus))

    def undo_ada(event):
        ada_at = [e for e in store_events(ada) if e.record_id == record][0].at
        event.update(kind="undo", label="", target={"reviewer": "Ada", "at": ada_at})
    with pytest.raises(LitqError, match="line 2: an undo of a decision by 'Ada'"):
        merge(ada, _rewritten(tmp_path / "bob.jsonl", tmp_path / "u.jsonl", undo_ada))
    assert state(ada) == before  # Ada's exclude stands

    report = merge(ada, tmp_path / "bob.jsonl")
    assert (report.added, report.added_by) == (2, {"Bob": 2})
    with Project.open(ada) as project:
        screening = store.find_screening(project, "T", "s")
        assert team.by_reviewer(project, screening.id)["Ada"][record].label == "exclude"


def store_events(path):
    with Project.open(path) as project:
        return store.events(project, store.find_screening(project, "T", "s").id)
