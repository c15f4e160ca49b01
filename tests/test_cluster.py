"""Playing a run on a Dask cluster (``--cluster``): the same games as in one process,
house-rule files sent to the workers, clear errors, Ctrl-C keeping what finished.

A LocalCluster of 2 worker processes on 127.0.0.1 is started once for the module.
"""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest
from typer.testing import CliRunner

pytest.importorskip("distributed")

from azul_core.cli.app import _register, app  # noqa: E402
from azul_core.lab import cluster as cluster_module  # noqa: E402
from azul_core.lab.cluster import open_cluster, play_chunk, variant_files  # noqa: E402
from azul_core.lab.simulate import SimulationError, SimulationInterrupted, _Job, simulate  # noqa: E402
from azul_core.variants.loading import load_variant  # noqa: E402

ENV = {"TERMINAL_WIDTH": "200", "TYPER_USE_RICH": "0", "COLUMNS": "200", "NO_COLOR": "1"}
EXAMPLES = Path(__file__).resolve().parent.parent / "examples"
FAMILY_FLOOR = EXAMPLES / "family-floor"

_register()


def azul(*args: str):
    return CliRunner().invoke(app, list(args), env=ENV)


@pytest.fixture(scope="module")
def cluster():
    with open_cluster("local", 2) as opened:
        yield opened


def games(run) -> list[dict]:
    return [result.to_json() for result in run.results]


def test_a_cluster_plays_the_games_of_one_process(cluster):
    here = simulate("standard", 2, 12, seed=5, bots="greedy,random")
    there = simulate("standard", 2, 12, seed=5, bots="greedy,random", cluster=cluster)
    processes = simulate("standard", 2, 12, seed=5, bots="greedy,random", workers=2)
    assert games(there) == games(here) == games(processes)
    assert there.summary() == here.summary()


def test_a_scheduler_named_by_address_plays_the_same_games(cluster):
    address = cluster.local.scheduler_address
    assert address.startswith("tcp://127.0.0.1:")
    here = simulate("duel", 2, 6, seed="x", bots="greedy")
    with open_cluster(address) as remote:
        assert remote.local is None
        there = simulate("duel", 2, 6, seed="x", bots="greedy", cluster=remote)
    assert there.summary() == here.summary()


def test_house_rule_files_reach_the_workers(cluster, tmp_path):
    folder = tmp_path / "family-floor"
    shutil.copytree(FAMILY_FLOOR, folder)
    (folder / "house.yaml").write_text("name: house\nextends: family-floor.yaml\n"
                                       "settings:\n  family_floor_cap: 2\n")
    variant = load_variant(str(folder / "house.yaml"))
    here = simulate(variant, 2, 10, seed=1, bots="greedy", record_dir=tmp_path / "here")
    there = simulate(variant, 2, 10, seed=1, bots="greedy", cluster=cluster, record_dir=tmp_path / "there")
    assert games(there) == games(here)
    assert games(there) != games(simulate("standard", 2, 10, seed=1, bots="greedy"))  # the house rule played
    names = sorted(p.name for p in (tmp_path / "here").iterdir())
    assert names == sorted(p.name for p in (tmp_path / "there").iterdir()) and len(names) == 10
    for name in names:
        assert (tmp_path / "here" / name).read_bytes() == (tmp_path / "there" / name).read_bytes()
    # What a worker on another machine gets: the files as bytes, the folder gone.
    sent = variant_files(variant)
    assert sorted(name for name, _data in sent.files) == ["family-floor.yaml", "family_floor.py", "house.yaml"]
    shutil.rmtree(folder)
    job = _Job("", 2, 1, ["greedy", "greedy"], None, None)
    played = cluster.client.submit(play_chunk, job, sent, [3, 4], pure=False).result()
    assert [r.to_json() for r in played] == games(here)[2:4]


def test_a_plugin_missing_on_a_worker_is_named_with_the_worker(cluster, tmp_path, monkeypatch):
    module = tmp_path / "azul_lab_only_here.py"
    module.write_text("from azul_core import hookimpl\n\n@hookimpl\ndef azul_floor_penalty(floor):\n"
                      "    return -len(floor)\n")
    monkeypatch.syspath_prepend(str(tmp_path))
    path = tmp_path / "named.yaml"
    path.write_text("name: named\nextends: standard\nplugins: [standard, colour_wall, azul_lab_only_here]\n"
                    )
    variant = load_variant(str(path))
    module.unlink()  # installed here (already imported), not on the workers
    with pytest.raises(SimulationError) as failed:
        simulate(variant, 2, 4, seed=1, bots="random", cluster=cluster)
    message = str(failed.value)
    assert "worker tcp://127.0.0.1:" in message
    assert "azul_lab_only_here" in message and "not found" in message


