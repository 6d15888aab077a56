"""Online learning: thresholds against worst-case and σ-smoothed adversaries, covers and brackets.

Each module is one idea of Haghtalab, Roughgarden & Shetty 2020, §3: binary search and its adversaries,
ε-covers and brackets of size poly(1/σ), Hedge on a cover, MW, FTL and perturbed leaders.
"""
