#!/usr/bin/env bash
# Replays the shared corpus through loopbreaker (at the comparison settings
# of bench/seed.json, and at its defaults) and through the JavaScript
# reference (at its seed settings), then lists every call on which
# loopbreaker and the reference disagree, grouped by cause. docs/compat.md
# explains each group.
#
#   bench/compare-decisions.sh
#
# Writes bench/out/{go,default,ref}.jsonl and bench/out/disagreements.md
# (every disagreement with its hits and command) and prints the summary.
# Needs go, node and npm, and ../shared beside the repository.
set -euo pipefail
cd "$(dirname "$0")/.."
shared=../shared
sessions=$shared/corpus/sessions
out=bench/out

if [ ! -d "$sessions" ]; then
  echo "compare-decisions.sh: $sessions is absent: nothing to compare" >&2
  exit 1
fi
mkdir -p "$out"
pkg=$("$shared/tools/reference-fetch.sh")

go build -o "$out/loopbreaker" ./cmd/loopbreaker
"$out/loopbreaker" replay -json -config bench/seed.json "$sessions" > "$out/go.jsonl"
"$out/loopbreaker" replay -json "$sessions" > "$out/default.jsonl"
node "$shared/tools/reference-replay.mjs" "$pkg" "$sessions"/*.jsonl > "$out/ref.jsonl"

go run ./bench/decisiondiff -traces "$sessions" -go "$out/go.jsonl" -ref "$out/ref.jsonl" \
  -default "$out/default.jsonl" -details "$out/disagreements.md"
echo
echo "every disagreement: $out/disagreements.md"
