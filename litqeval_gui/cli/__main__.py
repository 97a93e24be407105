"""``python -m litqeval_gui.cli``."""

import sys

from litqeval_gui.cli import main

if __name__ == "__main__":  # the parallel parser's workers import this module again
    code = main()
    # Under ``-m`` CPython ends the process by SIGINT (exit -2, not ``code``) once a
    # KeyboardInterrupt has ended a string exec (dataclasses and namedtuple build their
    # methods so), even one main() caught and reported; each string eval resets that flag.
    eval("0")
    sys.exit(code)
