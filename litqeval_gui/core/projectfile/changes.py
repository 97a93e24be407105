"""What a mutation of the project changed: the one value every write returns.

Screens compare it with what they show and refresh only that (Anki's ``OpChanges``).
``topics``: topics added or removed; ``lists``: imported lists added, removed or
renamed; ``records``: records added or removed; ``works``: which records form one
work (grouping); ``verdicts``: the user's verdicts on matches; ``parameters``: the
project's parameters; ``decisions``: screenings, their screening decisions (events),
rankings or pools; ``evaluation``: stored vectors, maps or evaluation results;
``attachments``: records' full texts (PDFs) attached, replaced or detached. ``Changes()`` is
"nothing visible changed" and is falsy.
"""

from __future__ import annotations

from dataclasses import dataclass, fields


@dataclass(frozen=True)
class Changes:
    topics: bool = False
    lists: bool = False
    records: bool = False
    works: bool = False
    verdicts: bool = False
    parameters: bool = False
    decisions: bool = False
    evaluation: bool = False
    attachments: bool = False

    def __or__(self, other: Changes) -> Changes:
        """Both changes together."""
        return Changes(**{f.name: getattr(self, f.name) or getattr(other, f.name)
                          for f in fields(self)})

    def __bool__(self) -> bool:
        return any(getattr(self, f.name) for f in fields(self))


NOTHING = Changes()
IMPORTED = Changes(topics=True, lists=True, records=True, works=True)
