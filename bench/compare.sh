#!/usr/bin/env bash
# Measures, in one go on this machine, the time per call of loopbreaker and
# of the JavaScript reference replaying the whole shared corpus with the same
# settings (bench/seed.json on the Go side, the reference's seed settings on
# the other), and prints both figures, their ratio and the machine.
#
#   bench/compare.sh              # 10 rounds on each side
#   ROUNDS=20 bench/compare.sh
#
# Needs go, node and npm, and ../shared beside the repository (the corpus
# and the reference's replay and fetch scripts). The reference package is
# downloaded once by ../shared/tools/reference-fetch.sh into a cache outside
# the repository.
set -euo pipefail
cd "$(dirname "$0")/.."
shared=../shared
rounds=${ROUNDS:-10}

if [ ! -d "$shared/corpus/sessions" ]; then
  echo "compare.sh: $shared/corpus/sessions is absent: nothing to measure" >&2
  exit 1
fi
for tool in go node npm; do
  command -v "$tool" >/dev/null || { echo "compare.sh: $tool is not installed" >&2; exit 1; }
done

pkg=$("$shared/tools/reference-fetch.sh")

go_out=$(go test -run '^$' -bench '^BenchmarkReplayCorpus$' -benchtime "${rounds}x" ./cmd/loopbreaker)
# Each benchmark line holds "VALUE UNIT" pairs; pick the ones we report.
metric() { awk -v unit="$2" '{ for (i = 2; i < NF; i++) if ($(i + 1) == unit) print $i }' <<<"$1"; }
check_line=$(grep '^BenchmarkReplayCorpus/check' <<<"$go_out") || { echo "$go_out" >&2; exit 1; }
record_line=$(grep '^BenchmarkReplayCorpus/record' <<<"$go_out") || { echo "$go_out" >&2; exit 1; }
go_ns=$(metric "$check_line" ns/call)
go_bytes=$(metric "$check_line" B/op)
go_allocs=$(metric "$check_line" allocs/op)
rec_ns=$(metric "$record_line" ns/call)
go_calls=$(ls "$shared"/corpus/sessions/*.jsonl | xargs cat | grep -vc '"event"')

js_out=$(node "$shared/tools/reference-replay.mjs" "$pkg" --bench "$rounds" "$shared"/corpus/sessions/*.jsonl)
js_ns=$(node -e 'const r = JSON.parse(process.argv[1]); console.log(r.ns_per_call.toFixed(0))' "$js_out")
js_calls=$(node -e 'const r = JSON.parse(process.argv[1]); console.log(r.calls / Number(process.argv[2]))' "$js_out" "$rounds")

cpu=$(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2- | sed 's/^ *//')
echo "machine: $(nproc) CPUs, $cpu; $(go version | cut -d' ' -f3-); node $(node --version)"
echo "corpus: $(ls "$shared"/corpus/sessions/*.jsonl | wc -l) traces, $rounds rounds on each side, a fresh breaker per trace"
printf 'loopbreaker (Go), Check:    %8s ns/call  (%s calls a round; %s B and %s allocations a round)\n' "$go_ns" "$go_calls" "$go_bytes" "$go_allocs"
printf 'reference (JavaScript):     %8s ns/call  (%s calls a round)\n' "$js_ns" "$js_calls"
awk -v g="$go_ns" -v j="$js_ns" 'BEGIN { printf "ratio reference/loopbreaker: %.2f\n", j / g }'
printf 'loopbreaker (Go), Check and Record of every result: %s ns/call (the reference has no Record)\n' "$rec_ns"
