"""Pools in the project file (tables of migration ``_pools``).

A pool belongs to a topic and owns a screening (created empty with it). Its runs are
the record ids of result lists (``list:NAME``, in rank order: a result list's export
order or an imported TREC run), of a screening's stored model ranking
(``ranking:SCREENING``) or of a list ranked by cosine to the core set
(``cosine:LIST``, :mod:`.runs`), copied when the pool is created so a later retrain,
import or evaluation does not move it. Units are works: a work's first record in the pool (by rank, then
run) is the one screened.

:func:`advance` releases the next depth: in one write it raises the pool's depth and
appends the works new at that depth that are not judged yet to the screening, so the
file never holds one without the other. Judgements are the screening's decisions
(relevant: :func:`~litqeval_gui.core.screening.log.labels.is_relevant`) and the grades of
the pool's qrels lists (relevant: grade ≥ 1); each decision is an event committed by
the screening core, so the pool's state survives a crash with every judgement made.
"""

from __future__ import annotations

import dataclasses
import json
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np

from litqeval_gui.core.errors import LitqError, find_named
from litqeval_gui.core.pooling.runs import COSINE, cosine_ranking
from litqeval_gui.core.projectfile.changes import Changes
from litqeval_gui.core.projectfile.parameters import Range
from litqeval_gui.core.projectfile.project import Project, now
from litqeval_gui.core.projectfile.stored import DamagedDataError, read_buffer, read_json
from litqeval_gui.core.projectfile.writes import Done, Op
from litqeval_gui.core.records.queries import find_list
from litqeval_gui.core.screening.log import store as screening_store
from litqeval_gui.core.screening.ranking.retrain import stored_ranking
from litqeval_gui.metrics.pooling import DEFAULT_FULL_DEPTH, PRESETS, LowYieldRule, StopParams

POOLS = Changes(decisions=True)
CUSTOM = "custom"
LOW_YIELD = LowYieldRule()  # thesis §8.7: depth 20, ratio 0.1


@dataclass(frozen=True)
class Settings:
    """Stop parameters (a preset's or custom), the low-yield rule and the full depth."""

    preset: str
    params: StopParams
    low_yield: LowYieldRule | None = LOW_YIELD
    full_depth: int = DEFAULT_FULL_DEPTH

    def as_dict(self) -> dict:
        p = self.params
        rule = self.low_yield
        return {"preset": self.preset, "w": p.window, "W": p.rate_window, "t": p.threshold,
                "l": p.run_length, "full_depth": self.full_depth,
                "low_yield": None if rule is None else {"depth": rule.depth,
                                                        "max_ratio": rule.max_ratio}}

    @classmethod
    def from_dict(cls, d: dict) -> Settings:
        """The settings stored as ``d`` (:meth:`as_dict`), checked as :func:`settings`
        checks them (``LitqError``, ``KeyError`` or ``TypeError`` when damaged)."""
        rule = d["low_yield"]
        if not isinstance(d["preset"], str) or not isinstance(rule, dict | None):
            raise TypeError("preset or low-yield rule of the wrong type")
        made = settings(custom=(d["w"], d["W"], d["t"], d["l"]), full_depth=d["full_depth"],
                        low_yield=None if rule is None else LowYieldRule(
                            _checked("low-yield depth", rule["depth"], DEPTH),
                            _checked("low-yield ratio", rule["max_ratio"], RATIO)))
        return dataclasses.replace(made, preset=d["preset"])


# The values each pool setting may take: checked for the command line, the app's
# pool dialog (both through :func:`settings`) and the stored settings (:meth:`from_dict`).
DEPTH = Range(1, 1_000_000, integer=True)  # w, W, l, the full and the low-yield depth
THRESHOLD = Range(0.0, 1e9)  # t: the smoothed rate stays below it
RATIO = Range(0.0, 1.0)  # the low-yield ratio


def _checked(name: str, value: object, limits: Range) -> Any:
    problem = limits.problem(value)
    if problem:
        raise LitqError(f"bad pool settings: {name} {problem}")
    return value


