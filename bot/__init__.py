"""Telegram card tables for Deberts and Thousand."""
