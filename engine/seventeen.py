"""17 (placeholder while it is written)."""
