"""Screening, Qt-free, by feature (lowest first; ``pyproject.toml``'s import contract
keeps each above the ones it reads):

- ``log``: screenings, their items and the decision event log, label schemes;
- ``reviewers``: each reviewer's decisions, conflicts, resolutions, agreement, blind and
  dual screening, decisions exchanged between copies;
- ``state``: where each item stands (final decision, conflict, undecided): the one
  reading every count takes;
- ``ranking``: features, models, retraining and the queue's orderings;
- ``stopping``: rounds, search updates, the random phase, the stopping panel, finishing
  a round;
- ``export`` and ``fulltext``: the decision exports; the full-text phase;
- ``session``: the screening session the screener and the CLI drive;
- ``simulation``: screening simulated with known labels;
- ``prisma``: the PRISMA 2020 flow, its entered numbers and its diagram.
"""
