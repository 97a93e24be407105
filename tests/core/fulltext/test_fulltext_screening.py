"""A full-text screening started from a title/abstract screening: its items are the
final includes (a resolution wins, an open conflict holds a record back), with maybe on
request; exclusions need one of its reasons; a report not retrieved is its own decision
and PRISMA counts it as not retrieved."""

import pytest

from litqeval_gui.core.errors import LitqError
from litqeval_gui.core.projectfile.project import Project
from litqeval_gui.core.screening.fulltext import (
    DEFAULT_REASONS,
    create_fulltext_screening,
    parent_of,
)
from litqeval_gui.core.screening.log import store
from litqeval_gui.core.screening.prisma.flow import prisma_counts, prisma_flow
from tests.support.prisma import ANN, build_review

BOB = store.Context(reviewer="bob")


@pytest.fixture(scope="module")
def built(tmp_path_factory):
    return build_review(tmp_path_factory.mktemp("review"))


def test_items_are_the_final_includes_and_maybe_on_request(built, tmp_path):
    path = tmp_path / "p.litq"
    path.write_bytes(built.read_bytes())
    with Project.open(path) as project:
        ta = store.find_screening(project, "T", "ta")
        items = store.items(project, ta.id)  # 1-8 include, 9 maybe, 10-12 exclude
        project.write(store.decide_op(ta, items[0], "exclude", BOB, reason="off topic"))
        project.write(store.decide_op(ta, items[10], "include", BOB))
        project.write(store.resolve_op(ta, items[10], "include", "consensus"))
        ft = create_fulltext_screening(project, ta, "full")
        assert (ft.phase, ft.scheme, ft.lists, ft.reasons) == (
            "full_text", ta.scheme, ta.lists, DEFAULT_REASONS)
        # items[0] is in an open conflict; items[10] was resolved to include
        assert store.items(project, ft.id) == [*items[1:8], items[10]]
        assert parent_of(project, ft) == ta and parent_of(project, ta) is None
        with_maybe = create_fulltext_screening(project, ta, "full+maybe", with_maybe=True,
                                               reasons=("duplicate",))
        assert store.items(project, with_maybe.id) == [*items[1:9], items[10]]
        assert with_maybe.reasons == ("duplicate",)


def test_refusals_are_one_line_and_change_nothing(built, tmp_path):
    path = tmp_path / "p.litq"
    path.write_bytes(built.read_bytes())
    with Project.open(path) as project:
        ta, ft = store.find_screening(project, "T", "ta"), store.find_screening(project, "T", "ft")
        before = len(store.screenings(project, "T"))
        with pytest.raises(LitqError, match="^screening 'ft' is already a full-text screening"):
            create_fulltext_screening(project, ft, "again")
        with pytest.raises(LitqError, match="^topic 'T' already has a screening named 'ft'$"):
            create_fulltext_screening(project, ta, "ft")
        empty = store.create_screening(project, "T", "empty", ["pubmed"])
        with pytest.raises(LitqError, match="^screening 'empty' has no included records yet$"):
            create_fulltext_screening(project, empty, "nothing")
        assert len(store.screenings(project, "T")) == before + 1


def test_exclusion_needs_a_reason_and_not_retrieved_is_counted(built, tmp_path):
    path = tmp_path / "p.litq"
    path.write_bytes(built.read_bytes())
    with Project.open(path) as project:
        ta = store.find_screening(project, "T", "ta")
        ft = create_fulltext_screening(project, ta, "full", with_maybe=True)
        first, second, third, fourth = store.items(project, ft.id)[:4]
        events = len(store.events(project, ft.id))
        with pytest.raises(LitqError, match="^an exclusion at full text needs a reason"):
            project.write(store.decide_op(ft, first, "exclude", ANN))
        with pytest.raises(LitqError, match="^'off topic' is not one of the screening's"):
            project.write(store.decide_op(ft, first, "exclude", ANN, reason="off topic"))
        with pytest.raises(LitqError, match="^'not_retrieved' is not a label of a "
                                            "include_exclude_maybe screening"):
            project.write(store.decide_op(ta, first, "not_retrieved", ANN))
        assert len(store.events(project, ft.id)) == events == 0
        project.write(store.decide_op(ft, first, "exclude", ANN, reason="wrong outcome"))
        project.write(store.decide_op(ft, second, "not_retrieved", ANN))
        project.write(store.decide_op(ft, third, "include", ANN))
        project.write(store.decide_op(ft, fourth, "not_retrieved", ANN))
        project.write(store.decide_op(ft, fourth, "include", ANN))  # found after all
        c = prisma_counts(project, "T", fulltext="full")
        assert (c.sought, c.not_retrieved, c.assessed, c.excluded_fulltext, c.included) == (
            9, 1, 3, {"wrong outcome": 1}, 2)  # the 8 includes and the maybe sent on
        assert c.pending_sought == {"not yet decided": 5} and c.unbalanced() == []
        flow = prisma_flow(project, "T", fulltext="full")
        assert flow.records("not_retrieved") == [second]
        assert flow.records("sought")[:4] == [first, second, third, fourth]
        assert flow.records("sought") == store.items(project, ft.id)
