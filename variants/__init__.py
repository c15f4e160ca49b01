"""The variant files shipped with azul-variants (installed as ``azul_variants``)."""
