"""Which store a server keeps its tables in: PostgreSQL for a ``postgresql://`` URL (shared by
several processes; psycopg is imported only then), else SQLite in a file of its own."""

from __future__ import annotations

from pathlib import Path

from azul_core.web.store import SQLiteStore, TableStore


def open_store(where: Path | str, durable: bool = False) -> TableStore:
    """The store at ``where``: a ``postgresql://`` URL, or an SQLite file (``StoreError`` if it
    can't be opened, or is another server's)."""
    if isinstance(where, str) and where.startswith(("postgresql://", "postgres://")):
        from azul_core.web.store_postgres import PostgresStore
        return PostgresStore(where, durable=durable)
    return SQLiteStore(where, durable=durable)
