"""The background work that takes outcomes to the platforms: the timer loop (computer moves,
turn timers, idle lobbies) and the outbox loop (what a commit must still show, after a crash
too)."""
