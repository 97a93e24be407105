"""Simulated screening with known labels: one run (simulate) and many seeds summarised as
a band (simulation_band)."""
