"""Variant files: reading them (``files``), resolving them into rules
(``loading``), checking them (``check``) and saying how they differ from the
standard game (``differences``)."""

from azul_core.variants.loading import (
                                        Variant,
                                        VariantError,
                                        builtin_variants,
                                        find_variant,
                                        known_variants,
                                        load_variant,
)

__all__ = ["Variant", "VariantError", "builtin_variants", "find_variant", "known_variants", "load_variant"]
