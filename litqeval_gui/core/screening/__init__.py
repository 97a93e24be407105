"""Screening (issue 14), Qt-free: screenings and their decision event log (``store``),
label schemes (``labels``), the queue and its orderings (``queue``), TF-IDF features and
active-learning models (``features``, ``models``, ``retrain``), the stopping panel
(``panel``), simulation with known labels (``simulate``) and exports (``export``)."""
