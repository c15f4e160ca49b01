"""Tests written for the survivors of the ``catalogue`` mutation scope (bench/mutation.py): what
``azul variants`` and ``azul plugins`` show, as data for any front end."""

from __future__ import annotations

import json

from azul_core.variants import load_variant
from azul_core.variants.catalogue import jsonable, variant_configuration


def test_a_configuration_is_json_data_whatever_its_settings_hold():
    assert jsonable({1: (2, {3: [4, (5,)]}), "x": None}) == {"1": [2, {"3": [4, [5]]}], "x": None}
    document = variant_configuration(load_variant("grey-wall"), resolved=True)
    assert json.loads(json.dumps(document)) == document
    assert document["name"] == "grey-wall" and document["deciders"] and document["origins"]
    assert set(variant_configuration(load_variant("grey-wall"), resolved=False)) == (
        {"name", "description", "path", "players", "plugins", "decide", "settings"})
