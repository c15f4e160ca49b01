"""The PostgreSQL the table server's tests use: ``AZUL_TEST_POSTGRES_URL`` (``.ci/run`` starts
one and sets it). Without it these tests are skipped, unless ``AZUL_REQUIRE_POSTGRES=1`` (CI),
where a missing database is a failure."""

from __future__ import annotations

import os
import uuid
from urllib.parse import quote

import pytest
from variant_catalog import shipped_and_example_variants


def postgres_url() -> str:
    url = os.environ.get("AZUL_TEST_POSTGRES_URL")
    required = os.environ.get("AZUL_REQUIRE_POSTGRES") == "1"
    if not url:
        if required:
            pytest.fail("AZUL_REQUIRE_POSTGRES=1 but AZUL_TEST_POSTGRES_URL is not set")
        pytest.skip("no PostgreSQL to test against (set AZUL_TEST_POSTGRES_URL)")
    try:
        import psycopg  # noqa: F401
    except ImportError:
        if required:
            raise
        pytest.skip("psycopg is not installed (pip install 'azul-variants[postgres]')")
    return url


@pytest.fixture
def postgres():
    """A URL of the test database whose tables live in a schema of their own, dropped after."""
    import psycopg
    url = postgres_url()
    schema = f"azul_test_{uuid.uuid4().hex[:12]}"
    with psycopg.connect(url, autocommit=True) as admin:
        admin.execute(f"CREATE SCHEMA {schema}")
    try:
        yield url + ("&" if "?" in url else "?") + "options=" + quote(f"-csearch_path={schema}")
    finally:
        with psycopg.connect(url, autocommit=True) as admin:
            admin.execute(f"DROP SCHEMA {schema} CASCADE")


@pytest.fixture(scope="session")
def catalog():
    """The variants a test server offers: the shipped ones and the house rules of examples/.

    Built once for the whole run, not once per file: working out each variant's differences
    from the standard game takes a few seconds, and a mutant of the ``web`` scope
    (bench/mutation.py) runs every test file that reaches its function in one session. A file
    that offers other variants defines its own ``catalog``. Nothing changes a catalog once built.
    """
    return shipped_and_example_variants()


# bench/mutation.py's `web` scope: mutmut forks each mutant's test process from one that has
# collected the tests, so a catalog built here, once, is every mutant's, where each would take
# a second or two to build its own. The scope mutates none of the code that builds a catalog
# (variant loading, differences, the bots' registry): the script says so by this variable.
if os.environ.get("AZUL_MUTATION_CATALOG_UNMUTATED") == "1":
    shipped_and_example_variants()


def pytest_collection_modifyitems(items):
    """A test that opens Chromium (through the ``browser`` fixture) is a browser test even when
    its file holds other tests too, so ``-m "not browser"`` leaves every one of them out."""
    for item in items:
        if "browser" in getattr(item, "fixturenames", ()):
            item.add_marker(pytest.mark.browser)
