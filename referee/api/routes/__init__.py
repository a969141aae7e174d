"""Thin views: the games (stateless), matches, health and contract, the table page."""
