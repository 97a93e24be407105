"""Team screening offline (issue 25): screen-export-decisions, merge, conflicts,
agreement, screen-resolve, screen-unblind, screen-settings (dual or single screening) — over
:mod:`litqeval_gui.core.screening.reviewers.exchange`, ``team`` and ``store``.

Names and reasons read from a project are printed as plain one-line text
(:func:`~litqeval_gui.core.records.lists.plain_name`): a project stored before they were
made plain may hold a terminal's escapes in them."""

from __future__ import annotations

import argparse
from pathlib import Path

from litqeval_gui.cli.common import Command, TextProgress, emit, open_for_writing
from litqeval_gui.core.errors import LitqError
from litqeval_gui.core.jobs import run_job
from litqeval_gui.core.projectfile.project import Project
from litqeval_gui.core.records.lists import plain_name
from litqeval_gui.core.screening.log import store
from litqeval_gui.core.screening.reviewers import team
from litqeval_gui.core.screening.reviewers.exchange import export_decisions, merge_decisions


def cmd_export_decisions(args: argparse.Namespace) -> None:
    with Project.open(args.project, readonly=True) as project:
        screening = store.find_screening(project, args.topic, args.screening)
        count = export_decisions(project, screening, args.reviewer, args.out)
    emit(args, {"reviewer": args.reviewer, "events": count, "file": str(args.out)},
         lambda: f"{count} event(s) of {plain_name(args.reviewer)} written to {args.out}")


def cmd_merge(args: argparse.Namespace) -> None:
    progress = TextProgress()
    with open_for_writing(args.project) as project:
        report = run_job(merge_decisions(project, args.source, reviewers=args.reviewer),
                         progress)
    progress.finish()

    def text() -> str:
        lines = [f"merged into {', '.join(report.screenings)}: {report.added} event(s) added, "
                 f"{report.present} already present, {report.unmatched} unmatched; "
                 f"conflicts {report.conflicts_before} -> {report.conflicts_after}"]
        lines += [f"  {plain_name(name)}: {n} event(s) added"
                  for name, n in report.added_by.items()]
        lines += [f"  not taken: {n} event(s) of {plain_name(name)} (not named with "
                  "--reviewer)" for name, n in sorted(report.not_taken.items())]
        lines += [f"  not matched: {plain_name(title)}" for title in report.examples]
        if report.skipped_screenings:
            lines.append("screenings not in this project: "
                         + ", ".join(map(plain_name, report.skipped_screenings)))
        return "\n".join(lines)
    emit(args, report.as_dict(), text)


def cmd_conflicts(args: argparse.Namespace) -> None:
    with Project.open(args.project, readonly=True) as project:
        screening = store.find_screening(project, args.topic, args.screening)
        found = team.conflicts(project, screening.id)
        document = [{"record": c.record_id, "title": store.record_title(project, c.record_id),
                     "decisions": {who: {"label": e.label, "reason": e.reason, "note": e.note}
                                   for who, e in c.decisions.items()},
                     "resolution": None if c.resolution is None else {
                         "label": c.resolution.label, "by": c.resolution.reviewer}}
                    for c in found]

    def text() -> str:
        if not document:
            return "no conflicts"
        return "\n".join(
            f"{c['record']}: " + "; ".join(f"{plain_name(who)} {d['label']}"
                                           + (f" ({plain_name(d['reason'])})"
                                              if d["reason"] else "")
                                           for who, d in c["decisions"].items())
            + (f" -> {c['resolution']['label']} ({plain_name(c['resolution']['by'])})"
               if c["resolution"] else " (unresolved)") + f"  {plain_name(c['title'])[:60]}"
            for c in document)
    emit(args, {"conflicts": document}, text)


def cmd_resolve(args: argparse.Namespace) -> None:
    with open_for_writing(args.project) as project:
        screening = store.find_screening(project, args.topic, args.screening)
        record_id = int(args.record) if args.record.isdigit() else -1
        made = project.write(store.resolve_op(screening, record_id, args.label, args.by,
                                              note=args.note or "")).value
    emit(args, {"record": made.record_id, "label": made.label, "by": made.reviewer},
         lambda: f"record {made.record_id}: final decision {made.label} ({made.reviewer})")


def cmd_unblind(args: argparse.Namespace) -> None:
    with open_for_writing(args.project) as project:
        screening = store.find_screening(project, args.topic, args.screening)
        if not screening.blind:
            raise LitqError(f"screening {screening.name!r} is not blind")
        project.write(store.unblind_op(screening, args.reviewer))
    emit(args, {"screening": screening.name, "unblinded_by": args.reviewer},
         lambda: f"screening {screening.name!r} unblinded by {plain_name(args.reviewer)}")


