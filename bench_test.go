package loopbreaker

import (
	"fmt"
	"strings"
	"testing"
)

// Benchmarks of Check on typical calls. Each iteration checks a call as a
// harness would, with a fresh window now and then so that the steady state
// is allow, not deny.

func benchCheck(b *testing.B, calls ...Call) {
	br, err := New(Config{})
	if err != nil {
		b.Fatal(err)
	}
	b.ReportAllocs()
	i := 0
	for b.Loop() {
		if i%4 == 0 {
			br.UserTurn("A") // stay below the caps: measure allowed calls
		}
		br.Check("A", calls[i%len(calls)])
		i++
	}
}

func BenchmarkCheckBashCurl(b *testing.B) {
	benchCheck(b, cmd("cd /w && curl -sS --max-time 60 https://api.github.com/repos/o/r/commits?page=2 -o out.json | tee log"))
}

func BenchmarkCheckRead(b *testing.B) {
	benchCheck(b, Call{Tool: "read", Args: map[string]any{"file_path": "/workspace/src/main.go", "offset": 120, "limit": 80}})
}

func BenchmarkCheckHeredocWrite(b *testing.B) {
	body := strings.Repeat("print('hello, world')  # a line of a generated script\n", 40)
	benchCheck(b, cmd("cat > /w/gen.py <<'EOF'\n"+body+"EOF\npython /w/gen.py"))
}

// BenchmarkCheckFirstSeen checks calls the breaker has never seen, so that
// every iteration parses and fingerprints from scratch.
func BenchmarkCheckFirstSeen(b *testing.B) {
	br, err := New(Config{})
	if err != nil {
		b.Fatal(err)
	}
	b.ReportAllocs()
	i := 0
	for b.Loop() {
		i++
		br.Check("A", cmd(fmt.Sprintf("cd /w && python -m pytest tests/test_%d.py -q 2>&1 | tail -20", i)))
	}
}

func BenchmarkNew(b *testing.B) {
	b.ReportAllocs()
	for b.Loop() {
		if _, err := New(Config{}); err != nil {
			b.Fatal(err)
		}
	}
}

func BenchmarkCheckParallel(b *testing.B) {
	br, err := New(Config{})
	if err != nil {
		b.Fatal(err)
	}
	call := cmd("curl -s https://example.com/x")
	b.ReportAllocs()
	b.RunParallel(func(pb *testing.PB) {
		i := 0
		for pb.Next() {
			i++
			br.Check(fmt.Sprint("agent-", i%64), call)
		}
	})
}

// TestSteadyStateAllocations checks that an allowed call seen before is
// decided without allocating: the analysis comes from the memo, the window
// stores hashes, and the keys are built on the stack.
func TestSteadyStateAllocations(t *testing.T) {
	if raceEnabled {
		t.Skip("the race detector allocates")
	}
	b, err := New(Config{WarnMargin: Off})
	if err != nil {
		t.Fatal(err)
	}
	call := Call{Tool: "read", Args: map[string]any{"file_path": "/workspace/src/main.go", "offset": 120}}
	b.Check("A", call)
	i := 0
	allocs := testing.AllocsPerRun(200, func() {
		if i%4 == 0 {
			b.UserTurn("A")
		}
		i++
		b.Check("A", call)
	})
	if allocs > 0 {
		t.Fatalf("a repeated call allocates %.1f times per Check; want none", allocs)
	}
}
