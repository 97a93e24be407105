"""``litqeval``: the headless front door over the same core functions the GUI uses.

Every command takes a project file; ``--json`` prints one JSON document. Errors go
to stderr as one line with a non-zero exit code (2 = user error, 3 = internal
error, 130 = interrupted), never a traceback; output into a closed pipe
(``litqeval … | head``) ends the command quietly (exit 141, as SIGPIPE would).
"""

from __future__ import annotations

import signal
import sys
import threading


def _interrupted_while_loading(signum: int, frame: object) -> None:
    """Ctrl-C while the command's modules load (a second or more): one line, exit 130."""
    print("litqeval: interrupted; the project is unchanged", file=sys.stderr)
    raise SystemExit(130)


# A Ctrl-C before main() would otherwise end in a KeyboardInterrupt traceback
_LOADING = (threading.current_thread() is threading.main_thread()
            and signal.getsignal(signal.SIGINT) is signal.default_int_handler)
if _LOADING:
    signal.signal(signal.SIGINT, _interrupted_while_loading)

import argparse  # noqa: E402
import importlib  # noqa: E402
import multiprocessing  # noqa: E402
import os  # noqa: E402
import sqlite3  # noqa: E402
from collections.abc import Callable, Iterable, Sequence  # noqa: E402
from pathlib import Path  # noqa: E402

from litqeval_gui import __version__  # noqa: E402
from litqeval_gui.cli.commands import BY_NAME, COMMANDS  # noqa: E402
from litqeval_gui.core.errors import (  # noqa: E402
    LitqError,
    database_message,
    environment_message,
    one_line,
)

if _LOADING:
    signal.signal(signal.SIGINT, signal.default_int_handler)

# the modules whose ``register(command)`` defines the commands, in table order
COMMAND_MODULES = tuple(dict.fromkeys(command.module for command in COMMANDS))

__all__ = ["COMMAND_MODULES", "build_parser", "main"]


def build_parser(modules: Iterable[str] | None = None) -> argparse.ArgumentParser:
    """The parser of every command; the arguments of those of ``modules`` (default:
    all), each such module imported (the others' commands have their help alone)."""
    parser = argparse.ArgumentParser(prog="litqeval", description=__doc__.split("\n")[0])
    parser.add_argument("--version", action="version", version=f"litqeval {__version__}")
    sub = parser.add_subparsers(dest="command", required=True, metavar="COMMAND")
    parsers = {c.name: sub.add_parser(c.name, help=c.help, description=c.help)
               for c in COMMANDS}

    def command(name: str, func: Callable) -> argparse.ArgumentParser:
        p = parsers[name]
        if BY_NAME[name].project:
            p.add_argument("project", type=Path, metavar="PROJECT.litq")
        p.add_argument("--json", action="store_true", help="print one JSON document")
        p.set_defaults(func=func)
        return p

    for module in COMMAND_MODULES if modules is None else dict.fromkeys(modules):
        importlib.import_module(f"litqeval_gui.cli.{module}").register(command)
    return parser


def _chosen(argv: Sequence[str]) -> list[str]:
    """The module of the command ``argv`` names (none for ``--help``, ``--version`` or
    an unknown command: argparse then answers from the table alone)."""
    first = next((arg for arg in argv if not arg.startswith("-")), None)
    return [BY_NAME[first].module] if first in BY_NAME else []


def _silence_stdout() -> None:
    """Point stdout at the null device, so the interpreter's final flush of the closed
    pipe raises nothing (Python's advice for SIGPIPE)."""
    devnull = os.open(os.devnull, os.O_WRONLY)
    os.dup2(devnull, sys.stdout.fileno())
    os.close(devnull)


def main(argv: Sequence[str] | None = None) -> int:
    multiprocessing.freeze_support()  # the frozen bundle spawns the parallel parser
    args = argparse.Namespace(project="the project")
    try:
        given = sys.argv[1:] if argv is None else list(argv)
        args = build_parser(_chosen(given)).parse_args(given)
        args.func(args)
        if argv is None and threading.current_thread() is threading.main_thread():
            signal.signal(signal.SIGINT, signal.SIG_IGN)  # done: a late Ctrl-C changes nothing
        sys.stdout.flush()  # a closed pipe shows here, not at exit
    except BrokenPipeError:  # ``litqeval … | head``: the reader has all it wanted
        _silence_stdout()
        return 128 + 13  # as a process killed by SIGPIPE
    except LitqError as err:
        return _fail(f"error: {err}" + (f" {err.cli_hint}" if err.cli_hint else ""), 2)
    except KeyboardInterrupt as interrupt:
        return _fail(str(interrupt) or "interrupted; the project is unchanged", 130)
    except OSError as err:  # the environment: permissions, full disk, missing folders
        return _fail(f"error: {environment_message(err, str(err.filename or 'a file'))}", 2)
    except sqlite3.DatabaseError as err:  # full disk, read-only file, damage found late
        return _fail(f"error: {database_message(err)}", 2)
    except UnicodeDecodeError as err:  # SQLite hands back text bytes that are not UTF-8
        return _fail(f"error: {args.project} is damaged: it holds text that is not UTF-8 "
                     f"({err.reason} at byte {err.start}); nothing was changed", 2)
    except Exception as err:  # noqa: BLE001 — last resort: one line, never a traceback
        return _fail(f"internal error: {type(err).__name__}: {err}", 3)
    return 0


def _fail(message: str, code: int) -> int:
    print(one_line(f"litqeval: {message}"), file=sys.stderr)
    return code

