#!/usr/bin/env bash
# Rondo's discrete HTTP serving against nginx on the same files, alternating servers in one run.
#
#   discrete-vs-nginx.sh [ROUNDS]
#
# Each measurement starts its server afresh, loads it for JIT_WARMUP seconds (default 0) and warms
# it up with wrk for WARMUP seconds (default 5), then runs
# wrk -t2 -cC -dDURATION --latency with random-paths.lua and prints its summary. For each
# connection count (CONNS, default "32 8") and round, it measures every Rondo jar in JARS
# ("label=jar=configdir" words) and nginx with the config for that connection count
# (NGINX_32, NGINX_8: sendfile + open_file_cache at 32, directio 4k + aio threads at 8).
#
# Files: /tmp/perf/files/f000.bin..f299.bin, served by nginx from there and by Rondo from its
# library in DATA (made with 'rondo ingest --kind discrete'). Ports: Rondo 18080/18554/18081,
# nginx 18090. Take the measurements holding the build lock, so no build runs alongside:
#   flock /tmp/rondo-mvn.lock benchmarks/scripts/discrete-vs-nginx.sh 2
set -euo pipefail

HERE="$(cd -P -- "$(dirname -- "${BASH_SOURCE[0]}")" && pwd)"
ROUNDS="${1:-2}"
CONNS="${CONNS:-32 8}"
WARMUP="${WARMUP:-5}"
# Seconds of load right after a server starts, before the warm-up: a JVM's JIT needs them, nginx not.
JIT_WARMUP="${JIT_WARMUP:-0}"
DURATION="${DURATION:-15}"
DATA="${DATA:-/tmp/perf/data}"
JARS="${JARS:-after=$HERE/../../server-core/target/rondo.jar=$HERE/../../config}"
NGINX_32="${NGINX_32:-$HERE/nginx-sendfile.conf}"
NGINX_8="${NGINX_8:-$HERE/nginx-directio.conf}"
RONDO_JAVA_OPTS="${RONDO_JAVA_OPTS:-}"
# shellcheck source=servers.sh
source "$HERE/servers.sh"

measure() {
  local label="$1" port="$2" conns="$3"
  if ((JIT_WARMUP > 0)); then
    wrk -t2 -c"$conns" -d"${JIT_WARMUP}s" -s "$HERE/random-paths.lua" "http://127.0.0.1:$port" >/dev/null
  fi
  wrk -t2 -c"$conns" -d"${WARMUP}s" -s "$HERE/random-paths.lua" "http://127.0.0.1:$port" >/dev/null
  local out
  out="$(wrk -t2 -c"$conns" -d"${DURATION}s" --latency -s "$HERE/random-paths.lua" "http://127.0.0.1:$port")"
  local rps p50 p99 errors
  rps="$(awk '/Requests\/sec/ {print $2}' <<<"$out")"
  p50="$(awk '$1 == "50%" {print $2}' <<<"$out")"
  p99="$(awk '$1 == "99%" {print $2}' <<<"$out")"
  errors="$(grep -E 'Non-2xx|Socket errors' <<<"$out" | tr '\n' ' ' || true)"
  printf '%-12s c%-3s %10s req/s  p50 %8s  p99 %8s  %s\n' "$label" "$conns" "$rps" "$p50" "$p99" "$errors"
}

for conns in $CONNS; do
  conf_var="NGINX_$conns"
  conf="${!conf_var:-$NGINX_32}"
  for round in $(seq 1 "$ROUNDS"); do
    for entry in $JARS; do
      IFS='=' read -r label jar config <<<"$entry"
      # shellcheck disable=SC2086
      start_rondo "$jar" "$config" "$DATA" $RONDO_JAVA_OPTS
      measure "$label" 18080 "$conns"
      stop
    done
    start_nginx "$conf"
    measure "nginx-$(basename "$conf" .conf | sed 's/^nginx-//')" 18090 "$conns"
    stop
  done
done
