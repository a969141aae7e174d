"""Operations: metrics, a stopping worker, live waits (long-polls and event streams)."""
