"""The pooling commands: pool-create, pool-advance and pool-status (incremental
variable-depth pooling of a topic's runs, judged in the pool's screening or by qrels)."""

from __future__ import annotations

import argparse

from litqeval_gui.cli.common import Command, emit, open_for_writing
from litqeval_gui.core.errors import LitqError
from litqeval_gui.core.pooling import state, store
from litqeval_gui.core.pooling.state import PoolState
from litqeval_gui.core.projectfile.project import Project
from litqeval_gui.metrics.pooling import PRESETS, LowYieldRule


def _summary(s: PoolState) -> str:
    d = s.decision
    k_cr = "undetermined" if d.k_cr is None else str(d.k_cr)
    stop = (f"stopped at depth {d.stop_depth}: {s.why()}" if s.finished
            else f"continue: {s.why()}")
    return (f"{s.pool.topic} / {s.pool.name} [{s.pool.settings.params.label()}]: released "
            f"depth {s.released}, judged depth {s.judged_depth}, pool "
            f"{int(s.sizes[s.released - 1]) if s.released else 0}, judged {s.effort}, "
            f"relevant {s.relevant}, pending {len(s.pending)}; k_cr {k_cr}; {stop}")


def cmd_pool_create(args: argparse.Namespace) -> None:
    try:
        rule = None if args.no_low_yield else LowYieldRule(args.low_yield_depth,
                                                           args.low_yield_ratio)
    except ValueError as exc:
        raise LitqError(f"bad pool settings: {exc}") from None
    chosen = store.settings(args.preset, custom=args.custom, full_depth=args.full_depth,
                            low_yield=rule)
    with open_for_writing(args.project) as project:
        pool = store.create_pool(project, args.topic, args.pool, args.runs, chosen,
                                 qrels=args.qrels or (), screening=args.screening)
        found = state.pool_state(project, pool)
    emit(args, found.as_dict(), lambda: _summary(found))


def cmd_pool_advance(args: argparse.Namespace) -> None:
    with open_for_writing(args.project) as project:
        pool = store.find_pool(project, args.topic, args.pool)
        made = (state.advance_while_judged(project, pool) if args.while_judged
                else [state.advance(project, pool)])
        found = state.pool_state(project, store.get_pool(project, pool.id))
    document = {"advanced": [{"depth": a.depth, "added": a.added} for a in made],
                "state": found.as_dict()}
    emit(args, document, lambda: "\n".join([*(a.message() for a in made), _summary(found)]))


def cmd_pool_status(args: argparse.Namespace) -> None:
    if args.pool and not args.topic:
        raise LitqError("--pool needs --topic")
    with Project.open(args.project, readonly=True) as project:
        chosen = ([store.find_pool(project, args.topic, args.pool)] if args.pool
                  else store.pools(project, args.topic))
        found = [state.pool_state(project, pool) for pool in chosen]
        order = state.schedule(found)
    document = {"pools": [s.as_dict() for s in found],
                "next": [{"topic": s.pool.topic, "pool": s.pool.name} for s in order]}

    def text() -> str:
        lines = [_summary(s) for s in found] or ["no pools"]
        if order:
            lines.append("effort next: " + ", ".join(f"{s.pool.topic} / {s.pool.name}"
                                                     for s in order))
        return "\n".join(lines)

    emit(args, document, text)


def register(command: Command) -> None:
    p = command("pool-create", cmd_pool_create)
    p.add_argument("--topic", required=True)
    p.add_argument("--pool", required=True, help="the pool's name")
    p.add_argument("--runs", nargs="+", required=True, metavar="RUN",
                   help="result lists (NAME or list:NAME), model rankings "
                        "(ranking:SCREENING) or a list ranked by cosine to the core set "
                        "(cosine:LIST, needs the topic's evaluation vectors), best first")
    p.add_argument("--qrels", nargs="+", metavar="LIST",
                   help="lists whose grades are judgements (grade >= 1 relevant)")
    p.add_argument("--screening", metavar="NAME",
                   help="feed this existing screening (its decisions count) instead of a "
                        "new one named 'pool: POOL'")
    p.add_argument("--preset", choices=tuple(PRESETS), default="aggressive")
    p.add_argument("--custom", nargs=4, type=float, metavar=("w", "W", "t", "l"),
                   help="custom stop parameters instead of the preset")
    p.add_argument("--full-depth", type=int, default=100)
    p.add_argument("--low-yield-depth", type=int, default=20)
    p.add_argument("--low-yield-ratio", type=float, default=0.1)
    p.add_argument("--no-low-yield", action="store_true", help="leave out the low-yield rule")

    p = command("pool-advance", cmd_pool_advance)
    p.add_argument("--topic", required=True)
    p.add_argument("--pool", required=True)
    p.add_argument("--while-judged", action="store_true",
                   help="keep advancing while nothing released waits for a judgement")

    p = command("pool-status", cmd_pool_status)
    p.add_argument("--topic", help="only this topic's pools")
    p.add_argument("--pool", help="only this pool (needs --topic)")
