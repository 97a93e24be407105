"""A topic's evaluation parameters, stored per topic in the project's parameters table.

θ for SP_cos ("from core": the least similar core record, SPEC §1.1, or a user value),
the decay's α, p, q and the F-score's β (SPEC §1.4), the clustering θ (SPEC §1.3), the
MVEE tolerance (SPEC §1.2), the embedding backend and the map method. Keys are
``evaluation.<topic id>.<name>``; defaults are the SPEC's.
"""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass, fields

from litqeval_gui.core.embedding.registry import BACKENDS, DEFAULT_BACKEND
from litqeval_gui.core.errors import ProjectError
from litqeval_gui.core.evaluation.map_store import MAP_METHODS
from litqeval_gui.core.projectfile import parameters
from litqeval_gui.core.projectfile.changes import Changes
from litqeval_gui.core.projectfile.parameters import Range
from litqeval_gui.core.projectfile.project import Project
from litqeval_gui.core.projectfile.stored import DamagedDataError
from litqeval_gui.core.projectfile.writes import Op
from litqeval_gui.metrics.geometry import DEFAULT_TOL
from litqeval_gui.metrics.semantic import DEFAULT_CLUSTER_THETA, Scoring
from litqeval_gui.metrics.sets import DEFAULT_ALPHA, DEFAULT_BETA, DEFAULT_P, DEFAULT_Q

# Every number of a topic's evaluation and the values it may take: checked for the
# command line's options, the app's controls (their limits) and the stored parameters.
RANGES: dict[str, Range] = {
    "theta": Range(-1.0, 1.0),  # a cosine similarity; None = from the core set
    "alpha": Range(0.0, 1e9, low_open=True),
    "p": Range(0.0, 100.0, low_open=True),
    "q": Range(0.0, 1000.0, low_open=True),
    "beta": Range(0.0, 100.0, low_open=True),
    "cluster_theta": Range(0.0, 1.0, low_open=True),
    "mvee_tol": Range(0.0, 1.0, low_open=True),
}


@dataclass(frozen=True)
class EvaluationSettings:
    """Every parameter of a topic's evaluation; ``theta`` None = from the core set."""

    theta: float | None = None
    alpha: float = DEFAULT_ALPHA
    p: float = DEFAULT_P
    q: float = DEFAULT_Q
    beta: float = DEFAULT_BETA
    cluster_theta: float = DEFAULT_CLUSTER_THETA
    mvee_tol: float = DEFAULT_TOL
    backend: str = DEFAULT_BACKEND
    map_method: str = "umap"

    def __post_init__(self) -> None:
        problems = [f"{name.replace('_', ' ')} {problem}" for name, problem in (
            (name, RANGES[name].problem(getattr(self, name))) for name in RANGES
            if name != "theta" or self.theta is not None) if problem]
        if self.backend not in BACKENDS:
            problems.append(f"backend must be one of {', '.join(BACKENDS)}, not "
                            f"{self.backend!r}")
        if self.map_method not in MAP_METHODS:
            problems.append(f"map must be one of {', '.join(MAP_METHODS)}, not "
                            f"{self.map_method!r}")
        if problems:
            raise ProjectError("; ".join(problems))

    @property
    def scoring(self) -> Scoring:
        return Scoring(p=self.p, q=self.q, alpha=self.alpha, beta=self.beta)

    def replace(self, **changes: object) -> EvaluationSettings:
        return dataclasses.replace(self, **changes)


_DEFAULTS = EvaluationSettings()


def _parameter(topic_id: int, name: str) -> parameters.Parameter:
    if name == "theta":  # NaN is not JSON: "from core" is its own flag
        return parameters.Parameter(f"evaluation.{topic_id}.theta", float, 0.0, RANGES[name])
    default = getattr(_DEFAULTS, name)
    return parameters.Parameter(f"evaluation.{topic_id}.{name}", type(default), default,
                                RANGES.get(name))


def _from_core(topic_id: int) -> parameters.Parameter:
    return parameters.Parameter(f"evaluation.{topic_id}.theta_from_core", bool, True)


def load_settings(project: Project, topic: str) -> EvaluationSettings:
    """The topic's stored parameters (defaults where none is stored); a damaged one
    raises ``DamagedDataError`` naming the topic and the parameter."""
    topic_id = project.topic_id(topic)
    try:
        values = {f.name: parameters.get(project, _parameter(topic_id, f.name))
                  for f in fields(EvaluationSettings)}
        if parameters.get(project, _from_core(topic_id)):
            values["theta"] = None
        return EvaluationSettings(**values)
    except DamagedDataError as err:
        raise DamagedDataError(f"topic {topic!r}: {err.what}", err.problem) from None
    except ProjectError as err:  # a backend or map no longer known
        raise DamagedDataError(f"topic {topic!r}: the stored evaluation parameters",
                               str(err)) from None


def save_settings_op(topic: str, settings: EvaluationSettings) -> Op:
    """Store ``settings`` as the topic's parameters."""
    def op(p: Project) -> Changes:
        topic_id = p.topic_id(topic)
        pairs: list[tuple[parameters.Parameter, object]] = [
            (_from_core(topic_id), settings.theta is None)]
        for f in fields(EvaluationSettings):
            value = getattr(settings, f.name)
            if f.name != "theta" or value is not None:
                pairs.append((_parameter(topic_id, f.name), value))
        return parameters.set_values_op(pairs)(p)
    return op
