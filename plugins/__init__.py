"""The rule plugins shipped with azul-variants (installed as ``azul_plugins``).

Each registers through the ``azul.plugins`` entry-point group, exactly as a
third party's plugin would; the core has no private path to them.
"""
