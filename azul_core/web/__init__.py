"""The private online table (``azul serve``): a Starlette application over the engine.

Imported only by ``azul serve`` and ``azul play --join``, so that the rest of
the command line never loads the web stack.
"""
