"""Callback data classes and the inline keyboards built from them."""
