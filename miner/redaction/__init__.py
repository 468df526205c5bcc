"""Redaction: what in a session is personal, and placeholders in its place."""
