"""Dicy Cards (placeholder while it is written)."""
