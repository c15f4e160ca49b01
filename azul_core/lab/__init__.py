"""The balance lab: many games (``simulate``), their statistics (``stats``),
variants side by side (``compare``), and their pictures (``plots``) and report
(``report``)."""