def cmd_settings(args: argparse.Namespace) -> None:
    changing = args.single_screening or args.dual_screening
    with (open_for_writing(args.project) if changing else
          Project.open(args.project, readonly=True)) as project:
        screening = store.find_screening(project, args.topic, args.screening)
        if args.single_screening and screening.blind:
            raise LitqError(f"screening {screening.name!r} is blind: each reviewer screens "
                            "every record until it is unblinded")
        if changing:
            project.write(team.single_screening_op(screening, args.single_screening))
        single = team.is_single_screening(project, screening)
    mode = ("single screening: a record anyone decided is not served to the others"
            if single else "dual screening: each reviewer screens every record")
    emit(args, {"screening": screening.name, "single_screening": single,
                "blind": screening.blind}, lambda: f"{screening.name!r}: {mode}")


def cmd_agreement(args: argparse.Namespace) -> None:
    with Project.open(args.project, readonly=True) as project:
        screening = store.find_screening(project, args.topic, args.screening)
        summary = team.agreement(project, screening)
        if args.out is not None:
            team.write_agreement(project, screening, args.out)
    document = team.agreement_document(summary)
    pairs = document["pairs"]

    def figure(value: float | None) -> str:
        return "–" if value is None else f"{value:.3f}"

    def kappa_text(p: dict) -> str:
        if p["kappa"] is None:
            return "κ undefined"
        return (f"κ = {p['kappa']:.3f} (95 % CI {figure(p['kappa_ci'][0])} to "
                f"{figure(p['kappa_ci'][1])}), AC1 = {figure(p['ac1'])} (95 % CI "
                f"{figure(p['ac1_ci'][0])} to {figure(p['ac1_ci'][1])}), PABAK = "
                f"{figure(p['pabak'])}")

    def alpha_text() -> str:
        parts = [f"{a['level']} {figure(a['alpha'])}" for a in document["alpha"].values()]
        nominal = document["alpha"]["nominal"]
        return (f"Krippendorff's α ({nominal['reviewers']} reviewers, {nominal['units']} "
                f"records decided by two or more): {', '.join(parts)}")

    def text() -> str:
        if not pairs:
            return "fewer than two reviewers have decided in this screening"
        lines = [f"{plain_name(p['a'])} / {plain_name(p['b'])}: {p['both']} both decided, "
                 f"{p['agree']} agree (raw agreement {figure(p['raw_agreement'])}), "
                 f"{kappa_text(p)}; after resolution {kappa_text(p['after_resolution'])}"
                 for p in pairs]
        lines.append(alpha_text())
        lines.append(f"conflicts: {summary.resolved} resolved, {summary.unresolved} unresolved")
        if args.out is not None:
            lines.append(f"agreement written to {args.out}")
        return "\n".join(lines)
    emit(args, document, text)


def register(command: Command) -> None:
    p = command("screen-export-decisions", cmd_export_decisions)
    p.add_argument("--topic", required=True)
    p.add_argument("--screening", required=True)
    p.add_argument("--reviewer", required=True)
    p.add_argument("out", type=Path, metavar="OUT")

    p = command("merge", cmd_merge)
    p.add_argument("source", type=Path, metavar="FILE_OR_PROJECT")
    p.add_argument("--reviewer", action="append", metavar="NAME",
                   help="take this reviewer's decisions from a copy of the project (once "
                        "per reviewer; default: the copy's only reviewer); the copy's "
                        "other events not here yet are left out")

    p = command("screen-resolve", cmd_resolve)
    p.add_argument("--topic", required=True)
    p.add_argument("--screening", required=True)
    p.add_argument("--record", required=True, metavar="ID", help="the record id")
    p.add_argument("--label", required=True)
    p.add_argument("--by", default=team.CONSENSUS,
                   help="who resolved it (default: consensus)")
    p.add_argument("--note")

    p = command("screen-unblind", cmd_unblind)
    p.add_argument("--topic", required=True)
    p.add_argument("--screening", required=True)
    p.add_argument("--reviewer", required=True, help="who unblinds it")

    p = command("screen-settings", cmd_settings)
    p.add_argument("--topic", required=True)
    p.add_argument("--screening", required=True)
    mode = p.add_mutually_exclusive_group()
    mode.add_argument("--single-screening", action="store_true",
                      help="one reviewer screens, a second checks a sample: a record anyone "
                           "decided is not served to the others")
    mode.add_argument("--dual-screening", action="store_true",
                      help="each reviewer screens every record they have not decided "
                           "(the default)")

    for name, func in (("conflicts", cmd_conflicts), ("agreement", cmd_agreement)):
        p = command(name, func)
        p.add_argument("--topic", required=True)
        p.add_argument("--screening", required=True)
        if name == "agreement":
            p.add_argument("--out", type=Path, metavar="FILE",
                           help="also write the agreement there (.json, else CSV)")
