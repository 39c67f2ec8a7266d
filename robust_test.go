package loopbreaker

import (
	"encoding/json"
	"fmt"
	"math/rand/v2"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/loopbreaker/loopbreaker/fingerprint"
	"github.com/stretchr/testify/require"
)

// hostileCalls are inputs that must neither panic nor error out of Check.
func hostileCalls() []Call {
	self := map[string]any{"command": "ls"}
	self["self"] = self
	deep := any("x")
	for range 10_000 {
		deep = map[string]any{"k": deep}
	}
	var deepJSON strings.Builder
	for range 10_000 {
		deepJSON.WriteString(`{"k":`)
	}
	deepJSON.WriteString("1")
	for range 10_000 {
		deepJSON.WriteString("}")
	}
	return []Call{
		{},
		{Tool: ""},
		{Tool: "bash"},
		{Tool: "bash", Args: map[string]any{"command": nil}},
		{Tool: "bash", Args: map[string]any{"command": 42}},
		{Tool: "bash", Args: map[string]any{"command": []any{1, nil, "ls"}}},
		{Tool: "bash", Args: map[string]any{"command": strings.Repeat("curl https://a.com/x -o f && ", 40_000)}},
		{Tool: "bash", Args: map[string]any{"command": "echo \"unterminated 'quote"}},
		{Tool: "bash", Args: map[string]any{"command": "\xff\xfe curl https://\xff.com/\x00"}},
		{Tool: "bash", Args: map[string]any{"command": strings.Repeat("$(", 5000)}},
		{Tool: "bash", Args: map[string]any{"command": strings.Repeat("(", 5000)}},
		{Tool: "bash", Args: map[string]any{"command": "cat <<EOF\nno end"}},
		{Tool: "pwsh", Args: map[string]any{"command": `Get-Content C:\Users\me\x.txt | Out-File C:\tmp\y.txt`}},
		{Tool: "write", Args: map[string]any{"file_path": "/w/big", "content": strings.Repeat("x", 1<<20)}},
		{Tool: "web_fetch", Args: map[string]any{"url": strings.Repeat("https://a.com/", 100_000)}},
		{Tool: "web_fetch", Args: map[string]any{"url": []any{"https://a.com", 3}}},
		{Tool: "edit", Args: self},
		{Tool: "edit", Args: map[string]any{"deep": deep}},
		{Tool: "x", Args: map[string]any{"raw": json.RawMessage(deepJSON.String())}},
		{Tool: strings.Repeat("t", 1<<16), Args: map[string]any{"\xff": "\x00"}},
	}
}

func TestCheckSurvivesHostileInput(t *testing.T) {
	for _, strict := range []bool{false, true} {
		b, err := New(Config{Strict: strict})
		require.NoError(t, err)
		for i, c := range hostileCalls() {
			for range 6 {
				d := b.Check("A", c)
				require.LessOrEqual(t, len(d.Message), 64<<10, "call %d", i)
				b.Record("A", c, Result{Text: strings.Repeat("r", 64<<10), IsError: true})
			}
			_ = b.Fingerprints(c)
		}
		require.Zero(t, b.Stats().Faults)
	}
	_, err := ParseCall("t", []byte(func() string {
		var s strings.Builder
		for range 20_000 {
			s.WriteString(`{"k":`)
		}
		return s.String()
	}()))
	require.Error(t, err)
}

func TestWindowMemoryDoesNotGrowWithArguments(t *testing.T) {
	b, err := New(Config{})
	require.NoError(t, err)
	big := Call{Tool: "write", Args: map[string]any{"file_path": "/w/big", "content": strings.Repeat("x", 1<<20)}}
	for range 5 {
		d := b.Check("A", big)
		require.LessOrEqual(t, len(d.Message), 8<<10)
		b.Record("A", big, Result{Text: strings.Repeat("y", 1<<20)})
	}
	st := b.agents.get("A", b.clock(), false)
	for _, m := range st.meta {
		require.LessOrEqual(t, len(m.result), 4*b.cfg.ResultPreviewChars+8)
	}
}

func TestFaultIsReportedAndAllowed(t *testing.T) {
	var faults []any
	b, err := New(Config{OnFault: func(agent string, call Call, fault any) {
		faults = append(faults, fault)
	}})
	require.NoError(t, err)
	b.analyzeFn = func(string, map[string]any) *fingerprint.Analysis { panic("boom") }
	for range 10 {
		require.Equal(t, Allow, b.Check("A", Call{Tool: "bash", Args: map[string]any{"command": "ls"}}).Verdict)
	}
	require.Len(t, faults, 10)
	require.Equal(t, "boom", faults[0])
	require.EqualValues(t, 10, b.Stats().Faults)
}

