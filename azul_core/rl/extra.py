"""The one message for an RL adapter imported without the ``rl`` extra installed."""

from __future__ import annotations

#: What the ``rl`` extra installs, by the names they are imported by (open_spiel is ``pyspiel``).
RL_EXTRA_MODULES = frozenset({"numpy", "gymnasium", "pettingzoo", "pyspiel"})
INSTALL_RL = "pip install 'azul-variants[rl]'"


class RLExtraMissing(ModuleNotFoundError):
    """An RL adapter needs a package of the ``rl`` extra that is not installed."""


def missing_rl_extra(exc: ModuleNotFoundError) -> ModuleNotFoundError:
    """The error to raise for ``exc``: one line naming the extra when the missing module is one
    of the extra's (a bare "No module named 'numpy'" does not say what to install), else ``exc``."""
    if (exc.name or "").partition(".")[0] not in RL_EXTRA_MODULES:
        return exc
    return RLExtraMissing(f"the RL adapters need the rl extra: {INSTALL_RL} "
                          f"(no module named '{exc.name}')", name=exc.name)
