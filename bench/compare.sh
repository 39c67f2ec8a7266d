#!/usr/bin/env bash
# Measures, in one go on this machine, the time per call of loopbreaker and
# of the JavaScript reference replaying the whole shared corpus with the same
# settings (bench/seed.json on the Go side, the reference's seed settings on
# the other), and prints both figures, their ratio and the machine.
#
#   bench/compare.sh              # 10 rounds on each side, in 3 turns
#   ROUNDS=20 REPEAT=5 bench/compare.sh
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

# The machine is shared and its speed drifts, so the two sides run in
# turns, REPEAT times each, and the fastest round of each side is compared
# (the minimum is the figure least disturbed by other load); every round's
# figure is printed too.
repeat=${REPEAT:-3}
metric() { awk -v unit="$2" '{ for (i = 2; i < NF; i++) if ($(i + 1) == unit) print $i }' <<<"$1"; }
go_all=() rec_all=() js_all=()
for ((r = 0; r < repeat; r++)); do
  go_out=$(go test -run '^$' -bench '^BenchmarkReplayCorpus$' -benchtime "${rounds}x" ./cmd/loopbreaker)
  check_line=$(grep '^BenchmarkReplayCorpus/check' <<<"$go_out") || { echo "$go_out" >&2; exit 1; }
  record_line=$(grep '^BenchmarkReplayCorpus/record' <<<"$go_out") || { echo "$go_out" >&2; exit 1; }
  go_all+=("$(metric "$check_line" ns/call)")
  rec_all+=("$(metric "$record_line" ns/call)")
  go_bytes=$(metric "$check_line" B/op)
  go_allocs=$(metric "$check_line" allocs/op)
  js_out=$(node "$shared/tools/reference-replay.mjs" "$pkg" --bench "$rounds" "$shared"/corpus/sessions/*.jsonl)
  js_all+=("$(node -e 'const r = JSON.parse(process.argv[1]); console.log(r.ns_per_call.toFixed(0))' "$js_out")")
  js_calls=$(node -e 'const r = JSON.parse(process.argv[1]); console.log(r.calls / Number(process.argv[2]))' "$js_out" "$rounds")
done
minof() { printf '%s\n' "$@" | sort -g | head -1; }
go_ns=$(minof "${go_all[@]}")
rec_ns=$(minof "${rec_all[@]}")
js_ns=$(minof "${js_all[@]}")
go_calls=$(ls "$shared"/corpus/sessions/*.jsonl | xargs cat | grep -vc '"event"')

cpu=$(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2- | sed 's/^ *//')
echo "machine: $(nproc) CPUs, $cpu; $(go version | cut -d' ' -f3-); node $(node --version)"
echo "corpus: $(ls "$shared"/corpus/sessions/*.jsonl | wc -l) traces, $rounds rounds on each side, a fresh breaker per trace, $repeat turns each"
echo "every turn, ns per call: loopbreaker Check ${go_all[*]}; reference ${js_all[*]}; loopbreaker Check and Record ${rec_all[*]}"
printf 'loopbreaker (Go), Check:    %8s ns/call, fastest turn  (%s calls a round; %s B and %s allocations a round)\n' "$go_ns" "$go_calls" "$go_bytes" "$go_allocs"
printf 'reference (JavaScript):     %8s ns/call, fastest turn  (%s calls a round)\n' "$js_ns" "$js_calls"
awk -v g="$go_ns" -v j="$js_ns" 'BEGIN { printf "ratio reference/loopbreaker: %.2f\n", j / g }'
printf 'loopbreaker (Go), Check and Record of every result: %s ns/call (the reference has no Record)\n' "$rec_ns"
