"""The contract's examples and the OpenAPI fragments of the operations."""
