"""benchmarks/run_all.py: the figures and skips it reads from each benchmark's output, its
summary table, and its exit status (a crash fails the run, a missed goal does not)."""

from __future__ import annotations

import textwrap

from benchmarks.run_all import exit_status, parse_output, run, summary_rows, summary_table

MET_AND_NOT = textwrap.dedent("""\
    building a 100,000-record project…
    figure\topen → painted\t 812.0 ms (ratio 3.1)\t< 2000 ms\tmet
    scroll step + paint: 20.5 ms
    figure\tscroll step\t  20.50 ms (ratio 9.0)\t< 16 ms\tnot met
    figure\tpeak memory\t 950 MiB\t-\t-
    """)


def test_figures_are_read_in_order_and_the_prose_is_ignored():
    outcome = parse_output("bench_gui", MET_AND_NOT, 0)
    assert outcome.figures == [
        ("open → painted", "812.0 ms (ratio 3.1)", "< 2000 ms", "met"),
        ("scroll step", "20.50 ms (ratio 9.0)", "< 16 ms", "not met"),
        ("peak memory", "950 MiB", "-", "-")]
    assert outcome.skipped == []


def test_a_missed_goal_is_a_row_and_the_run_still_passes():
    outcomes = [parse_output("bench_gui", MET_AND_NOT, 0)]
    assert [row[4] for row in summary_rows(outcomes)] == ["met", "not met", "-"]
    assert exit_status(outcomes) == 0


def test_a_crash_fails_the_run_and_keeps_the_figures_it_printed():
    outcomes = [parse_output("bench_gui", MET_AND_NOT, 0),
                parse_output("bench_dedup", "figure\tfind_links\t12.0 s\t< 30 s\tmet\n"
                             "Traceback (most recent call last):\n", -9)]
    rows = summary_rows(outcomes)
    assert rows[-2:] == [("bench_dedup", "find_links", "12.0 s", "< 30 s", "met"),
                         ("bench_dedup", "-", "exit status -9", "-", "FAILED")]
    assert exit_status(outcomes) == 1


def test_skipped_and_silent_benchmarks_are_listed():
    how = "needs ASReview LAB in its own venv: …; then make bench ASREVIEW=/tmp/asr/bin/asreview"
    outcomes = [parse_output("bench_simulate_asreview", f"skipped\t{how}\n", 0),
                parse_output("bench_quiet", "done\n", 0)]
    assert summary_rows(outcomes) == [
        ("bench_simulate_asreview", "-", "-", "-", "skipped"),
        ("bench_quiet", "-", "no figures reported", "-", "-")]
    assert exit_status(outcomes) == 0


def test_the_table_aligns_its_columns_counts_the_verdicts_and_says_how_to_unskip():
    outcomes = [parse_output("bench_gui", MET_AND_NOT, 0),
                parse_output("bench_simulate_asreview", "skipped\tneeds ASReview\n", 0),
                parse_output("bench_dedup", "", 1)]
    lines = summary_table(outcomes).splitlines()
    assert lines[0].split() == ["benchmark", "figure", "measured", "goal", "result"]
    goal_column = lines[0].index("goal")
    assert lines[3][goal_column:].startswith("< 16 ms")
    assert lines[5][goal_column:].startswith("-")
    assert len(lines) == 2 + 5 + 3  # header, rule, 5 rows, blank, count, skip reason
    assert lines[-2] == ("1 met, 1 not met; skipped: bench_simulate_asreview; "
                         "failed: bench_dedup")
    assert lines[-1] == "bench_simulate_asreview skipped: needs ASReview"


def test_run_streams_the_output_unbuffered_and_reads_it(tmp_path, capsys, monkeypatch):
    monkeypatch.delenv("PYTHONUNBUFFERED", raising=False)
    script = tmp_path / "bench_fake.py"  # os._exit flushes nothing: a buffered line is lost
    script.write_text("import os\n"
                      "print('working')\n"
                      "print('figure\\tx\\t1 s\\t< 2 s\\tmet')\n"
                      "os._exit(3)\n")
    outcome = run(script)
    assert capsys.readouterr().out == "working\nfigure\tx\t1 s\t< 2 s\tmet\n"
    assert (outcome.name, outcome.returncode) == ("bench_fake", 3)
    assert outcome.figures == [("x", "1 s", "< 2 s", "met")]
