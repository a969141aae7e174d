#!/usr/bin/env bash
# Referee against boardgame.io 0.50.2: moves per second and server CPU per move, same load
# shape, alternating runs, medians (bench/peer/README.md).
#
#   bash bench/peer/run.sh [ROUNDS=3] [SECONDS=15] [WARMUP=3]
#
# From anywhere; serves the checkout this script is in. Needs node and npm (boardgame.io and
# undici are installed into $PEER_WORK, default a new temporary folder), redis-server, taskset,
# and the project installed in $VENV (default <checkout>/.venv). Starts its own servers (and
# redis-server) on 127.0.0.1 and stops each by its pid. Each round runs, in turn: boardgame.io,
# Referee documented flow (in-process store, then Redis), Referee new flow (in-process store,
# then Redis). Servers on CPU 0, load on CPU 1. The last line printed is
#   peer ratios: new-flow-redis R new-flow-memory R documented-flow-redis R
# Environment: MATCHES (default 32), PEER_WORK, VENV, ACCESS_LOG=1 (Referee writes its access
# log, to a file; default off, as boardgame.io writes none), QUIET_WAIT (seconds to wait at most
# for the rest of the machine to use under 0.2 cores before each run, default 20).
set -u
ROUNDS=${1:-3}; SECS=${2:-15}; WARMUP=${3:-3}
MATCHES=${MATCHES:-32}
SRC=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
CHECKOUT=$(cd "$SRC/../.." && pwd)
VENV=${VENV:-$CHECKOUT/.venv}
PEER_WORK=${PEER_WORK:-$(mktemp -d /tmp/referee-peer-XXXXXX)}
QUIET_WAIT=${QUIET_WAIT:-20}
for tool in node npm redis-server taskset; do
  command -v $tool >/dev/null || { echo "needs $tool"; exit 1; }
