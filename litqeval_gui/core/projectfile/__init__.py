"""The project file: open, lock, migrate and write a ``.litq`` file (the lowest layer of core)."""
