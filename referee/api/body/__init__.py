"""Request bodies: read whole within their deadline, parsed once as strict JSON."""
