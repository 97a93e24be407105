"""The bundle's entry point: ``litqeval-cli`` runs the ``litqeval`` command, any other
name (``LitQEval``) the app. The hidden first argument ``--render-svg`` (either name)
draws an SVG as PNG or PDF with Qt (``gui/render_svg.py``): ``litqeval prisma --png/--pdf``
starts the executable again with it, so the command's own process never loads Qt.

``multiprocessing.freeze_support()`` comes first: the parallel RIS parser's forkserver
and resource tracker start this executable again, and it must become that helper at
once (never import Qt or open a window).
"""

import multiprocessing
import sys
from pathlib import Path

if __name__ == "__main__":
    multiprocessing.freeze_support()
    if sys.argv[1:2] == ["--render-svg"]:  # cli/prisma.py RENDER_FLAG
        from litqeval_gui.gui.render_svg import main as render_main

        sys.exit(render_main(sys.argv[2:]))
    if Path(sys.executable).stem == "litqeval-cli":
        from litqeval_gui.cli import main
    else:
        from litqeval_gui.gui.app import main
    sys.exit(main())
