"""Ranking records for screening: features, models, the stored ranking and retraining,
the queue's orderings, known relevant records, seeding, selection and highlighting."""
