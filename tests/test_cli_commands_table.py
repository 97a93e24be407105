"""The command table is the commands the modules define, and ``--help`` or one command
loads only what it needs."""

import subprocess
import sys

from litqeval_gui.cli import COMMAND_MODULES, build_parser
from litqeval_gui.cli.commands import COMMANDS


def test_each_module_defines_exactly_the_commands_the_table_gives_it():
    for module in COMMAND_MODULES:
        parser = build_parser([module])
        sub = next(a for a in parser._actions if a.dest == "command")
        defined = {name for name, p in sub.choices.items() if p.get_default("func")}
        assert defined == {c.name for c in COMMANDS if c.module == module}, module


def test_every_command_has_its_tables_help_and_project_argument():
    sub = next(a for a in build_parser()._actions if a.dest == "command")
    assert list(sub.choices) == [c.name for c in COMMANDS]
    for command in COMMANDS:
        p = sub.choices[command.name]
        assert p.description == command.help or p.description.startswith(command.help)
        assert ("project" in [a.dest for a in p._actions]) == command.project, command.name


def _loaded(*argv: str) -> set[str]:
    """The modules loaded after ``litqeval ARGV`` in a fresh interpreter."""
    code = ("import sys; from litqeval_gui.cli import main\n"
            f"try:\n    main({list(argv)!r})\nexcept SystemExit:\n    pass\n"
            "print('\\n'.join(sys.modules), file=sys.stderr)")
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                          check=True)
    return set(done.stderr.split())


def test_help_loads_no_command_module_and_a_command_only_its_own():
    shown = _loaded("--help")
    assert not {m for m in shown if m.startswith(("sklearn", "scipy", "numpy"))}
    assert not any(f"litqeval_gui.cli.{module}" in shown for module in COMMAND_MODULES)
    status = _loaded("pool-status", "--help")
    assert "litqeval_gui.cli.pooling" in status
    assert "litqeval_gui.cli.evaluation" not in status and "litqeval_gui.cli.screen" not in status
