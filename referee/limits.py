"""Limits on the work of one request, so that every request within the body limit costs a
bounded time of a worker (under gevent, a long request would starve every other connection
of that worker) and answers a bounded size. Measured by bench/bench_worst.py; figures in
docs/benchmarks.md ("Worst requests"). Elsewhere: the body limit (REFEREE_MAX_BODY_BYTES),
a Call of Katulhu catalogue of at most 128 cats (``MAX_CATS``) with ids of at most 40
characters, a Scratch & Catch deck of at most 99 copies of each card.

- ``MAX_REPLAY_MOVES``: moves of one replay request (the schema answers 422 beyond).
- ``MAX_REPLAY_WORK``: a replay step costs about the size of the state (it is copied and
  checked at each step): the number of moves times the JSON size of the starting state may
  not exceed this (413 beyond, checked before any work).
- ``MAX_REPLAY_STATE_BYTES``: a replay that includes the state after every step answers
  about moves x state size; that product may not exceed this (413 beyond).
- ``MAX_PROBLEM_ERRORS``: errors listed by one problem (a body of tens of thousands of unknown
  fields once got one error each: a 5 MB answer); the detail says how many there were.
- ``MAX_ECHO``: characters of a request value (a member name, a header, a path) that a problem
  quotes; longer ones are cut, ending with an ellipsis (a 1 MB unknown member name was once
  quoted whole, in its pointer).
- ``MAX_MATCH_MOVES``: moves of one match. A Call of Katulhu game may go on for ever (no cat
  attracted, one discarded every two rounds, the discard pile shuffled back), and a match's
  log, read whole by ``GET .../log`` and by each new event stream, grows with its moves; a
  move past this is answered 422 (problem type limit-exceeded) and changes nothing.
- ``MAX_JSON_CONTAINERS``: arrays and objects of one JSON body (opening brackets and braces
  counted before parsing, 400 beyond). The largest bodies a request needs (a 1,000-move
  replay) hold a few thousand; 400,000 nested lists, within the body limit, cost a worker
  0.6 s of CPU to read and refuse.
- ``MAX_IDEMPOTENCY_KEYS``: idempotency keys one seat of a match remembers, its newest;
  storing one more forgets that seat's oldest. Each key keeps a whole answer (a view of the
  state: up to about 30 KB with a large Call of Katulhu catalogue) and the mover's legal moves
  (a Call of Katulhu listing: about 13 KB on average in random play, up to about 25 KB), and
  keys on illegal moves cost no move, so unbounded they let one match hold hundreds of megabytes of Redis for its
  TTL. The bound is the seat's own so that no seat's keys push out another's (which would
  also let a seat count its opponents' keyed requests). A retry follows its request within
  seconds, long before 50 other keyed requests of that seat.
"""

MAX_REPLAY_MOVES = 1000
MAX_REPLAY_WORK = 12 * 1024 * 1024
MAX_REPLAY_STATE_BYTES = 4 * 1024 * 1024
MAX_MATCH_MOVES = 5000
MAX_PROBLEM_ERRORS = 50
MAX_ECHO = 64
MAX_IDEMPOTENCY_KEYS = 50
MAX_JSON_CONTAINERS = 50_000
