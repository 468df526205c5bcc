"""The selection inside an SQL engine.

``events`` (``miner.engine.events``) maps the three plugins' rows onto one
shape, once, in SQL; each signal of ``miner.signals`` declares its rule as SQL
over that view; ``miner.engine.query`` joins them into the flags queries, in
DuckDB's dialect, and sqlglot transpiles them for Spark SQL and BigQuery.
``miner.engine.duck`` runs them embedded; ``miner.engine.spark`` runs them on Spark;
``miner sql`` prints them for the warehouse.
"""
