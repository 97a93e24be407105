"""Reading a decisions file (the format :mod:`.exchange` writes) for a merge, and the
checks every incoming event passes, whether from a file or from a copy of the project.

Every line is read whatever it holds: one that is not JSON, is nested too deeply, holds
a number past Python's limit of digits or text that is no valid Unicode (a lone
surrogate), or has no event's shape (:func:`fault`), refuses the whole file in one line.
Names and reasons come in as plain one-line text (:func:`plain_event`, the rule list
names follow), and a file carries its own reviewer's events only
(:func:`only_its_reviewer`).
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from litqeval_gui.core.errors import LitqError
from litqeval_gui.core.records.lists import plain_name
from litqeval_gui.core.screening.log.plain import plain_text

FORMAT = "litqeval-decisions"
VERSION = 1
KINDS = ("decide", "undo", "redo", "resolve")
MAX_POSITION = 2**63 - 1  # SQLite's largest integer
_TEXTS = ("label", "reason", "note", "phase", "ordering", "model")

Entry = tuple[str, dict[str, Any]]  # where in its source the event is ("line 3"), the event


def read_file(path: Path) -> tuple[dict[str, Any], list[Entry]]:
    """Header and events of a decisions file, their names and reasons plain
    (:func:`plain_event`), or one clear line why not (module docstring)."""
    try:
        with open(path, encoding="utf-8") as handle:
            rows = [(number, _parsed(path, number, line))
                    for number, line in enumerate(handle, 1) if line.strip()]
    except (OSError, UnicodeDecodeError) as err:
        raise LitqError(f"cannot read {path.name}: {err}") from None
    header = rows[0][1] if rows and isinstance(rows[0][1], dict) else {}
    if header.get("format") != FORMAT:
        raise LitqError(f"{path.name} is not a LitQEval decisions file")
    if header.get("version") != VERSION:
        raise LitqError(f"{path.name} is a decisions file of version "
                        f"{shown(header.get('version'))}; this version reads version {VERSION}")
    entries = []
    for number, event in rows[1:]:
        wrong = fault(event)
        if wrong:
            raise LitqError(f"{path.name}: line {number} is not a decision event ({wrong})")
        entries.append((f"line {number}", plain_event(f"{path.name}: line {number}", event)))
    return header, entries


def _parsed(path: Path, number: int, line: str) -> object:
    """One line's JSON value; a line that is none, or holds what Python cannot take, is
    refused in one line."""
    try:
        row = json.loads(line)
        if "\\u" in line:  # only an escape can make a lone surrogate
            json.dumps(row, ensure_ascii=False).encode("utf-8")
    except json.JSONDecodeError:
        raise LitqError(f"{path.name} is not a decisions file (line {number} is not JSON)"
                        ) from None
    except UnicodeEncodeError:
        raise LitqError(f"{path.name}: line {number} holds text that is not valid Unicode "
                        "(a lone surrogate)") from None
    except ValueError:  # an integer past Python's limit of digits
        raise LitqError(f"{path.name}: line {number} holds a number too long for a "
                        "decision event") from None
    except RecursionError:
        raise LitqError(f"{path.name}: line {number} is nested too deeply for a decision "
                        "event") from None
    return row


def shown(value: object) -> str:
    """``value`` for a message: its ``repr``, at most 40 characters."""
    text = repr(value)
    return text if len(text) <= 40 else text[:37] + "..."


def fault(event: object) -> str:
    """What keeps ``event`` from having a decision event's shape ("" when nothing): its
    kind, reviewer and time stamp, its record's fingerprint of text and numbers, texts
    for its label, reason, note…, a position SQLite can hold, a list of text for its
    tags, its target (undo/redo) a reviewer and a time stamp."""
    if not isinstance(event, dict):
        return "it is not a JSON object"
    if event.get("kind") not in KINDS:
        return f"its kind is not one of {', '.join(KINDS)}"
    record = event.get("record")
    position = event.get("position")
    checks = (
        ("its reviewer is not text", isinstance(event.get("reviewer"), str)),
        ("its time stamp is not text", isinstance(event.get("at"), str)),
        ("its record is damaged", isinstance(record, dict) and all(
            isinstance(v, str | int) or v is None for v in record.values())),
        *((f"its {key} is not text", isinstance(event.get(key, ""), str)) for key in _TEXTS),
        ("its position is not a whole number from 0 to 2**63 - 1", position is None or (
            type(position) is int and 0 <= position <= MAX_POSITION)),
        ("its tags are not a list of text", isinstance(event.get("tags") or [], list)
         and all(isinstance(t, str) for t in event.get("tags") or [])),
        ("its target is damaged", _is_target(event.get("target"))),
    )
    return next((wrong for wrong, right in checks if not right), "")


def _is_target(target: object) -> bool:
    return target is None or (isinstance(target, dict) and isinstance(
        target.get("reviewer"), str) and isinstance(target.get("at"), str))


def plain_event(where: str, event: dict[str, Any]) -> dict[str, Any]:
    """``event`` (of :func:`fault`'s shape) with its reviewer's name, its target's and its
    reason as plain one-line text (:func:`~litqeval_gui.core.screening.log.plain.plain_text`);
    a reviewer's name left empty is refused."""
    target = event.get("target")
    return {**event,
            "reviewer": plain_text(event["reviewer"], f"{where}: an event needs its "
                                                      "reviewer's name"),
            "reason": plain_name(event.get("reason") or ""),
            "target": None if target is None else {**target,
                                                   "reviewer": plain_name(target["reviewer"])}}


def header_screening(path: Path, header: dict[str, Any]) -> dict[str, Any]:
    """The header's screening (uuid, name, topic…), or one line that it is damaged."""
    screening = header.get("screening")
    if not isinstance(screening, dict) or not isinstance(screening.get("uuid"), str):
        raise LitqError(f"{path.name}: the header's screening is damaged")
    return screening


def plain_unblinds(path: Path, unblinds: object) -> list[tuple[str, str]]:
    """A source's unblind events (``[{"reviewer", "at"}, …]``) as (reviewer, time stamp),
    the names plain; one line when they are damaged."""
    if not (isinstance(unblinds, list) and all(
            isinstance(u, dict) and isinstance(u.get("reviewer"), str)
            and isinstance(u.get("at"), str) for u in unblinds)):
        raise LitqError(f"{path.name}: its unblind events are damaged")
    return [(plain_text(u["reviewer"], f"{path.name}: an unblinding needs the reviewer's "
                                       "name"), u["at"]) for u in unblinds]


def only_its_reviewer(path: Path, header: dict[str, Any], entries: list[Entry]) -> str:
    """The file's reviewer (plain), once every event is theirs: their decisions, their
    undos and redos of their own decisions, the resolutions they made. Anything else —
    an event naming another reviewer, an undo aimed at someone else's decision, a
    resolution "by consensus" — refuses the whole file in one line that lists the
    first few."""
    named = header.get("reviewer")
    reviewer = plain_text(named if isinstance(named, str) else "",
                          f"{path.name}: the header names no reviewer")
    foreign = []
    for where, event in entries:
        target = event["target"]
        aimed = reviewer if target is None else target["reviewer"]
        if event["reviewer"] != reviewer:
            foreign.append(f"{where}: a {event['kind']} by {shown(event['reviewer'])}")
        elif event["kind"] in ("undo", "redo") and aimed != reviewer:
            foreign.append(f"{where}: an {event['kind']} of a decision by {shown(aimed)}")
    if foreign:
        first = "; ".join(foreign[:3]) + (f"; and {len(foreign) - 3} more" if len(foreign) > 3
                                          else "")
        raise LitqError(f"{path.name} is {shown(reviewer)}'s decisions file but "
                        f"{len(foreign)} of its events are not theirs ({first}); a decisions "
                        "file adds only its own reviewer's decisions; nothing was merged")
    return reviewer
