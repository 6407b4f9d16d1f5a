"""Storage: each channel's game as an append-only command log with a snapshot of its state."""
