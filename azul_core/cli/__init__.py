"""The ``azul`` command line."""


def main() -> None:
    from .app import run
    run()
