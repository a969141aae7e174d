"""Schema pieces shared by every game: strict JSON types and the generator's position."""

from marshmallow import Schema, ValidationError, fields, validate


class StrictBoolean(fields.Boolean):
    """A JSON boolean only: marshmallow's Boolean would also take 1, "yes" or "true"."""

    def _deserialize(self, value, attr, data, **kwargs):
        if not isinstance(value, bool):
            raise ValidationError("Not a valid boolean (true or false).")
        return value


class RngState(Schema):
    """The seeded generator's position (docs/rng.md): seed and blocks used so far."""

    seed = fields.String(required=True, validate=validate.Length(max=200))
    counter = fields.Integer(strict=True, required=True, validate=validate.Range(min=0, max=2**53))
