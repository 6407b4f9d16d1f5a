"""What a store sends its database, counted through SQLAlchemy's events on ``store.engines``."""

from __future__ import annotations

from contextlib import contextmanager

from sqlalchemy import event


class Sent:
    """What the store sends its database: each statement (but BEGIN), the transactions it opens
    and those it commits. A transaction is what the driver opens: on SQLite, the BEGIN the store
    sends itself; on PostgreSQL, the one asyncpg opens for a connection not in autocommit."""

    def __init__(self) -> None:
        self.statements: list[str] = []
        self.begun = 0
        self.committed = 0

    def statement(self, connection, _cursor, statement: str, *_args) -> None:
        if not statement.startswith("BEGIN"):
            self.statements.append(" ".join(statement.split()[:3]))
        elif connection.dialect.name == "sqlite":
            self.begun += 1

    def begin(self, connection) -> None:
        if connection.dialect.name != "sqlite":
            self.begun += connection.get_execution_options().get("isolation_level") != "AUTOCOMMIT"

    def commit(self, _connection) -> None:
        self.committed += 1


@contextmanager
def listening(store):
    """What ``store`` sends while the block runs (a :class:`Sent`)."""
    sent = Sent()
    hooks = (("before_cursor_execute", sent.statement), ("begin", sent.begin), ("commit", sent.commit))
    for engine in store.engines:
        for name, hook in hooks:
            event.listen(engine, name, hook)
    try:
        yield sent
    finally:
        for engine in store.engines:
            for name, hook in hooks:
                event.remove(engine, name, hook)
