"""The bundle's entry point: ``litqeval-cli`` runs the ``litqeval`` command, any other
name (``LitQEval``) the app.

``multiprocessing.freeze_support()`` comes first: the parallel RIS parser's forkserver
and resource tracker start this executable again, and it must become that helper at
once (never import Qt or open a window).
"""

import multiprocessing
import sys
from pathlib import Path

if __name__ == "__main__":
    multiprocessing.freeze_support()
    if Path(sys.executable).stem == "litqeval-cli":
        from litqeval_gui.cli import main
    else:
        from litqeval_gui.gui.app import main
    sys.exit(main())
