"""A stopping rule registered by one module reaches ``simulate --json``, the panel and
``screen-status`` without another line anywhere."""

import json
from dataclasses import dataclass
from typing import ClassVar

import numpy as np
import pytest

from litqeval_gui.cli import main
from litqeval_gui.core.screening.stopping.panel import default_rules, panel
from litqeval_gui.metrics.stopping import HEURISTIC, RULES, StopDecision, StoppingRule, register
from tests.support.screening import LABEL_COLUMN, screening_project


@dataclass(frozen=True)
class AfterHundred(StoppingRule):
    """Stop once 100 records are screened."""

    name: ClassVar[str] = "after_hundred"
    title: ClassVar[str] = "After a hundred records (a test's rule)"
    kind: ClassVar[str] = HEURISTIC

    def _decide(self, labels: np.ndarray, n_total: int) -> StopDecision:
        return StopDecision(labels.size >= 100, {"reason": f"{labels.size} screened"})


@pytest.fixture
def registered():
    register(AfterHundred)
    yield RULES
    del RULES[AfterHundred.name]


def run(capsys, *args):
    code = main([str(a) for a in args])
    out, err = capsys.readouterr()
    return code, out, err


def test_a_registered_rule_is_read_everywhere(registered, tmp_path, capsys):
    assert list(registered)[-1] == "after_hundred"
    with pytest.raises(ValueError, match="registered already"):
        register(AfterHundred)
    assert [r.name for r in default_rules()][-1] == "after_hundred"
    read = panel([0] * 120, 300, default_rules())
    assert read.verdict("after_hundred").decision.stop
    assert read.verdict("after_hundred").kind == HEURISTIC
    path, _ = screening_project(tmp_path, 300)
    code, out, err = run(capsys, "simulate", path, "--topic", "T", "--list", "L",
                         "--labels-from", LABEL_COLUMN, "--seed", "1", "--json")
    assert code == 0, err
    stop = json.loads(out)["stopping"]["after_hundred"]
    assert (stop["stopped_at"], stop["kind"]) == (100, HEURISTIC)
    assert run(capsys, "screen-new", path, "--topic", "T", "--screening", "S")[0] == 0
    code, out, err = run(capsys, "screen-status", path, "--topic", "T", "--screening", "S",
                         "--json")
    assert code == 0, err
    rules = {rule["rule"]: rule for rule in json.loads(out)["stopping"]}
    assert rules["after_hundred"]["evidence"]["reason"] == "0 screened"
    assert set(rules) == set(registered)


def test_screen_guarantee_switches_the_recommended_rule(tmp_path, capsys):
    path, _ = screening_project(tmp_path, 60)
    assert run(capsys, "screen-new", path, "--topic", "T", "--screening", "S")[0] == 0
    args = ("screen-status", path, "--topic", "T", "--screening", "S")
    assert json.loads(run(capsys, *args, "--json")[1])["recommended"] == "hypergeometric"
    code, out, err = run(capsys, "screen-guarantee", path, "on")
    assert code == 0, err
    assert out.strip() == "the stopping panel now recommends random_sample (certified)"
    assert json.loads(run(capsys, *args, "--json")[1])["recommended"] == "random_sample"
    text = run(capsys, *args)[1]
    assert "go on: Random-sample stop (Callaghan & Müller-Hansen 2020, buscar) [certified] " \
           "(recommended) (a guarantee needs a random sample; switch to random screening: " in text
    assert json.loads(run(capsys, "screen-guarantee", path, "off", "--json")[1]) == {
        "guarantee": False, "recommended": "hypergeometric"}
