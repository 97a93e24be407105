"""De-duplication of 100 000 synthetic records with 10 % near-duplicates.

Goals: ``find_links`` under 30 s on the 2-core machine, peak memory under 2 GB.
Memory is the process's peak resident set size (``resource.getrusage`` ``ru_maxrss``),
which includes the generated records; the growth during linking is printed too.

Baseline, timed in the same run: an exact-key pass — one dict lookup per
normalised identifier and per exact normalised title, then Links for every hit —
i.e. what de-duplication costs without any fuzzy matching. Its precision/recall
is printed as well, to show what the fuzzy and subtitle rules add.
"""

from __future__ import annotations

import resource
import sys
import time
from collections.abc import Sequence
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))  # tests.support: test data

from support import figure  # noqa: E402

from litqeval_gui.core.jobs import run_job
from litqeval_gui.core.records.linkage import Link, LinkItem, find_links, group, item_from_record
from tests.support.synthetic import generate, pair_quality  # noqa: E402

N = 100_000
DUP_RATE = 0.1


def exact_key_links(items: Sequence[LinkItem]) -> list[Link]:
    """Baseline: link each item to the first earlier item with an equal identifier or title."""
    first: dict[tuple[str, str], int] = {}
    found = []
    for item in items:
        keys = [*item.ids, ("title", item.title)] if item.title else list(item.ids)
        for key in keys:
            seen = first.setdefault(key, item.key)
            if seen != item.key:
                found.append(Link(seen, item.key, key[0], 1.0, True))
    return found


def peak_rss_mb() -> float:
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024  # KiB on Linux


def timed(label: str, func, *args):
    start = time.perf_counter()
    result = func(*args)
    elapsed = time.perf_counter() - start
    print(f"{label:<38} {elapsed:7.2f} s")
    return result, elapsed


def main() -> int:
    (records, true_pairs), _ = timed(f"generate({N:_}, {DUP_RATE})", generate, N, DUP_RATE)
    print(f"  {len(true_pairs)} true duplicate pairs")
    items, _ = timed("item_from_record (normalising)",
                     lambda: [item_from_record(i, r) for i, r in enumerate(records)])
    rss_before = peak_rss_mb()

    baseline, base_time = timed("baseline: exact-key pass", exact_key_links, items)
    links, link_time = timed("find_links", lambda: run_job(find_links(items)))
    rss_after = peak_rss_mb()
    groups, _ = timed("group", group, range(len(items)), links)

    certain = sum(link.certain for link in links)
    print(f"  {len(links)} links: {certain} certain, {len(links) - certain} uncertain")
    precision, recall = pair_quality(groups, true_pairs)
    base_precision, base_recall = pair_quality(group(range(len(items)), baseline), true_pairs)
    print(f"find_links / exact-key baseline time   {link_time / base_time:7.1f} x")
    print(f"precision / recall (pairs in groups)   {precision:.4f} / {recall:.4f}")
    print(f"  baseline precision / recall          {base_precision:.4f} / {base_recall:.4f}")
    print(f"peak RSS (ru_maxrss) before linking    {rss_before:7.0f} MB")
    print(f"peak RSS (ru_maxrss) after linking     {rss_after:7.0f} MB "
          f"(+{rss_after - rss_before:.0f} MB)")
    ok = link_time < 30 and rss_after < 2048 and precision >= 0.95 and recall >= 0.95
    print("goals (< 30 s, < 2 GB, P and R >= 0.95):", "met" if ok else "NOT met")
    figure(f"find_links, {N:,} records", f"{link_time:.1f} s ({link_time / base_time:.1f}x "
           "exact-key pass)", "< 30 s", link_time < 30)
    figure("peak RSS after linking", f"{rss_after:.0f} MB", "< 2048 MB", rss_after < 2048)
    figure("pair precision", f"{precision:.4f} (exact-key {base_precision:.4f})", ">= 0.95",
           precision >= 0.95)
    figure("pair recall", f"{recall:.4f} (exact-key {base_recall:.4f})", ">= 0.95",
           recall >= 0.95)
    return 0


if __name__ == "__main__":
    sys.exit(main())
