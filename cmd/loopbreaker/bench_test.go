package main

import (
	"bufio"
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"

	"github.com/loopbreaker/loopbreaker"
	"github.com/loopbreaker/loopbreaker/internal/trace"
	"github.com/stretchr/testify/require"
)

// seedConfig returns the comparison settings of bench/seed.json: the
// reference's seed specification (window 12, exact/cmd/net/sink capped at
// 5, volume kinds off, local hosts denied), with loopbreaker's own additions
// switched off so that both sides do the same work.
func seedConfig(tb testing.TB) loopbreaker.Config {
	tb.Helper()
	f, err := os.Open(filepath.Join("..", "..", "bench", "seed.json"))
	require.NoError(tb, err)
	defer f.Close()
	cfg, err := loopbreaker.LoadConfig(f)
	require.NoError(tb, err)
	return cfg
}

// TestSeedConfig pins the comparison settings to what bench/compare.sh
// and docs/compat.md say they are.
func TestSeedConfig(t *testing.T) {
	cfg := seedConfig(t)
	require.Equal(t, 12, cfg.Window)
	for _, kind := range []string{"exact", "cmd", "net", "sink"} {
		require.Equal(t, 5, cfg.Limits[kind], kind)
	}
	for _, key := range []string{"site", "family:http-fetch", "verb:curl", "verb:wget"} {
		require.Equal(t, loopbreaker.Off, cfg.Limits[key], key)
	}
	require.Equal(t, loopbreaker.LocalDeny, cfg.LocalHosts)
	require.True(t, cfg.Strict)
	require.Equal(t, loopbreaker.Off, cfg.FailLimit)
	require.Equal(t, loopbreaker.Off, cfg.WarnMargin)
	require.Equal(t, loopbreaker.Off, cfg.MaxDenials)
}

// loadCorpus reads every trace of the shared corpus and counts its calls.
func loadCorpus(tb testing.TB) (traces [][]trace.Event, calls int) {
	tb.Helper()
	files, err := filepath.Glob(filepath.Join(corpusDir(tb), "*.jsonl"))
	require.NoError(tb, err)
	for _, f := range files {
		fh, err := os.Open(f)
		require.NoError(tb, err)
		events, _, err := trace.Read(bufio.NewReader(fh))
		fh.Close()
		require.NoError(tb, err)
		for _, ev := range events {
			if !ev.User {
				calls++
			}
		}
		traces = append(traces, events)
	}
	return traces, calls
}

// BenchmarkReplayCorpus replays the whole shared corpus, each trace through
// a fresh Breaker at the comparison settings, as the JavaScript reference's
// --bench mode does (after one untimed warm-up round, like it), and reports
// the time per call. "check" does what the
// reference's replay does (user turns and checks); "record" also hands every
// allowed call's result to Record, as a host does.
func BenchmarkReplayCorpus(b *testing.B) {
	traces, calls := loadCorpus(b)
	cfg := seedConfig(b)
	// replay runs every trace through a fresh breaker, with replayTrace
	// feeding it the trace's events, and reports the time per call.
	replay := func(b *testing.B, replayTrace func(*loopbreaker.Breaker, []trace.Event)) {
		b.ReportAllocs()
		round := func() {
			for _, events := range traces {
				br, err := loopbreaker.New(cfg)
				if err != nil {
					b.Fatal(err)
				}
				replayTrace(br, events)
			}
		}
		// One untimed round first, as the reference's --bench mode does,
		// so that the heap has grown and the pools are filled.
		round()
		rounds := 0
		for b.Loop() {
			round()
			rounds++
		}
		b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(rounds*calls), "ns/call")
	}
	b.Run("check", func(b *testing.B) {
		replay(b, func(br *loopbreaker.Breaker, events []trace.Event) {
			for _, ev := range events {
				if ev.User {
					br.UserTurn(ev.Agent)
					continue
				}
				br.Check(ev.Agent, ev.Call)
			}
		})
	})
	b.Run("record", func(b *testing.B) {
		replay(b, func(br *loopbreaker.Breaker, events []trace.Event) {
			trace.Replay(br, events, false, nil)
		})
	})
}

// memoryAgents is the number of agents BenchmarkAgentMemory holds at once.
const memoryAgents = 100_000