def test_ctrl_c_cancels_the_rest_and_keeps_the_finished_records(cluster, tmp_path):
    calls = []

    def progress(done, total):
        calls.append(done)
        raise KeyboardInterrupt

    with pytest.raises(SimulationInterrupted) as stopped:
        simulate("standard", 2, 200, seed=3, bots="random", cluster=cluster, record_dir=tmp_path,
                 progress=progress)
    finished = stopped.value.finished
    assert calls and 0 < finished < 200 and stopped.value.games == 200
    assert len(list(tmp_path.glob("game-*.json"))) == finished
    # The cluster is free again: the cancelled games don't hold it.
    assert simulate("standard", 2, 4, seed=3, bots="random", cluster=cluster).results


@pytest.mark.parametrize("workers", [1, 2])
def test_ctrl_c_with_local_workers_keeps_the_finished_records(tmp_path, workers):
    def progress(done, total):
        raise KeyboardInterrupt

    with pytest.raises(SimulationInterrupted) as stopped:
        simulate("standard", 2, 200, seed=3, bots="random", workers=workers, record_dir=tmp_path,
                 progress=progress)
    assert 0 < stopped.value.finished < 200
    assert len(list(tmp_path.glob("game-*.json"))) >= stopped.value.finished


def test_simulate_and_compare_take_cluster_on_the_command_line(cluster, tmp_path):
    address = cluster.local.scheduler_address
    plain = azul("simulate", "--games", "8", "--seed", "2", "--bots", "greedy", "--json")
    on_cluster = azul("simulate", "--games", "8", "--seed", "2", "--bots", "greedy", "--json",
                      "--cluster", address)
    assert plain.exit_code == on_cluster.exit_code == 0, on_cluster.output
    assert json.loads(plain.stdout) == json.loads(on_cluster.stdout)
    family = str(FAMILY_FLOOR / "family-floor.yaml")
    plain = azul("compare", "standard", family, "--games", "6", "--seed", "2", "--bots", "greedy", "--json")
    on_cluster = azul("compare", "standard", family, "--games", "6", "--seed", "2", "--bots", "greedy",
                      "--json", "--cluster", address)
    assert plain.exit_code == on_cluster.exit_code == 0, on_cluster.output
    assert json.loads(plain.stdout) == json.loads(on_cluster.stdout)


def test_cluster_without_dask_says_how_to_install_it(monkeypatch):
    monkeypatch.setattr(cluster_module, "dask_available", lambda: False)
    result = azul("simulate", "--games", "2", "--cluster", "local")
    assert result.exit_code == 1
    assert 'pip install ".[cluster]"' in result.stderr and "Traceback" not in result.output


def test_a_cluster_address_must_be_local_or_a_scheduler(monkeypatch):
    monkeypatch.setattr(cluster_module, "CONNECT_TIMEOUT", 1)
    result = azul("simulate", "--games", "2", "--cluster", "somewhere")
    assert result.exit_code == 2 and "tcp://HOST:8786" in result.stderr
    result = azul("simulate", "--games", "2", "--cluster", "tcp://127.0.0.1:1")
    assert result.exit_code == 1 and "can't reach the Dask scheduler at tcp://127.0.0.1:1" in result.stderr


def test_a_variant_file_is_written_after_the_files_it_needs(tmp_path, monkeypatch):
    """Workers of one machine share the folder: one that finds the variant file takes the rest
    as written, so the variant file must be the last to appear (a worker once found a tuned
    candidate whose base file was not there yet)."""
    from azul_core.lab.cluster import VariantFiles
    files = VariantFiles("a/candidate.yaml", (("a/candidate.yaml", b"name: c\nextends: ../b/base.yaml\n"),
                                              ("b/base.yaml", b"name: b\n"), ("b/rule.py", b"")))
    appeared = []
    real_replace = cluster_module.os.replace

    def replace(source, target):
        appeared.append(Path(target).relative_to(tmp_path / f"azul-variant-{files.digest}").as_posix())
        real_replace(source, target)
    monkeypatch.setattr(cluster_module.os, "replace", replace)
    files.write(tmp_path)
    assert appeared[-1] == "a/candidate.yaml" and sorted(appeared) == sorted(name for name, _ in files.files)