def settings(preset: str = "aggressive", *, custom: Sequence[float] | None = None,
             full_depth: int = DEFAULT_FULL_DEPTH,
             low_yield: LowYieldRule | None = LOW_YIELD) -> Settings:
    """A preset (aggressive, relaxed) or ``custom`` = (w, W, t, l); each value in its
    range (:data:`DEPTH`, :data:`THRESHOLD`, :data:`RATIO`), else a one-line
    ``LitqError``."""
    if custom is not None:
        w, big_w, t, run = (_checked(name, value, limits) for name, value, limits in zip(
            ("w", "W", "t", "l"), custom, (DEPTH, DEPTH, THRESHOLD, DEPTH), strict=True))
        params, preset = StopParams(int(w), int(big_w), float(t), int(run)), CUSTOM
    elif preset in PRESETS:
        params = PRESETS[preset]
    else:
        raise LitqError(f"unknown preset {preset!r}; use one of "
                        f"{', '.join(PRESETS)} or custom (w, W, t, l)")
    _checked("full depth", full_depth, DEPTH)
    if low_yield is not None:
        _checked("low-yield depth", low_yield.depth, DEPTH)
        _checked("low-yield ratio", low_yield.max_ratio, RATIO)
        if low_yield.depth > full_depth:
            raise LitqError("bad pool settings: the low-yield depth must not exceed "
                            "the full depth")
    return Settings(preset, params, low_yield, int(full_depth))


@dataclass(frozen=True)
class Run:
    name: str
    source: str  # list:NAME | ranking:SCREENING
    records: tuple[int, ...]


@dataclass(frozen=True)
class Pool:
    id: int
    topic_id: int
    topic: str
    name: str
    screening_id: int
    settings: Settings
    qrels: tuple[int, ...]  # import ids
    depth: int  # depths released to the screening
    created: str


def _run_records(project: Project, topic: str, source: str) -> Run:
    kind, _, name = source.partition(":")
    if kind == "list" and name:
        list_id = find_list(project, topic, name).id
        records = [row[0] for row in project.db.execute(
            "SELECT id FROM live_records WHERE import_id = ? ORDER BY rank, id", [list_id])]
    elif kind == "ranking" and name:
        screening = screening_store.find_screening(project, topic, name)
        ranking = stored_ranking(project, screening.id)
        if ranking is None:
            raise LitqError(f"screening {name!r} has no stored model ranking yet")
        records = list(ranking.records)
    elif kind == COSINE and name:
        records = cosine_ranking(project, topic, name)
        name = f"{COSINE}: {name}"
    else:
        raise LitqError(f"a run is list:NAME, ranking:SCREENING or cosine:LIST, "
                        f"not {source!r}")
    if not records:
        raise LitqError(f"run {source!r} has no records")
    return Run(name, source, tuple(records))


def create_pool(project: Project, topic: str, name: str, runs: Sequence[str],
                chosen: Settings, *, qrels: Sequence[str] = (),
                screening: str | None = None) -> Pool:
    """Create pool ``name`` of ``topic`` over ``runs`` (``list:NAME``, ``ranking:NAME``,
    ``cosine:LIST``; a bare name is a list). It feeds ``screening`` (an existing one of
    the topic, not fed by another pool; its decisions count as judgements) or, when
    None, a new screening ``pool: NAME``, made in the same write. The pool starts at
    depth 0."""
    if not name.strip():
        raise LitqError("a pool needs a name")
    if not runs:
        raise LitqError("a pool needs at least one run")
    sources = [s if ":" in s else f"list:{s}" for s in runs]
    if len(set(sources)) != len(sources):
        raise LitqError("a run is named twice")
    topic_id = project.topic_id(topic)
    if any(pool.name == name for pool in pools(project, topic)):
        raise LitqError(f"topic {topic!r} already has a pool named {name!r}")
    if len(set(qrels)) != len(qrels):
        raise LitqError("a qrels list is named twice")
    qrels_ids = [find_list(project, topic, q).id for q in qrels]
    existing = None if screening is None else screening_store.find_screening(project, topic,
                                                                            screening)
    if existing is not None:
        fed = next((pool for pool in pools(project, topic)
                    if pool.screening_id == existing.id), None)
        if fed is not None:
            raise LitqError(f"screening {screening!r} already takes pool {fed.name!r}")
    found = [_run_records(project, topic, s) for s in sources]
    lists = ([s.partition(":")[2] for s in sources if not s.startswith("ranking:")]
             or list(qrels))
    if existing is None and not lists:
        raise LitqError("a pool of rankings only needs a list too (a qrels list or a "
                        "list run)")

    def op(p: Project) -> Changes:  # the new screening and the pool: one transaction
        if p.db.execute("SELECT 1 FROM pools WHERE topic_id = ? AND name = ?",
                        [topic_id, name]).fetchone():
            raise LitqError(f"topic {topic!r} already has a pool named {name!r}")
        screening_id = (existing or screening_store.create_screening(
            p, topic, f"pool: {name}", lists, records=[])).id
        pool_id = p.db.execute(
            "INSERT INTO pools (topic_id, name, screening_id, params, qrels, depth, created) "
            "VALUES (?, ?, ?, ?, ?, 0, ?)",
            [topic_id, name, screening_id, json.dumps(chosen.as_dict()),
             json.dumps(qrels_ids), now()]).lastrowid
        p.db.conn.executemany(
            "INSERT INTO pool_runs (pool_id, position, name, source, records) "
            "VALUES (?, ?, ?, ?, ?)",
            [(pool_id, i, run.name, run.source, np.asarray(run.records, "<i8").tobytes())
             for i, run in enumerate(found, 1)])
        return POOLS

    project.write(op)
    return find_pool(project, topic, name)


