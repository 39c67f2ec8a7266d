#!/usr/bin/env bash
# Scores loopbreaker's decisions on the shared corpus beside the JavaScript
# reference and the simple rules of other harnesses, and prints the tables
# of the README and docs/quality.md.
#
#   bench/quality.sh
#
# Needs go, python3, node and npm, and ../shared beside the repository.
# Decisions are written to bench/out/.
set -euo pipefail
cd "$(dirname "$0")/.."
shared=../shared
sessions=$shared/corpus/sessions
disguised=$shared/corpus/disguised
tools=$shared/tools
out=bench/out
mkdir -p "$out"

if [ ! -d "$sessions" ]; then
  echo "quality.sh: $sessions is absent: nothing to measure" >&2
  exit 1
fi

go build -o "$out/loopbreaker" ./cmd/loopbreaker
pkg=$("$tools/reference-fetch.sh")

# decide NAME SET COMMAND...: writes $out/NAME-SET.jsonl.
decide() {
  local name=$1 set=$2 dir
  shift 2
  dir=$sessions
  [ "$set" = disguised ] && dir=$disguised
  "$@" "$dir"/*.jsonl >"$out/$name-$set.jsonl"
}

for set in sessions disguised; do
  decide loopbreaker "$set" "$out/loopbreaker" replay -json
  decide loopbreaker-strict "$set" "$out/loopbreaker" replay -json -config bench/seed.json
  decide reference "$set" node "$tools/reference-replay.mjs" "$pkg"
  decide consecutive5 "$set" python3 "$tools/peer-rules.py" consecutive:5
  decide consecutive3 "$set" python3 "$tools/peer-rules.py" consecutive:3
  decide actobs4 "$set" python3 "$tools/peer-rules.py" actobs:4
done

label() {
  case $1 in
    loopbreaker) echo "loopbreaker, defaults" ;;
    loopbreaker-strict) echo "loopbreaker, reference settings (bench/seed.json)" ;;
    reference) echo "JavaScript reference, specification defaults" ;;
    consecutive5) echo "consecutive identical calls, 5th blocked (Gemini CLI)" ;;
    consecutive3) echo "consecutive identical calls, 3rd blocked (OpenCode)" ;;
    actobs4) echo "same call and same result, 4th blocked (OpenHands)" ;;
  esac
}

echo "Recorded sessions ($sessions, scored with score.py):"
echo
echo "| detector | successful sessions interrupted | per 1k calls | identical runs caught by the 5th call | harness-stopped sessions interrupted |"
echo "|---|---:|---:|---:|---:|"
for name in reference consecutive5 consecutive3 actobs4 loopbreaker-strict loopbreaker; do
  python3 "$tools/score.py" "$sessions" "$out/$name-sessions.jsonl" | python3 -c '
import json, sys
d = json.load(sys.stdin)
print("| %s | %.1f%% | %.2f | %.0f%% | %.1f%% |" % (sys.argv[1], d["success_sessions_blocked_pct"], d["success_blocked_per_1k_calls"], d["loop_caught_pct"], d["stuck_sessions_blocked_pct"]))' "$(label "$name")"
done
echo
echo "Disguised loops ($disguised, scored with score_disguised.py):"
echo
echo "| detector | pos caught by the 5th loop call | pos caught at all | median first block | neg interrupted |"
echo "|---|---:|---:|---:|---:|"
for name in reference consecutive5 consecutive3 actobs4 loopbreaker-strict loopbreaker; do
  python3 "$tools/score_disguised.py" "$disguised" "$out/$name-disguised.jsonl" | python3 -c '
import json, sys
d = json.load(sys.stdin)
m = d["pos_first_block_median"]
print("| %s | %.0f%% | %.0f%% | %s | %.0f%% |" % (sys.argv[1], d["pos_caught_pct"], d["pos_caught_any_pct"], "-" if m is None else m, d["neg_interrupted_pct"]))' "$(label "$name")"
done
