"""Transport-agnostic services: Discord and the console call these."""