_POOL_SQL = ("SELECT p.id, p.topic_id, t.name, p.name, p.screening_id, p.params, p.qrels, "
             "p.depth, p.created FROM pools p JOIN topics t ON t.id = p.topic_id")


def _pool(row: Sequence) -> Pool:
    """The pool of a row of :data:`_POOL_SQL`, its stored settings and qrels checked."""
    what = f"topic {row[2]!r}: the stored pool {row[3]!r}"
    try:
        chosen = Settings.from_dict(read_json(row[5], what, dict, part="settings"))
    except DamagedDataError:
        raise
    except (KeyError, TypeError, ValueError, LitqError) as err:
        raise DamagedDataError(what, str(err) if isinstance(err, LitqError)
                               else "a field is missing or of the wrong type",
                               "settings") from None
    qrels = read_json(row[6], what, list, part="qrels")
    if not all(type(item) is int for item in qrels):
        raise DamagedDataError(what, "an entry is not a list id", "qrels")
    return Pool(row[0], row[1], row[2], row[3], row[4], chosen, tuple(qrels), row[7], row[8])


def pools(project: Project, topic: str | None = None) -> list[Pool]:
    """The pools of ``topic`` (all topics when None), oldest first."""
    if topic is None:
        return [_pool(row) for row in project.db.execute(f"{_POOL_SQL} ORDER BY p.id")]
    return [_pool(row) for row in project.db.execute(
        f"{_POOL_SQL} WHERE p.topic_id = ? ORDER BY p.id", [project.topic_id(topic)])]


def find_pool(project: Project, topic: str, name: str) -> Pool:
    return find_named(pools(project, topic), name, topic, "pool", "pools")


def pool_of_screening(project: Project, screening_id: int) -> Pool | None:
    """The pool whose screening this is (its judgements), or None."""
    row = project.db.execute(f"{_POOL_SQL} WHERE p.screening_id = ? ORDER BY p.id LIMIT 1",
                             [screening_id]).fetchone()
    return None if row is None else _pool(row)


def get_pool(project: Project, pool_id: int) -> Pool:
    row = project.db.execute(f"{_POOL_SQL} WHERE p.id = ?", [pool_id]).fetchone()
    if row is None:
        raise LitqError(f"no pool with id {pool_id}")
    return _pool(row)


def runs(project: Project, pool: Pool) -> list[Run]:
    """The pool's runs in order, their stored record ids checked."""
    return [Run(name, source, tuple(read_buffer(
                blob, "<i8", f"topic {pool.topic!r}: the stored pool {pool.name!r}",
                part=f"run {name!r}").tolist()))
            for name, source, blob in project.db.execute(
                "SELECT name, source, records FROM pool_runs WHERE pool_id = ? "
                "ORDER BY position", [pool.id])]


def release_op(pool: Pool, depth: int, records: Sequence[int]) -> Op:
    """Set the pool's released depth to ``depth`` and append ``records`` to its
    screening; the op's value is how many were added. The depth must be the next one: a
    stale caller gets a clear error and nothing changes."""
    def op(p: Project) -> Done[int]:
        current = p.db.execute("SELECT depth FROM pools WHERE id = ?", [pool.id]).fetchone()
        if current is None or current[0] != depth - 1:
            raise LitqError(f"pool {pool.name!r} is no longer at depth {depth - 1}")
        p.db.execute("UPDATE pools SET depth = ? WHERE id = ?", [depth, pool.id])
        return Done(POOLS, screening_store.append_items(p, pool.screening_id, records))

    return op
