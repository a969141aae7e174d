"""The use cases without Flask: stateless and match operations, seats, domain errors."""
