"""Reviewers together: each one's decisions, conflicts, resolutions, agreement, blind and
dual screening (team), and decisions exchanged between copies of a project (exchange)."""
