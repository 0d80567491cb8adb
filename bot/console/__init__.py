"""The local table: a human against computer players in a terminal, over the real service."""
