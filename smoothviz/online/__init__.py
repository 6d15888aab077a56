"""Online learning: thresholds, covers, adversaries, Hedge and perturbed leaders (Haghtalab, Roughgarden & Shetty 2020, §3)."""
