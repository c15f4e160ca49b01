"""The engine: a game of any variant, moved by decisions.

``state`` holds the game and its moves, ``notation`` reads and writes the
record notation, ``plugins`` finds, loads and compiles rule plugins, and
``rulebook`` is a variant resolved for play. Nothing here knows a variant by
name or imports a shipped plugin.
"""
