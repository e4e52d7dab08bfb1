"""Benchmarks that print figures: ``python -m bot.bench engine``."""
