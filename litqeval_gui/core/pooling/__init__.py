"""Incremental variable-depth pooling of a topic's ranked runs (SPEC §4; thesis ch. 8).

:mod:`.store` keeps pools in the project file (runs fixed at creation, the depth
released so far) and releases depths into the pool's screening; :mod:`.state` derives
everything else from the runs and the judgements (nrels, pool sizes, ŕ, k_cr, the
low-yield rule, run contributions, static pools) and balances effort across topics.
"""
