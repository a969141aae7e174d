"""The marshmallow schemas of every request and answer body, their compiled check and JSON pointers."""
