"""Redaction: what is personal in a session, and what the reviewer must decide."""
