"""Every ``litqeval`` command: its name, the module that defines it, its one-line help
and whether it takes a project file, in the order ``--help`` lists them.

``litqeval --help`` reads this table alone, and a command loads only its own module
(the modules import the core, seconds of NumPy, SciPy and scikit-learn).
"""

from __future__ import annotations

from typing import NamedTuple


class CommandInfo(NamedTuple):
    name: str
    module: str  # under litqeval_gui.cli
    help: str
    project: bool = True  # takes PROJECT.litq first


COMMANDS: tuple[CommandInfo, ...] = (
    CommandInfo("new", "records",
        "create a new, empty project file"),
    CommandInfo("import", "records",
        "import a file as a core set, a result list or the document collection of a "
        "topic's runs"),
    CommandInfo("import-review", "interop",
        "bring a review from another tool — an ASReview LAB project, a Rayyan or Covidence "
        "export — with its decisions: the records as lists, the decisions as a screening"),
    CommandInfo("info", "records",
        "summarise the project"),
    CommandInfo("lists", "records",
        "list the imported lists"),
    CommandInfo("recall", "records",
        "recall of result lists against the core set"),
    CommandInfo("matches", "records",
        "matches between records; review uncertain ones"),
    CommandInfo("export", "records",
        "export a list to a file"),
    CommandInfo("query", "query",
        "a list's search query clause by clause on the topic's records: what each part "
        "retrieves, the core publications only it finds, and the query without it"),
    CommandInfo("rename", "lists",
        "rename a topic, or with --list one of its lists"),
    CommandInfo("delete", "lists",
        "delete a topic, or with --list one of its lists, with its records and matches"),
    CommandInfo("copy", "copying",
        "write a consistent copy of the project (safe while the app has it open), e.g. "
        "for a colleague to screen on"),
    CommandInfo("embed", "evaluation",
        "compute and store the vectors of a topic's records"),
    CommandInfo("evaluate", "evaluation",
        "recall and semantic precision of every result list of a topic"),
    CommandInfo("report", "evaluation",
        "write the evaluation report as one HTML file"),
    CommandInfo("screen-new", "screen",
        "start a screening of a topic's lists"),
    CommandInfo("screen-reasons", "screen",
        "show or change a screening's exclusion reasons (full-text exclusions need one)"),
    CommandInfo("screen-decide", "screen",
        "record screening decisions (each committed as it is made)"),
    CommandInfo("screen-status", "screen",
        "a screening's counts and what each stopping rule advises"),
    CommandInfo("screen-random", "screen_rounds",
        "switch a screening's current round from ranked to random screening: the random-"
        "sample stop (Callaghan & Müller-Hansen) tests the records screened from now on "
        "in a seeded random order"),
    CommandInfo("screen-update", "screen_rounds",
        "add a search update (a list imported into the screening's topic) to a running "
        "screening: works it already holds keep their decisions or their place, the new "
        "ones are a new round that the stopping rules evaluate on its own; a ranked "
        "screening is ranked again by the current model"),
    CommandInfo("screen-rank", "screen_rounds",
        "rank a screening's undecided records now from its decisions, as the screener does "
        "when it opens (the first time on a large screening, the records' words are "
        "counted and kept); screen-status --next then follows the ranking"),
    CommandInfo("screen-finish", "screen_rounds",
        "finish a title/abstract round: its records never screened are then excluded by "
        "automation tools in PRISMA (until then: not yet screened); records who, when and"
        " the recommended stopping rule's evidence now; cannot be undone"),
    CommandInfo("screen-guarantee", "screen_rounds",
        "ask the stopping panel for a guarantee (on: it recommends the certified random-"
        "sample stop) or not (off: the rule chosen by evidence); for every screening of "
        "the project"),
    CommandInfo("screen-fulltext-add", "screen_rounds",
        "add to a running full-text screening the records its title/abstract screening "
        "passed on since it started (a resolved conflict, a search update)"),
    CommandInfo("simulate", "screening",
        "replay prioritised screening of a list with known labels"),
    CommandInfo("screen-export", "screening",
        "export a screening's records with their decisions"),
    CommandInfo("prisma", "prisma",
        "the PRISMA 2020 flow of a topic: counts, diagram (SVG) and CSV"),
    CommandInfo("screen-audit", "prisma",
        "write every event of a screening (who, what, when) as CSV"),
    CommandInfo("screen-export-decisions", "team",
        "write one reviewer's decisions of a screening to a decisions file"),
    CommandInfo("merge", "team",
        "bring a colleague's decisions file (or copy of the project) in"),
    CommandInfo("screen-resolve", "team",
        "settle a record's final decision (a third reviewer or 'consensus')"),
    CommandInfo("screen-unblind", "team",
        "let every reviewer see everyone's decisions (recorded as an event)"),
    CommandInfo("screen-settings", "team",
        "show or set whether a screening is dual or single screening"),
    CommandInfo("conflicts", "team",
        "records whose reviewers' decisions differ"),
    CommandInfo("agreement", "team",
        "Cohen's κ of every reviewer pair (SPEC §6)"),
    CommandInfo("tar-eval", "trec",
        "evaluate TREC runs against qrels: AP, recall@k and the TAR measures at a recall "
        "level (P@r, TNR@r, nP@r, snP@r, WSS@r, last_rel)",
        project=False),
    CommandInfo("pool-simulate", "trec",
        "simulate incremental variable-depth pooling with complete qrels over the thesis "
        "grid: E, R, Kendall's tau, tau_AP and RMS per setting",
        project=False),
    CommandInfo("pool-create", "pooling",
        "create an incremental variable-depth pool of a topic's runs"),
    CommandInfo("pool-advance", "pooling",
        "release a pool's next depth: its unjudged records go to the pool's screening"),
    CommandInfo("pool-status", "pooling",
        "a topic's pools (or every pool): depths, nrels, k_cr, where effort goes next"),
    CommandInfo("attach", "attach",
        "attach full-text PDFs to a topic's records: one file, or a folder matched by "
        "DOI, file name and title; or detach a record's PDF"),
)
BY_NAME = {command.name: command for command in COMMANDS}
