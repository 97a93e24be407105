"""The commands that change how a running screening goes on: screen-random switches its
current round to random sampling (the stopping test's sample), screen-update adds a
search update's new works as a new round, screen-rank ranks the records now (as the
screener does when it opens), screen-finish finishes a round (its records
never screened are then excluded by automation tools), screen-guarantee makes the
stopping panel recommend the certified rule, screen-fulltext-add lets the
records that passed title/abstract late join the running full text."""

from __future__ import annotations

import argparse
from dataclasses import asdict

from litqeval_gui.cli.common import Command, TextProgress, emit, open_for_writing
from litqeval_gui.cli.screen import REVIEWER_ENV, _reviewer
from litqeval_gui.core.jobs import run_job
from litqeval_gui.core.projectfile import parameters
from litqeval_gui.core.projectfile.project import Project
from litqeval_gui.core.records.queries import find_list
from litqeval_gui.core.screening.fulltext import add_late_op
from litqeval_gui.core.screening.log import store
from litqeval_gui.core.screening.log.store import Screening
from litqeval_gui.core.screening.ranking.features_apart import features_apart
from litqeval_gui.core.screening.ranking.retrain import Ranking, has_ranking, retrain
from litqeval_gui.core.screening.stopping.finishing import finish_round_op
from litqeval_gui.core.screening.stopping.panel import recommended
from litqeval_gui.core.screening.stopping.phases import new_seed, start_random_op
from litqeval_gui.core.screening.stopping.updates import add_update


def cmd_screen_random(args: argparse.Namespace) -> None:
    reviewer = _reviewer(args)
    seed = new_seed() if args.seed is None else args.seed
    with open_for_writing(args.project) as project:
        screening = store.find_screening(project, args.topic, args.screening)
        round_ = project.write(start_random_op(screening, reviewer, seed)).value
        screened = len(store.current_decisions(project, screening.id))
    emit(args, {"screening": screening.name, "round": round_.number, "seed": seed,
                "after_event": round_.random.after_event, "screened": screened},
         lambda: f"round {round_.number} of screening {screening.name!r} switched to random "
                 f"sampling after {screened:,} decisions (seed {seed}); screen-status --next K "
                 "lists the records to screen in its order")


def cmd_screen_update(args: argparse.Namespace) -> None:
    reviewer = _reviewer(args)
    with open_for_writing(args.project) as project:
        screening = store.find_screening(project, args.topic, args.screening)
        report = add_update(project, screening, find_list(project, args.topic, args.list).id,
                            reviewer)
        ranked = ""
        if report.added and has_ranking(project, screening.id) and not args.no_rank:
            ranking = _rank(project, store.get_screening(project, screening.id))
            ranked = ranking.model if ranking else ""
    emit(args, report.as_dict() | {"ranked_by": ranked},
         lambda: report.text() + (f"; ranked again by {ranked}" if ranked else ""))


def cmd_screen_rank(args: argparse.Namespace) -> None:
    with open_for_writing(args.project) as project:
        screening = store.find_screening(project, args.topic, args.screening)
        ranking = _rank(project, screening, args.reviewer)
    document = {"screening": screening.name, "ranked_by": ranking.model if ranking else None,
                "labels": ranking.labels if ranking else 0, "records": screening.size}

    def text() -> str:
        if ranking is None:
            return (f"screening {screening.name!r}: nothing to rank from yet; decide a "
                    "relevant record, or import core publications or set a review question")
        return (f"screening {screening.name!r}: {screening.size:,} records ranked by "
                f"{ranking.model} from {ranking.labels:,} decisions; screen-status --next K "
                "lists the next ones in this order")

    emit(args, document, text)


def _rank(project: Project, screening: Screening, reviewer: str | None = None) -> Ranking | None:
    """Rank ``screening`` now with the project's features, question and model, as the
    screener does when it opens (stored as its latest ranking)."""
    features = run_job(features_apart(project, screening, parameters.get(
        project, parameters.SCREENING_QUESTION)), TextProgress())
    return run_job(retrain(project, screening, features,
                           parameters.get(project, parameters.SCREENING_MODEL),
                           reviewer=reviewer))


def cmd_screen_finish(args: argparse.Namespace) -> None:
    reviewer = _reviewer(args)
    with open_for_writing(args.project) as project:
        screening = store.find_screening(project, args.topic, args.screening)
        finish = project.write(finish_round_op(screening, reviewer, args.round)).value
    emit(args, asdict(finish), finish.text)


def cmd_screen_guarantee(args: argparse.Namespace) -> None:
    asked = args.state == "on"
    with open_for_writing(args.project) as project:
        project.write(parameters.set_value_op(parameters.STOP_GUARANTEE, asked))
        chosen = recommended(asked)
    emit(args, {"guarantee": asked, "recommended": chosen},
         lambda: f"the stopping panel now recommends {chosen}"
                 + (" (certified)" if asked else " (chosen by evidence)"))


def cmd_screen_fulltext_add(args: argparse.Namespace) -> None:
    with open_for_writing(args.project) as project:
        screening = store.find_screening(project, args.topic, args.screening)
        added = project.write(add_late_op(screening, with_maybe=args.with_maybe)).value
        size = store.get_screening(project, screening.id).size
    emit(args, {"screening": screening.name, "added": added, "records": size},
         lambda: f"{added:,} late record(s) joined full-text screening {screening.name!r} "
                 f"({size:,} records)")


def register(command: Command) -> None:
    p = command("screen-random", cmd_screen_random)
    p.add_argument("--topic", required=True)
    p.add_argument("--screening", required=True)
    p.add_argument("--reviewer", help=f"who switches (default: ${REVIEWER_ENV})")
    p.add_argument("--seed", type=int, help="fixes the random order (default: a random one, "
                                            "stored with the switch)")

    p = command("screen-update", cmd_screen_update)
    p.add_argument("--topic", required=True)
    p.add_argument("--screening", required=True)
    p.add_argument("--list", required=True, help="the imported update")
    p.add_argument("--reviewer", help=f"who adds it (default: ${REVIEWER_ENV})")
    p.add_argument("--no-rank", action="store_true",
                   help="do not rank again now (the new works are served after the ranked "
                        "ones until the next ranking)")

    p = command("screen-rank", cmd_screen_rank)
    p.add_argument("--topic", required=True)
    p.add_argument("--screening", required=True)
    p.add_argument("--reviewer", help="in a blind screening: rank from this reviewer's own "
                                      "decisions (default: the final decisions)")

    p = command("screen-finish", cmd_screen_finish)
    p.add_argument("--topic", required=True)
    p.add_argument("--screening", required=True)
    p.add_argument("--round", type=int, help="the round to finish (default: the current one)")
    p.add_argument("--reviewer", help=f"who finishes it (default: ${REVIEWER_ENV})")

    p = command("screen-guarantee", cmd_screen_guarantee)
    p.add_argument("state", choices=("on", "off"))

    p = command("screen-fulltext-add", cmd_screen_fulltext_add)
    p.add_argument("--topic", required=True)
    p.add_argument("--screening", required=True, help="the full-text screening")
    p.add_argument("--with-maybe", action="store_true", help="send the maybes on too")
