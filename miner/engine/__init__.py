"""The engines, and the selection inside an SQL engine.

``events`` (``miner.engine.events``) maps the three plugins' rows onto one
shape, once, in SQL; each signal of ``miner.signals`` declares its rule as SQL
over that view; ``miner.engine.query`` joins them into the flags queries, in
DuckDB's dialect, and sqlglot transpiles them for Spark SQL and BigQuery.

The draft job runs on an ``Engine`` (``miner.engine.base``): the embedded
one (``miner.engine.embedded``, DuckDB in a forked child: ``miner.engine.duck``
over the export as ``miner.engine.parquet`` reads it) or Spark
(``miner.engine.spark``), chosen by name in ``miner.engine.registry``.
``miner sql`` prints the queries for the warehouse (``miner.engine.warehouse``).
"""
