"""The ``azul`` command line."""


def main() -> None:
    from azul_core.cli.app import run
    run()
