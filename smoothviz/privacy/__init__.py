"""Differential privacy: mechanisms and their ledger, MWEM and its smooth variants, RSPM, PRSMA.

Query release pays log(1/σ) instead of log |X| on smooth data (Haghtalab, Roughgarden & Shetty 2020,
§4); learning and synthetic tables privately with an optimisation oracle follow Neel, Roth & Wu 2019.
"""