// agentCalls returns a full window of typical calls of one agent, with
// results of a few hundred characters: reads at different offsets, edits,
// test runs, a grep, a fetch and a git command, all naming the agent's own
// files so that no two agents share a fingerprint.
func agentCalls(agent, window int) ([]loopbreaker.Call, []loopbreaker.Result) {
	var calls []loopbreaker.Call
	var results []loopbreaker.Result
	zero := 0
	for i := range window {
		file := fmt.Sprintf("/repo/pkg%d/handler_%d.go", agent, i%4)
		var c loopbreaker.Call
		switch i % 6 {
		case 0:
			c = loopbreaker.Call{Tool: "Read", Args: map[string]any{"file_path": file, "offset": i * 40, "limit": 200}}
		case 1:
			c = loopbreaker.Call{Tool: "Edit", Args: map[string]any{"file_path": file,
				"old_string": fmt.Sprintf("return nil, fmt.Errorf(\"handler %d: %%w\", err)", i),
				"new_string": fmt.Sprintf("return nil, fmt.Errorf(\"handler %d for agent %d: %%w\", err)", i, agent)}}
		case 2:
			c = loopbreaker.Call{Tool: "Bash", Args: map[string]any{"command": fmt.Sprintf("cd /repo && go test ./pkg%d/... -run TestHandler%d -count=1", agent, i), "description": "Run the handler tests"}}
		case 3:
			c = loopbreaker.Call{Tool: "Grep", Args: map[string]any{"pattern": fmt.Sprintf("func Handle%d", i), "path": fmt.Sprintf("/repo/pkg%d", agent)}}
		case 4:
			c = loopbreaker.Call{Tool: "Bash", Args: map[string]any{"command": fmt.Sprintf("curl -sS https://api.example.com/v1/agents/%d/items?page=%d -o /tmp/items-%d.json", agent, i, agent)}}
		default:
			c = loopbreaker.Call{Tool: "Bash", Args: map[string]any{"command": fmt.Sprintf("git diff --stat -- pkg%d", agent)}}
		}
		calls = append(calls, c)
		text := fmt.Sprintf("agent %d call %d: %s", agent, i, strings.Repeat("ok  \tgithub.com/example/repo/pkg\t0.012s\n", 8))
		results = append(results, loopbreaker.Result{Text: text, ExitCode: &zero})
	}
	return calls, results
}

// BenchmarkAgentMemory measures the heap held by a Breaker with 100,000
// agents whose windows are full of typical calls, with and without recorded
// results (a breaker keeps a preview of each result to quote in denials).
// It is a benchmark, not a test, so that go test stays fast; run it with
//
//	go test -run '^$' -bench BenchmarkAgentMemory -benchtime 1x ./cmd/loopbreaker
func BenchmarkAgentMemory(b *testing.B) {
	for _, record := range []bool{true, false} {
		name := "results"
		if !record {
			name = "no-results"
		}
		b.Run(name, func(b *testing.B) {
			for b.Loop() {
				held := agentMemory(b, record)
				b.ReportMetric(held/(1<<20), "MiB")
				b.ReportMetric(held/memoryAgents, "B/agent")
			}
		})
	}
}

// agentMemory fills a Breaker with memoryAgents agents and returns the heap
// it holds, in bytes.
func agentMemory(b *testing.B, record bool) float64 {
	window := loopbreaker.DefaultConfig().Window
	var before, after runtime.MemStats
	runtime.GC()
	runtime.ReadMemStats(&before)
	br, err := loopbreaker.New(loopbreaker.Config{MaxAgents: loopbreaker.Off})
	if err != nil {
		b.Fatal(err)
	}
	for a := range memoryAgents {
		id := fmt.Sprintf("agent-%d", a)
		calls, results := agentCalls(a, window)
		for i, c := range calls {
			if d := br.Check(id, c); d.Verdict == loopbreaker.Allow && record {
				br.Record(id, c, results[i])
			}
		}
	}
	runtime.GC()
	runtime.ReadMemStats(&after)
	if n := br.Stats().Agents; n != memoryAgents {
		b.Fatalf("the breaker holds %d agents, want %d", n, memoryAgents)
	}
	runtime.KeepAlive(br)
	return float64(after.HeapAlloc) - float64(before.HeapAlloc)
}
