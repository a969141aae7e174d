"""Schemas shared by every game's state: the seeded generator's position."""

from marshmallow import Schema, fields, validate


class RngState(Schema):
    """The seeded generator's position (docs/rng.md): seed and blocks used so far."""

    seed = fields.String(required=True, validate=validate.Length(max=200))
    counter = fields.Integer(strict=True, required=True, validate=validate.Range(min=0, max=2**53))
