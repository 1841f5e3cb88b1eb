"""Modules that misbehave as they are imported, one way each: the entry points of
tests/test_plugins.py name a class in each, which only the printing one reaches."""
