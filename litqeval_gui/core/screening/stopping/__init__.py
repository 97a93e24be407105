"""When to stop: rounds and the random-sampling phase (phases), search updates as rounds
(updates), the stopping panel (panel) and finishing a round (finishing)."""
