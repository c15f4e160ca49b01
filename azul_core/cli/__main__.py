"""``python -m azul_core.cli``: the ``azul`` command without its entry-point script."""

from azul_core.cli import main

main()
