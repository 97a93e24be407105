"""The project lock under a race: processes released by one barrier all try to take it
in the same instant, round after round, half of the rounds over a stale lock file
naming a dead process. Exactly one may win each round."""

import json
import multiprocessing
from pathlib import Path

from litqeval_gui.core.errors import ProjectLockedError
from litqeval_gui.core.projectfile.locking import ProjectLock
from tests.fuzz.support import COUNTS, scale

RACERS = 4


def _racer(path: str, rounds: int, index: int, barrier, wins) -> None:
    for round_ in range(rounds):
        barrier.wait()
        lock = ProjectLock(Path(path))
        try:
            lock.acquire()
            won = True
        except ProjectLockedError:
            won = False
        wins[round_ * RACERS + index] = won
        barrier.wait()  # everyone has tried while the winner still holds it
        if won:
            lock.release()
        if index == 0 and round_ % 2 == 0:  # a stale lock file for the next round
            Path(f"{path}.lock").write_text(json.dumps({"pid": 999_999_999, "host": "x"}))
        barrier.wait()


def test_exactly_one_racer_takes_the_lock_every_round(tmp_path):
    rounds = scale(40, 1000)
    context = multiprocessing.get_context("fork")
    barrier = context.Barrier(RACERS)
    wins = context.Array("b", rounds * RACERS)
    path = str(tmp_path / "p.litq")
    procs = [context.Process(target=_racer, args=(path, rounds, i, barrier, wins))
             for i in range(RACERS)]
    for proc in procs:
        proc.start()
    for proc in procs:
        proc.join(timeout=600)
    assert [proc.exitcode for proc in procs] == [0] * RACERS
    winners = [sum(wins[r * RACERS:(r + 1) * RACERS]) for r in range(rounds)]
    COUNTS["lock race: rounds"] += rounds
    COUNTS["lock race: rounds with exactly one winner"] += winners.count(1)
    assert winners == [1] * rounds
