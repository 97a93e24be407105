"""The commands over TREC runs and qrels, without a project: tar-eval, pool-simulate."""

from __future__ import annotations

import argparse
from pathlib import Path

from litqeval_gui.cli.common import Command, TextProgress, emit
from litqeval_gui.core.errors import LitqError
from litqeval_gui.core.trec.evaluate import (
    CONVENTION_RULES,
    DEFAULT_CUTOFFS,
    TAR_KEYS,
    measure_units,
    tar_eval,
)
from litqeval_gui.core.trec.files import TIES
from litqeval_gui.core.trec.simulate import GRIDS, pool_simulate
from litqeval_gui.metrics.pool_simulation import MEASURES
from litqeval_gui.metrics.tar import CONVENTIONS, Convention

_HEADERS = {"ap": "AP", "p_at_r": "P@r", "tnr_at_r": "TNR@r", "np_at_r": "nP@r",
            "snp_at_r": "snP@r", "wss_at_r": "WSS@r", "last_rel": "last_rel"}
_CELL_WIDTH = 10


def column_names(convention: Convention) -> dict[str, str]:
    """The text columns' names: ``last_rel%`` where last_rel is a percentage of N
    (paper), ``last_rel`` where it is the CLEF scripts' rank."""
    return {**_HEADERS, "last_rel": "last_rel" if convention == "clef" else "last_rel%"}


def header_lines(recall: float, convention: Convention, ties: str) -> list[str]:
    """The text output's first lines: settings, what the convention is, every unit."""
    names = column_names(convention)
    rule = CONVENTION_RULES[convention] + (" (--convention clef)" if convention != "clef"
                                           else "")
    fractions = ", ".join(names[k] for k in ("ap", *TAR_KEYS) if k != "last_rel")
    units = measure_units(convention)
    return [f"recall level {recall:g}, convention {convention}, ties {ties}",
            f"{convention}: {rule}",
            f"units: {fractions} are fractions (not %); {names['last_rel']}: "
            f"{units['last_rel']}"]


def _cell(value: float | None) -> str:
    return f" {value:>9.4f}" if value is not None else f" {'-':>9}"  # _CELL_WIDTH wide


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
        names = column_names(args.convention)
        head = f"{'topic':<12}" + "".join(f"{names[k]:>{_CELL_WIDTH}}" for k in keys)
        lines = header_lines(args.recall, args.convention, args.ties)
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
    p = command("tar-eval", cmd_tar_eval)
    p.description += (
        ". --convention clef reproduces the official CLEF TAR scripts' numbers (WSS@r, "
        "last_rel as a rank); the default, paper, takes TP = ceil(r·|I|) instead of "
        "round(r·|I|), so WSS@r can differ, and prints last_rel as a percentage of N "
        "(column last_rel%). P@r, TNR@r, nP@r, snP@r, WSS@r and AP are fractions.")
    p.add_argument("files", nargs="+", type=Path, metavar="RUN [RUN ...] QRELS")
    p.add_argument("--recall", type=float, default=0.95, help="recall level r (default 0.95)")
    p.add_argument("--ties", choices=TIES, default="file",
                   help="equal scores: file order (default) or trec_eval's docid descending")
    p.add_argument("--convention", choices=CONVENTIONS, default="paper",
                   help="clef reproduces the CLEF TAR scripts' (eval_measures.py) numbers: "
                        "TP = round(r·|I|), WSS@r 0 when the run never reaches r, last_rel "
                        "the rank of the last relevant retrieved record. paper (default; "
                        "Kusa et al., SPEC §2) differs: TP = ceil(r·|I|), WSS@r computed "
                        "with the unretrieved candidates appended, and last_rel%% = "
                        "100·rank of the last relevant candidate / N")
    p.add_argument("--k", default=",".join(map(str, DEFAULT_CUTOFFS)),
                   help="recall@k cut-offs (default 10,100,1000)")
    p = command("pool-simulate", cmd_pool_simulate)
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
