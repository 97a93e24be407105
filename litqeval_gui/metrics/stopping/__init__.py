"""Stopping rules for screening behind one interface (SPEC §5): :mod:`.base` holds the
interface, each rule its own module, :mod:`.registry` the list the app, the CLI and the
simulation read."""

from litqeval_gui.metrics.stopping.base import (
    CERTIFIED,
    HEURISTIC,
    KINDS,
    MODEL_BASED,
    RecallEstimate,
    StopDecision,
    StoppingRule,
    significance,
)
from litqeval_gui.metrics.stopping.consecutive import ConsecutiveIrrelevant
from litqeval_gui.metrics.stopping.critical_depth import BatchCriticalDepth
from litqeval_gui.metrics.stopping.hypergeometric import (
    HypergeometricTest,
    hypergeometric_p,
    random_records_needed,
    target_remaining,
)
from litqeval_gui.metrics.stopping.knee import KneeMethod
from litqeval_gui.metrics.stopping.point_process import PointProcess
from litqeval_gui.metrics.stopping.qbcb import QuantileBinomialBound
from litqeval_gui.metrics.stopping.random_sample import RandomSampleStop
from litqeval_gui.metrics.stopping.registry import (
    RULES,
    describe,
    make_rule,
    register,
    rule_parameters,
)
from litqeval_gui.metrics.stopping.target_method import TargetMethod

__all__ = ["CERTIFIED", "HEURISTIC", "KINDS", "MODEL_BASED", "RULES", "BatchCriticalDepth",
           "ConsecutiveIrrelevant", "HypergeometricTest", "KneeMethod", "PointProcess",
           "QuantileBinomialBound", "RandomSampleStop", "TargetMethod", "RecallEstimate", "StopDecision", "StoppingRule", "describe",
           "hypergeometric_p", "make_rule", "random_records_needed", "register", "rule_parameters",
           "significance", "target_remaining"]
