"""Benchmarks, corpora, reports and demos (``python -m tools.<name>``);
pytest does not collect them."""
