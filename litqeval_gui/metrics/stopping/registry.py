"""The rule registry: a rule is one module and one entry of :data:`RULES` (or one call of
:func:`register`); the panel, the CLI and ``simulate`` read every registered rule."""

from __future__ import annotations

from dataclasses import asdict, fields
from typing import Any

from litqeval_gui.metrics.stopping.base import StoppingRule
from litqeval_gui.metrics.stopping.consecutive import ConsecutiveIrrelevant
from litqeval_gui.metrics.stopping.critical_depth import BatchCriticalDepth
from litqeval_gui.metrics.stopping.hypergeometric import HypergeometricTest
from litqeval_gui.metrics.stopping.knee import KneeMethod
from litqeval_gui.metrics.stopping.point_process import PointProcess
from litqeval_gui.metrics.stopping.qbcb import QuantileBinomialBound
from litqeval_gui.metrics.stopping.random_sample import RandomSampleStop
from litqeval_gui.metrics.stopping.target_method import TargetMethod

RULES: dict[str, type[StoppingRule]] = {
    rule.name: rule
    for rule in (RandomSampleStop, PointProcess, QuantileBinomialBound, TargetMethod,
                 ConsecutiveIrrelevant, KneeMethod, HypergeometricTest, BatchCriticalDepth)
}


def register(rule: type[StoppingRule]) -> type[StoppingRule]:
    """Add ``rule`` to :data:`RULES` under its name (a name taken is refused)."""
    if rule.name in RULES:
        raise ValueError(f"a stopping rule named {rule.name!r} is registered already")
    RULES[rule.name] = rule
    return rule


def rule_parameters(name: str) -> dict[str, Any]:
    """Parameter names and defaults of the rule registered as ``name``."""
    return {f.name: f.default for f in fields(RULES[name])}


def make_rule(name: str, **params: Any) -> StoppingRule:
    """Build the rule registered as ``name`` with the given parameters."""
    return RULES[name](**params)


def describe(rule: StoppingRule) -> dict[str, Any]:
    """Name, title, kind and parameter values of a rule (for display and saving settings)."""
    return {"name": rule.name, "title": rule.title, "kind": rule.kind, "params": asdict(rule)}