done
[ -x "$VENV/bin/gunicorn" ] || { echo "no gunicorn in $VENV: install the project (pip install -e .) or set VENV"; exit 1; }
HERE=$PEER_WORK
cp "$SRC"/*.js "$SRC/package.json" "$HERE/"
if [ ! -d "$HERE/node_modules/boardgame.io" ]; then
  (cd "$HERE" && npm install --silent --no-audit --no-fund >"$HERE/npm.log" 2>&1) || { echo "npm install failed: $HERE/npm.log"; exit 1; }
fi
OUT=$HERE/results/$(date +%Y%m%d-%H%M%S); mkdir -p "$OUT"
RESULTS=$OUT/results.jsonl
PORT_A=18950; PORT_B=18960; PORT_REDIS=18970
for port in $PORT_A $PORT_B $PORT_REDIS; do   # (wait_port would take a stranger's server for ours)
  (exec 3<>/dev/tcp/127.0.0.1/$port) 2>/dev/null && { echo "port $port is taken: stop what listens there"; exit 1; }
done
echo "checkout: $CHECKOUT at $(git -C "$CHECKOUT" rev-parse --short HEAD)  venv: $VENV  node: $(node --version)  nproc: $(nproc)" | tee "$OUT/env.txt"
echo "rounds $ROUNDS, $SECS s measured after $WARMUP s, $MATCHES matches of 2 seats; results in $OUT" | tee -a "$OUT/env.txt"

SERVER_PID=; REDIS_PID=
stop_pid() {  # a pid this script started
  [ -n "$1" ] || return 0
  kill "$1" 2>/dev/null
  for _ in $(seq 1 100); do kill -0 "$1" 2>/dev/null || return 0; sleep 0.1; done
  kill -9 "$1" 2>/dev/null
}
cleanup() { stop_pid "$SERVER_PID"; stop_pid "$REDIS_PID"; }
trap cleanup EXIT
trap 'exit 130' INT TERM

# Wait (at most QUIET_WAIT s) until the rest of the machine uses under 0.2 cores over 2 s.
quiet() {
  local busy=?
  for _ in $(seq 1 $(( (QUIET_WAIT + 1) / 2 ))); do
    busy=$(node -e '
      const {sysCpu}=require("'"$HERE"'/common.js"); const a=sysCpu();
      setTimeout(()=>{const b=sysCpu(); console.log(((b.busy-a.busy)/2).toFixed(2));},2000);')
    if node -e "process.exit(($busy) < 0.2 ? 0 : 1)"; then echo "$busy"; return; fi
  done
  echo "$busy (not quiet)"
}

wait_port() { for _ in $(seq 1 150); do (exec 3<>/dev/tcp/127.0.0.1/$1) 2>/dev/null && return 0; sleep 0.1; done; return 1; }

brief() {  # the figures of one run's load log
  echo "  $(tail -c 800 "$1" | grep -o '"moves_per_s":[0-9.]*\|"server_cpu_us_per_move":[0-9.a-zN]*\|"extra_cpu_us_per_move":[0-9.a-zN]*\|"errors":[0-9]*\|"stalled":[0-9]*\|"loadgen_cpu_pct":[0-9.]*\|"other_cpu_cores":[-0-9.]*' | tr '\n' ' ')"
}

run_boardgameio() {  # $1: run name
  NODE_ENV=production taskset -c 0 node "$HERE/server-a.js" $PORT_A >"$OUT/$1.server.log" 2>&1 &
  SERVER_PID=$!
  wait_port $PORT_A || { echo "boardgame.io did not start"; stop_pid "$SERVER_PID"; return 1; }
  timeout $((WARMUP + SECS + 30)) taskset -c 1 node "$HERE/load-a.js" --port $PORT_A --matches "$MATCHES" \
    --warmup "$WARMUP" --seconds "$SECS" --pids "$SERVER_PID" --out "$RESULTS" >"$OUT/$1.load.log" 2>&1
  stop_pid "$SERVER_PID"; SERVER_PID=
  brief "$OUT/$1.load.log"
}

run_referee() {  # $1: run name, $2: memory|redis, $3: documented|live, $4: label
  local env=(WEB_CONCURRENCY=1 PYTHONDONTWRITEBYTECODE=1 GUNICORN_ACCESS_LOG=) extra=()
  [ "${ACCESS_LOG:-}" = 1 ] && env+=(GUNICORN_ACCESS_LOG=-)
  if [ "$2" = redis ]; then
    redis-cli -p $PORT_REDIS flushall >/dev/null
    env+=(REDIS_URL=redis://127.0.0.1:$PORT_REDIS/0); extra=(--extra-pids "$REDIS_PID")
  else
    env+=(REDIS_URL=)
  fi
  (cd "$CHECKOUT" && exec env "${env[@]}" taskset -c 0 "$VENV/bin/gunicorn" -c gunicorn.conf.py \
     --bind 127.0.0.1:$PORT_B referee.wsgi:app) >"$OUT/$1.server.log" 2>&1 &
  SERVER_PID=$!
  wait_port $PORT_B || { echo "Referee did not start: $OUT/$1.server.log"; stop_pid "$SERVER_PID"; return 1; }
  local worker
  for _ in $(seq 1 50); do worker=$(pgrep -P "$SERVER_PID" | head -1); [ -n "$worker" ] && break; sleep 0.1; done
  timeout $((WARMUP + SECS + 30)) taskset -c 1 node "$HERE/load-b.js" --port $PORT_B --matches "$MATCHES" \
    --warmup "$WARMUP" --seconds "$SECS" --pids "$SERVER_PID,$worker" "${extra[@]}" --mode "$3" --label "$4" \
    --out "$RESULTS" >"$OUT/$1.load.log" 2>&1
  stop_pid "$SERVER_PID"; SERVER_PID=
  brief "$OUT/$1.load.log"
  grep -h "^GET \|^POST \|^illegal \|^stream\|^no legal" "$OUT/$1.load.log" | head -2
  grep -i "error\|warn" "$OUT/$1.server.log" | grep -v "Booting\|Listening\|Starting" | head -2
}

taskset -c 0 redis-server --bind 127.0.0.1 --port $PORT_REDIS --save "" --appendonly no --dir "$HERE" \
  >"$OUT/redis.log" 2>&1 &
REDIS_PID=$!
wait_port $PORT_REDIS || { echo "redis-server did not start: $OUT/redis.log"; exit 1; }

for r in $(seq 1 "$ROUNDS"); do
  for kind in boardgameio documented-memory documented-redis new-memory new-redis; do
    name=r$r-$kind
    echo "[$name] $(date +%T) rest of machine $(quiet) cores | $(uptime | sed 's/.*load/load/')" | tee -a "$OUT/uptime.txt"
    case $kind in
      boardgameio) run_boardgameio "$name" ;;
      documented-memory) run_referee "$name" memory documented documented-flow-memory ;;
      documented-redis) run_referee "$name" redis documented documented-flow-redis ;;
      new-memory) run_referee "$name" memory live new-flow-memory ;;
      new-redis) run_referee "$name" redis live new-flow-redis ;;
    esac
  done
done
echo
node "$HERE/summarize.js" "$RESULTS" | tee "$OUT/summary.md"
