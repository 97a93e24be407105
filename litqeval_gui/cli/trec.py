"""The commands over TREC runs and qrels, without a project: tar-eval, pool-simulate."""

from __future__ import annotations

import argparse
from pathlib import Path

from litqeval_gui.cli.common import Command, TextProgress, emit
from litqeval_gui.core.errors import LitqError
from litqeval_gui.core.trec.evaluate import DEFAULT_CUTOFFS, TAR_KEYS, tar_eval
from litqeval_gui.core.trec.files import TIES
from litqeval_gui.core.trec.simulate import GRIDS, pool_simulate
from litqeval_gui.metrics.pool_simulation import MEASURES
from litqeval_gui.metrics.tar import CONVENTIONS

_HEADERS = {"ap": "AP", "p_at_r": "P@r", "tnr_at_r": "TNR@r", "np_at_r": "nP@r",
            "snp_at_r": "snP@r", "wss_at_r": "WSS@r", "last_rel": "last_rel"}


def _cell(value: float | None) -> str:
    return f" {value:>9.4f}" if value is not None else f" {'-':>9}"


def _cutoffs(text: str) -> tuple[int, ...]:
    try:
        return tuple(int(part) for part in text.split(",") if part.strip())
    except ValueError:
        raise LitqError(f"--k expects cut-offs such as 10,100,1000, got {text!r}") from None


def cmd_tar_eval(args: argparse.Namespace) -> None:
    if len(args.files) < 2:
        raise LitqError("tar-eval needs at least one run file and then the qrels file")
    *runs, qrels = args.files
    document = tar_eval(runs, qrels, args.recall, args.ties, args.convention, _cutoffs(args.k))

    def text() -> str:
        keys = ["ap", *TAR_KEYS]
        head = f"{'topic':<12}" + "".join(f"{_HEADERS[k]:>9}" for k in keys)
        lines = [f"recall level {args.recall:g}, convention {args.convention}, "
                 f"ties {args.ties}"]
        for run in document["runs"]:
            lines += ["", f"run {run['run']}", head]
            for topic, values in run["topics"].items():
                if "ap" not in values:
                    lines.append(f"{topic:<12} {values['reason']}")
                else:
                    lines.append(f"{topic:<12}" + "".join(_cell(values[k]) for k in keys))
            mean = run["mean"]
            lines.append(f"{'mean (' + str(mean['topics']) + ')':<12}"
                         + "".join(_cell(mean[k]) for k in keys))
            lines += _left_out(f"run {run['run']}", run)
        lines += _left_out(f"qrels {qrels.name}", document.get("qrels", {}))
        return "\n".join(lines)

    emit(args, document, text)


def _left_out(what: str, read: dict) -> list[str]:
    """The line saying how many malformed lines of a file were left out, if any."""
    if not read.get("rejected_lines"):
        return []
    count = read["rejected_lines"]
    return [f"{what}: {count} malformed line{'s' * (count != 1)} left out "
            f"(first: {read['first_rejected'][0]})"]


def cmd_pool_simulate(args: argparse.Namespace) -> None:
    progress = TextProgress()
    try:
        document = pool_simulate(args.runs, args.qrels, depth=args.depth, grid=args.grid,
                                 measure=args.measure, low_yield=not args.no_low_yield,
                                 ties=args.ties, jobs=args.jobs, dask_address=args.dask,
                                 progress=progress)
    finally:
        progress.finish()

    def text() -> str:
        lines = [f"{document['runs']} runs, {document['topics']} topics, depth "
                 f"{document['depth']}, {len(document['settings'])} settings, scored by "
                 f"{document['measure']} (* = on the effort/τ frontier)",
                 f"{'w':>3}{'W':>3}{'t':>6}{'l':>3}{'E':>8}{'R':>8}{'tau':>8}{'tau_ap':>8}"
                 f"{'rms':>8}"]
        for s in document["settings"]:
            lines.append(f"{s['w']:>3}{s['W']:>3}{s['t']:>6g}{s['l']:>3}"
                         + "".join(_cell(s[k])[1:] for k in ("E", "R", "tau", "tau_ap", "rms"))
                         + (" *" if s["frontier_tau"] else ""))
        for name, read in document.get("rejected", {}).items():
            lines += _left_out(name, read)
        return "\n".join(lines)

    emit(args, document, text)


def register(command: Command) -> None:
    """Add this module's commands to the ``litqeval`` parser."""
    p = command("tar-eval", cmd_tar_eval,
                "evaluate TREC runs against qrels: AP, recall@k and the TAR measures at a "
                "recall level (P@r, TNR@r, nP@r, snP@r, WSS@r, last_rel)", project=False)
    p.add_argument("files", nargs="+", type=Path, metavar="RUN [RUN ...] QRELS")
    p.add_argument("--recall", type=float, default=0.95, help="recall level r (default 0.95)")
    p.add_argument("--ties", choices=TIES, default="file",
                   help="equal scores: file order (default) or trec_eval's docid descending")
    p.add_argument("--convention", choices=CONVENTIONS, default="paper",
                   help="paper: TP = ceil(r·|I|), last_rel in %% of N; clef: the CLEF TAR "
                        "script's round(r·|I|), WSS 0 when r is not reached, last_rel a rank")
    p.add_argument("--k", default=",".join(map(str, DEFAULT_CUTOFFS)),
                   help="recall@k cut-offs (default 10,100,1000)")
    p = command("pool-simulate", cmd_pool_simulate,
                "simulate incremental variable-depth pooling with complete qrels over the "
                "thesis grid: E, R, Kendall's tau, tau_AP and RMS per setting", project=False)
    p.add_argument("--runs", nargs="+", type=Path, required=True, metavar="DIR_OR_FILE",
                   help="run files, or folders holding them")
    p.add_argument("--qrels", type=Path, required=True)
    p.add_argument("--depth", type=int, default=100, help="full pool depth (default 100)")
    p.add_argument("--grid", choices=GRIDS, default="thesis",
                   help="thesis: the 500 (w, W, t, l) settings; or the presets")
    p.add_argument("--measure", choices=MEASURES, default="map")
    p.add_argument("--no-low-yield", action="store_true",
                   help="stop low-yield topics early too (nrels(20)/|P(20)| <= 0.1)")
    p.add_argument("--ties", choices=TIES, default="file")
    p.add_argument("--jobs", type=int, default=1, help="local worker processes")
    p.add_argument("--dask", metavar="ADDRESS",
                   help='run on an existing Dask cluster (pip install "litqeval-gui[dask]")')
