"""The hot path's statements, each compiled once per dialect and sent straight to the driver.

SQLAlchemy Core spends about 10-15 us of Python on each statement it executes (its compiled
cache's look-up, an execution context, the parameters' processing) and, for a statement that
returns rows, 40-80 us more making a result from the cursor's description: on a SQLite file in
memory (tmpfs) that is 5-15 times what SQLite itself takes. A :class:`Prepared` statement is
compiled the first time a dialect runs it, with the processors of its parameters and of its
columns taken from their types (the same conversions Core makes: a ``datetime`` to SQLite's
text and back, say); after that it is one call to the driver's cursor, inside whatever
transaction the connection has open, on SQLite and PostgreSQL alike.

It is still seen where SQLAlchemy's own statements are: it announces itself to the
``before_cursor_execute`` listeners of its connection and engine (what the tests count through
``tests.storage.statements``), and a driver's error goes through the connection's own handling
of one (``Connection._handle_dbapi_exception``, SQLAlchemy's, private but the only way in): it is
raised as SQLAlchemy's (:class:`sqlalchemy.exc.DBAPIError` and its kinds, ``IntegrityError`` and
the rest), its ``handle_error`` listeners hear of it, and an error the dialect takes for a lost
connection (a PostgreSQL backend ended, a server restarted) invalidates the connection and the
pool's connections as old, so that the next transaction opens a fresh one instead of meeting the
dead one again.
"""

from __future__ import annotations

from collections import namedtuple
from collections.abc import Callable, Mapping
from typing import Any, NamedTuple

from sqlalchemy import Connection, Dialect
from sqlalchemy.sql.expression import Executable
from sqlalchemy.types import TypeEngine

Processor = Callable[[Any], Any] | None
REQUIRED = object()  # a parameter each run must give


class _Compiled(NamedTuple):
    """A statement as one dialect sends it: its SQL, then, for each positional parameter, its
    name, its value unless given, and its processor; the rows it returns, as a tuple class, with
    the columns that have a processor (by position)."""

    sql: str
    parameters: tuple[tuple[str, Any, Processor], ...]
    row: type | None
    processed: tuple[tuple[int, Callable[[Any], Any]], ...]


class Prepared:
    """One statement of the hot path (see the module's notes): ``first`` for the row it returns
    (None if none), ``rowcount`` for the rows it changed, ``run`` for neither."""

    def __init__(self, statement: Executable) -> None:
        self.statement = statement
        self._by_dialect: dict[str, _Compiled] = {}

    def first(self, connection: Connection, values: Mapping[str, Any]) -> Any:
        compiled, cursor = self._sent(connection, values)
        row = cursor.fetchone()
        cursor.close()
        if row is None or compiled.row is None:
            return None
        values = list(row)
        for index, process in compiled.processed:
            if values[index] is not None:
                values[index] = process(values[index])
        return compiled.row._make(values)

    def rowcount(self, connection: Connection, values: Mapping[str, Any]) -> int:
        _, cursor = self._sent(connection, values)
        changed = cursor.rowcount
        cursor.close()
        return changed

    def run(self, connection: Connection, values: Mapping[str, Any]) -> None:
        self._sent(connection, values)[1].close()

    def _sent(self, connection: Connection, values: Mapping[str, Any]):
        dialect = connection.dialect
        compiled = self._by_dialect.get(dialect.name) or self._compile(dialect)
        parameters = []
        for name, default, process in compiled.parameters:
            value = values[name] if default is REQUIRED else values.get(name, default)
            parameters.append(value if process is None or value is None else process(value))
        cursor = connection.connection.cursor()
        if connection.dispatch.before_cursor_execute:
            connection.dispatch.before_cursor_execute(
                connection, cursor, compiled.sql, parameters, None, False
            )
        try:
            cursor.execute(compiled.sql, parameters)
        except dialect.loaded_dbapi.Error as error:
            # as SQLAlchemy's own execution handles it: raised as SQLAlchemy's, and a lost
            # connection invalidated (with the pool's older ones), so it never goes back to the pool
            connection._handle_dbapi_exception(error, compiled.sql, parameters, cursor, None)
        return compiled, cursor

    def _compile(self, dialect: Dialect) -> _Compiled:
        compiled = self.statement.compile(dialect=dialect)
        assert compiled.positiontup is not None, f"{dialect.name}: a positional paramstyle"
        # no statement whose SQL is made again at each run (an expanding IN, a literal rendered)
        assert not (compiled.literal_execute_params or compiled.post_compile_params), compiled.string
        binds = [compiled.binds[name] for name in compiled.positiontup]
        parameters = tuple(
            (name, REQUIRED if bind.required else bind.value, _processor(bind.type, dialect))
            for name, bind in zip(compiled.positiontup, binds, strict=True)
        )
        columns = getattr(self.statement, "exported_columns", None)
        row, processors = None, ()
        if columns is not None and len(columns):
            row = namedtuple("Row", columns.keys(), rename=True)  # noqa: PYI024
            processors = tuple(
                (index, process)
                for index, column in enumerate(columns)
                if (process := _processor(column.type, dialect, result=True)) is not None
            )
        made = _Compiled(str(compiled), parameters, row, processors)
        self._by_dialect[dialect.name] = made
        return made


def _processor(kind: TypeEngine, dialect: Dialect, result: bool = False) -> Processor:
    """How ``dialect`` converts a value of ``kind`` for the driver (or, for a ``result``, back)."""
    made = kind.dialect_impl(dialect)
    return made.result_processor(dialect, None) if result else made.bind_processor(dialect)
