"""HTTP only: translates requests to the service and answers back (docs/architecture.md)."""
