"""Redaction's data and matchers: word lists, regex tables and the checks of
known formats. No Presidio here: the recognizers build on these."""
