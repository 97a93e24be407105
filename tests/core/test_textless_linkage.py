"""Records without a title or abstract (issue 28 §2) are linked by their identifiers only:
two empty titles are never a title match, and a verdict on one such pair does not reach
another pair by a shared fingerprint."""

from litqeval_gui.core.jobs import run_job
from litqeval_gui.core.records.linkage import (
    LinkItem,
    find_links,
    fingerprint,
    group,
    item_from_record,
)
from litqeval_gui.core.records.model import Record


def textless(key: int, **ids) -> LinkItem:
    return item_from_record(key, Record(year=2001, **ids))


def links(items, **options):
    return {(link.a, link.b): (link.method, link.certain)
            for link in run_job(find_links(items, **options))}


def test_textless_records_link_by_a_shared_identifier_and_never_by_their_empty_titles():
    items = [textless(1, pmid="1001"), textless(2, pmid="1002"),
             textless(3, pmid="1001", doi="10.1/a"), textless(4, doi="10.1/b"),
             textless(5, ids={"docid": "D-5"}), textless(6, ids={"docid": "D-6"}),
             item_from_record(7, Record(title="A study of robotic suturing in children",
                                        year=2001, pmid="1007"))]
    assert links(items) == {(1, 3): ("pmid", True)}
    assert group(range(1, 8), run_job(find_links(items))) == {
        1: 1, 2: 2, 3: 1, 4: 4, 5: 5, 6: 6, 7: 7}


def test_a_verdict_on_two_textless_records_stays_with_that_pair():
    x, y = textless(1, pmid="1001"), textless(2, pmid="1002")
    z, w = textless(3, pmid="1003"), textless(4, pmid="1004")
    assert len({fingerprint(i) for i in (x, y, z, w)}) == 4
    same = {frozenset({fingerprint(x), fingerprint(y)}): True}
    assert links([x, y, z, w], verdicts=same) == {(1, 2): ("user", True)}
    # the same content imported again keeps its fingerprint, so the verdict reaches it
    assert fingerprint(textless(9, pmid="1001")) == fingerprint(x)
