#!/usr/bin/env bash
# Rondo's discrete HTTP serving while STREAMS streams (default 100) of a 2 Mbit/s object play,
# beside nginx serving the same files with no streams, alternating in one run.
#
#   discrete-with-streams.sh [ROUNDS]
#
# The stream object is /streams/s.ts in DATA, 120 s at 2 Mbit/s, e.g.
#   head -c 30000000 /dev/urandom > /tmp/perf/streams/stream.ts
#   rondo ingest --data /tmp/perf/data --kind continuous --bitrate 2M --as /streams/s.ts /tmp/perf/streams/stream.ts
# StreamLoad.java (beside this script) plays the streams in one JVM. After the streams have
# started, wrk warms up for WARMUP seconds and measures for DURATION with random-paths.lua; the
# server's stream glitches and deadline misses are read from its /metrics at the end.
set -euo pipefail

HERE="$(cd -P -- "$(dirname -- "${BASH_SOURCE[0]}")" && pwd)"
ROUNDS="${1:-1}"
CONNS="${CONNS:-32}"
STREAMS="${STREAMS:-100}"
WARMUP="${WARMUP:-5}"
JIT_WARMUP="${JIT_WARMUP:-0}"
DURATION="${DURATION:-15}"
DATA="${DATA:-/tmp/perf/data}"
JAR="${JAR:-$HERE/../../server-core/target/rondo.jar}"
CONFIG="${CONFIG:-$HERE/../../config}"
NGINX_CONF="${NGINX_CONF:-$HERE/nginx-sendfile.conf}"
# shellcheck source=servers.sh
source "$HERE/servers.sh"

wrk_line() {
  local label="$1" port="$2"
  if ((JIT_WARMUP > 0)); then
    wrk -t2 -c"$CONNS" -d"${JIT_WARMUP}s" -s "$HERE/random-paths.lua" "http://127.0.0.1:$port" >/dev/null
  fi
  wrk -t2 -c"$CONNS" -d"${WARMUP}s" -s "$HERE/random-paths.lua" "http://127.0.0.1:$port" >/dev/null
  local out
  out="$(wrk -t2 -c"$CONNS" -d"${DURATION}s" --latency -s "$HERE/random-paths.lua" "http://127.0.0.1:$port")"
  printf '%-22s c%-3s %10s req/s  p50 %8s  p99 %8s  %s\n' "$label" "$CONNS" \
    "$(awk '/Requests\/sec/ {print $2}' <<<"$out")" "$(awk '$1 == "50%" {print $2}' <<<"$out")" \
    "$(awk '$1 == "99%" {print $2}' <<<"$out")" "$(grep -E 'Non-2xx|Socket errors' <<<"$out" | tr '\n' ' ' || true)"
}

for round in $(seq 1 "$ROUNDS"); do
  start_rondo "$JAR" "$CONFIG" "$DATA"
  seconds=$((10 + JIT_WARMUP + WARMUP + DURATION + 5))
  java -cp "$JAR" "$HERE/StreamLoad.java" 127.0.0.1 18554 /streams/s.ts "$STREAMS" "$seconds" \
    >/tmp/perf/stream-load.log 2>&1 3>&- 4>&- 5>&- 6>&- 7>&- 8>&- 9>&- &
  load_pid=$!
  sleep 10
  wrk_line "rondo+${STREAMS}streams" 18080
  wait "$load_pid" || true
  metrics="$(curl -s -H "Authorization: Bearer $(cat "$DATA/rondo/read.token")" http://127.0.0.1:18081/metrics)"
  printf '  %s; server: glitches %s, deadline misses %s\n' "$(tail -1 /tmp/perf/stream-load.log)" \
    "$(awk '/^rondo_stream_glitches_total/ {print $2}' <<<"$metrics")" \
    "$(awk '/^rondo_deadline_misses_total/ {s += $2} END {print s}' <<<"$metrics")"
  stop
  start_nginx "$NGINX_CONF"
  wrk_line "nginx-$(basename "$NGINX_CONF" .conf | sed 's/^nginx-//')" 18090
  stop
done
