"""``python -m litqeval_gui.cli``."""

import sys

from litqeval_gui.cli import main

if __name__ == "__main__":  # the parallel parser's workers import this module again
    sys.exit(main())
