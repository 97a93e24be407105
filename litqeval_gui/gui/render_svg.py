"""An SVG file drawn as PNG or PDF in a process of its own, for the command line, which
never loads Qt: ``python -m litqeval_gui.gui.render_svg IN.svg OUT.png|OUT.pdf
[--project P.litq]``; in the bundle ``litqeval-cli --render-svg …`` (the hidden argument
``packaging/launch.py`` dispatches here). Qt draws offscreen with the PRISMA screen's
renderer (:func:`~litqeval_gui.gui.screens.prisma.render.save_diagram`: written whole,
never onto the project). A failure is one line on stderr and exit code 2."""

from __future__ import annotations

import argparse
import os
import sys
from collections.abc import Sequence
from pathlib import Path

from litqeval_gui.core.errors import LitqError, environment_message, one_line


def main(argv: Sequence[str] | None = None) -> int:
    """Draw ``IN.svg`` as ``OUT`` (its suffix picks PNG or PDF); the exit code."""
    parser = argparse.ArgumentParser(prog="render_svg", description=__doc__.split("\n")[0])
    parser.add_argument("svg", type=Path, metavar="IN.svg")
    parser.add_argument("out", type=Path, metavar="OUT.png|OUT.pdf")
    parser.add_argument("--project", type=Path, help="the project file, never overwritten")
    args = parser.parse_args(argv)
    os.environ["QT_QPA_PLATFORM"] = "offscreen"  # no window, no display needed
    from PySide6.QtGui import QGuiApplication

    from litqeval_gui.gui.screens.prisma.render import save_diagram

    app = QGuiApplication.instance() or QGuiApplication([sys.argv[0]])  # noqa: F841 — kept alive
    try:
        svg = args.svg.read_text(encoding="utf-8")
    except OSError as err:
        print(one_line(environment_message(err, f"cannot read {args.svg}")), file=sys.stderr)
        return 2
    try:
        save_diagram(svg, args.out, project=args.project)
    except LitqError as err:
        print(one_line(str(err)), file=sys.stderr)
        return 2
    except OSError as err:
        print(one_line(environment_message(err, f"cannot write {args.out}")), file=sys.stderr)
        return 2
    return 0


if __name__ == "__main__":
    sys.exit(main())
