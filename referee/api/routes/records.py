"""Match records (docs/records.md): thin views over referee/service/records.py and
referee/service/verify.py.

- ``GET /v1/matches/{id}/record``: the match as one portable document, as the reader may
  see it (spectator, or ``?seat=N`` with that seat's secret); everything once the game is over.
- ``POST /v1/records/verify``: the verdict on a complete record (200 valid or not; 422 for a
  body that is not a record; 413 over the replay limits).
"""

from __future__ import annotations

from flask import Response, current_app, request

from referee.api.body.parsing import Blueprint
from referee.api.body.transport import BODY_KEY
from referee.api.contract import examples
from referee.api.contract import match_docs as docs
from referee.api.contract.header_docs import problem
from referee.api.http import conditions
from referee.api.routes.games import json_response
from referee.schemas.matches import SeatQuery
from referee.schemas.records import Record, RecordVerdict
from referee.service import records, verify

blp = Blueprint("records", __name__, url_prefix="/v1",
                description="Match records: the whole match in one document, and its offline verification")


@blp.route("/matches/<string:match_id>/record", methods=["GET"])
@blp.arguments(SeatQuery(), location="query")
@blp.response(200, Record, headers=docs.READ_HEADERS, examples=examples.record_operation("getMatchRecord")[1])
@blp.doc(operationId="getMatchRecord", parameters=docs.READ_PARAMS, security=[{}, {docs.SECURITY_SCHEME: []}],
         responses={"304": docs.NOT_MODIFIED, **docs.READ_PROBLEMS,
                    "404": problem("No such match (or it expired), or a match that kept no record", "NoSuchMatch",
                                   "NoRecord"),
                    "503": docs.STORE_UNAVAILABLE})
def get_record(query, match_id):
    """The whole match as one document

    Options, seeding, first state, every move with its events, last state, scores and outcome
    (docs/records.md), as a spectator (or seat `?seat=N`, with its secret) may see them during
    the game: exactly what its view and log show. Once the game is over the record is complete
    for every reader: the seed and salt, every deal and every hidden choice, ready for
    `POST /v1/records/verify` or `referee verify`."""
    seat = query.get("seat")
    matches = current_app.extensions["referee.matches"]
    snap, meta = matches.read(match_id, seat, request.environ.get("HTTP_AUTHORIZATION"))
    if conditions.not_modified(snap.version):
        return conditions.private(Response(status=304), snap.version)
    return conditions.private(json_response(records.record(matches.store, match_id, snap, meta, seat)), snap.version)


@blp.route("/records/verify", methods=["POST"])
@blp.arguments(Record(), examples=examples.record_operation("verifyRecord")[0])
@blp.response(200, RecordVerdict, examples=examples.record_operation("verifyRecord")[1],
              description="The verdict: a record that departs from the rules is a normal answer (valid false, "
                          "with a pointer to the first discrepancy)")
@blp.doc(operationId="verifyRecord", responses={
    "413": problem("More moves than a match takes (`MAX_MATCH_MOVES`) or too much work (`MAX_REPLAY_WORK`), or a "
                   "body over `REFEREE_MAX_BODY_BYTES`: verify with the command line", "BodyTooLarge", "RecordTooLong"),
    "422": problem("The body is not a record (JSON pointers in `errors`)", "RecordUnfit")})
def verify_record(record):
    """Verify a complete match record

    Checks the commitment, the deal from the revealed seed, every move through the rules, every
    logged event, the last state, the scores and the outcome. Answers `{"valid": true}` or
    `{"valid": false, "pointer", "detail"}` naming the first discrepancy."""
    verify.refuse_repeated_names(request.environ.get(BODY_KEY) or request.get_data(cache=True))
    verify.check_work(record)
    return json_response(verify.verify(record, verify.share_the_worker).to_json())
