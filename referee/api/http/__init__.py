"""HTTP semantics: problems (RFC 9457), conditional requests, answer headers, CORS, request ids."""
