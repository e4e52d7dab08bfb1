"""Table lifecycle (load, lock, apply, save, render) and the Telegram sender."""
