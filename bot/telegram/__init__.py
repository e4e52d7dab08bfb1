"""The Telegram edge: handlers, callback data, middlewares, sending, pacing and start-up."""
