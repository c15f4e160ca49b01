"""azul-variants: an Azul rules engine in which every rule a variant may change is a plugin."""

__version__ = "0.1.0"

#: The hook API this core offers. A plugin may set ``AZUL_API = N`` (or a
#: tuple of accepted versions); a plugin that needs another API is refused.
API_VERSION = 1

from azul_core.hookspecs import hookimpl  # noqa: E402  (the marker every plugin imports)

__all__ = ["API_VERSION", "hookimpl", "__version__"]