func TestConcurrentAgentsAndDuplicates(t *testing.T) {
	b, err := New(Config{FailLimit: Off})
	require.NoError(t, err)
	call := cmd("curl -s https://example.com/same")
	limit := capOf(b, "exact")
	var wg sync.WaitGroup
	var mu sync.Mutex
	allowed := map[string]int{}
	for agent := range 8 {
		for range 3 * limit {
			wg.Go(func() {
				id := string(rune('A' + agent))
				if b.Check(id, call).Verdict == Allow {
					mu.Lock()
					allowed[id]++
					mu.Unlock()
				}
				b.Record(id, call, Result{Text: "ok"})
				_ = b.Stats()
			})
		}
	}
	wg.Wait()
	// Parallel duplicates of one agent see each other: exactly cap-1 get through.
	for agent := range 8 {
		require.Equal(t, limit-1, allowed[string(rune('A'+agent))])
	}
}

func TestOnDecisionMayCallBack(t *testing.T) {
	var b *Breaker
	var events []Event
	b, err := New(Config{OnDecision: func(e Event) {
		events = append(events, e)
		_ = b.Fingerprints(Call{Tool: "bash", Args: map[string]any{"command": "ls"}})
		_ = b.Stats()
		if e.Verdict == Deny {
			b.UserTurn(e.Agent) // would deadlock if called under the agent's lock
		}
	}})
	require.NoError(t, err)
	call := cmd("ls")
	for range capOf(b, "exact") {
		b.Check("A", call)
	}
	require.Len(t, events, capOf(b, "exact"))
	require.Equal(t, Deny, events[len(events)-1].Verdict)
	require.Equal(t, "bash", events[0].Tool)
	// The callback's UserTurn cleared the window.
	require.Equal(t, Allow, b.Check("A", call).Verdict)
}

func TestAgentTableIsBounded(t *testing.T) {
	b, err := New(Config{MaxAgents: 3})
	require.NoError(t, err)
	call := cmd("ls")
	for range 4 {
		b.Check("old", call)
	}
	for _, id := range []string{"x", "y", "z"} {
		b.Check(id, call)
	}
	require.Equal(t, 3, b.Stats().Agents)
	// "old" was the least recently used and was dropped with its window.
	require.Equal(t, Allow, b.Check("old", call).Verdict)

	b, err = New(Config{IdleTimeout: 10})
	require.NoError(t, err)
	now := b.clock()
	b.clock = func() time.Time { return now }
	for range 4 {
		b.Check("A", call)
	}
	now = now.Add(time.Second)
	require.Equal(t, Allow, b.Check("A", call).Verdict, "an idle agent starts afresh")
	now = now.Add(-time.Hour)
	for range 3 {
		b.Check("A", call)
	}
	require.Equal(t, Deny, b.Check("A", call).Verdict, "time going backwards expires nothing")
}

func TestForget(t *testing.T) {
	b, err := New(Config{})
	require.NoError(t, err)
	call := cmd("ls")
	for range 4 {
		b.Check("A", call)
	}
	b.Forget("A")
	b.Forget("never seen")
	require.Equal(t, 0, b.Stats().Agents)
	require.Equal(t, Allow, b.Check("A", call).Verdict)
}

func TestMonotonicClock(t *testing.T) {
	clock := monotonicClock()
	a := clock()
	time.Sleep(2 * time.Millisecond)
	b := clock()
	require.GreaterOrEqual(t, b.Sub(a), 2*time.Millisecond, "the clock must advance")
	require.WithinDuration(t, time.Now(), b, time.Second, "the clock must tell the time too")
}

func TestAgentLRUAgainstModel(t *testing.T) {
	const capacity = 5
	b, err := New(Config{MaxAgents: capacity})
	require.NoError(t, err)
	require.Len(t, b.agents.shards, 1, "few agents keep one exact LRU list")
	model := []string{} // most recent first
	r := rand.New(rand.NewPCG(1, 2))
	for step := range 2000 {
		id := fmt.Sprintf("agent%d", r.IntN(8))
		if r.IntN(10) == 0 {
			b.Forget(id)
			model = slices.DeleteFunc(model, func(m string) bool { return m == id })
		} else {
			b.Check(id, cmd("ls"))
			model = append([]string{id}, slices.DeleteFunc(model, func(m string) bool { return m == id })...)
			model = model[:min(len(model), capacity)]
		}
		sh := &b.agents.shards[0]
		got := []string{}
		for st := sh.head; st != nil; st = st.next {
			got = append(got, st.id)
		}
		require.Equal(t, model, got, "step %d", step)
		require.Len(t, sh.agents, len(model), "step %d", step)
		if len(got) > 0 {
			require.Equal(t, got[len(got)-1], sh.tail.id, "step %d", step)
		}
	}
}
