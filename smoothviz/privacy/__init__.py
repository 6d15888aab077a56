"""Differential privacy: mechanisms, MWEM and its smooth variants, the net mechanism, RSPM, PRSMA and OracleQuery (Haghtalab, Roughgarden & Shetty 2020, §4; Neel, Roth & Wu 2019)."""
