package loopbreaker_test

import (
	"fmt"
	"log/slog"
	"os"
	"strings"

	"github.com/loopbreaker/loopbreaker"
)

// A model retries the same command with a new description each time. The
// descriptions are decoys: the fifth attempt is denied before it runs.
func Example() {
	b, err := loopbreaker.New(loopbreaker.Config{})
	if err != nil {
		panic(err)
	}
	for i := 1; i <= 5; i++ {
		call := loopbreaker.Call{Tool: "bash", Args: map[string]any{
			"command":     "curl -s https://example.com/report.json",
			"description": fmt.Sprintf("attempt %d", i),
		}}
		d := b.Check("agent-1", call)
		fmt.Println(i, d.Verdict)
		if d.Verdict == loopbreaker.Deny {
			fmt.Println(strings.SplitN(d.Message, "\n", 2)[0])
			for _, h := range d.Hits {
				fmt.Println(h)
			}
		}
	}
	// Output:
	// 1 allow
	// 2 allow
	// 3 allow
	// 4 allow
	// 5 deny
	// REPEAT_TOOL_BLOCKED: this call was not run. It repeats an action already taken in this turn:
	// exact:bash:{"command":"curl -s https://example.com/report.json"} 5/5
	// cmd:curl https://example.com/report.json 5/5
	// net:example.com/report.json 5/5
}

// Fingerprints shows what a call is counted as: the host spellings, the
// volatile flags and the decoy description are gone.
func ExampleBreaker_Fingerprints() {
	b, _ := loopbreaker.New(loopbreaker.Config{})
	call := loopbreaker.Call{Tool: "bash", Args: map[string]any{
		"command":     "cd /w && timeout 60 curl -sS --max-time 30 https://WWW.Open-Data.Canada.ca/x/ -o od.bin",
		"description": "2nd try",
	}}
	for _, fp := range b.Fingerprints(call) {
		fmt.Println(fp)
	}
	// Output:
	// exact:bash:{"command":"cd /w && timeout 60 curl -sS --max-time 30 https://WWW.Open-Data.Canada.ca/x/ -o od.bin"}
	// cmd:cd /w ; curl https://WWW.Open-Data.Canada.ca/x/ -o od.bin
	// net:open.canada.ca/x
	// site:canada.ca
	// sink:od.bin
	// family:http-fetch
	// verb:curl
}

// A denial quotes the result the agent already has, so the model can work
// from it instead of asking again.
func ExampleBreaker_Record() {
	b, _ := loopbreaker.New(loopbreaker.Config{Limits: map[string]int{"exact": 2}})
	call := loopbreaker.Call{Tool: "read", Args: map[string]any{"file_path": "/w/notes.txt"}}
	if b.Check("a", call).Verdict == loopbreaker.Allow {
		b.Record("a", call, loopbreaker.Result{Text: "remember the milk"})
	}
	d := b.Check("a", call)
	fmt.Println(d.Verdict, strings.Contains(d.Message, "remember the milk"))
	// Output:
	// deny true
}

// Calls that only touch local addresses ask the operator before local
// traffic alone denies them; approving exempts local targets for the turn.
func ExampleBreaker_Resolve() {
	b, _ := loopbreaker.New(loopbreaker.Config{})
	var d loopbreaker.Decision
	for i := range 5 {
		call := loopbreaker.Call{Tool: "bash", Args: map[string]any{
			"command": fmt.Sprintf("curl -s -H 'X-Try: %d' http://localhost:8080/health", i),
		}}
		d = b.Check("dev", call)
	}
	fmt.Println(d.Verdict)
	d = b.Resolve("dev", d, true)
	fmt.Println(d.Verdict)
	// Output:
	// ask
	// allow
}

// LoadConfig reads the JSON form of a Config; errors name the key.
func ExampleLoadConfig() {
	_, err := loopbreaker.LoadConfig(strings.NewReader(`{"window": 12, "denyAfter": 3}`))
	fmt.Println(err != nil && strings.Contains(err.Error(), "denyAfter"))
	cfg, err := loopbreaker.LoadConfig(strings.NewReader(`{"limits": {"site": 30, "exact": null}}`))
	fmt.Println(err, cfg.Limits["site"], cfg.Limits["exact"] == loopbreaker.Off)
	// Output:
	// true
	// <nil> 30 true
}

// OnDecision receives every decision after the breaker's locks are
// released; here it logs the interruptions with log/slog.
func ExampleConfig_onDecision() {
	logger := slog.New(slog.NewTextHandler(os.Stdout, &slog.HandlerOptions{
		ReplaceAttr: func(groups []string, a slog.Attr) slog.Attr {
			if a.Key == slog.TimeKey || a.Key == "took" {
				return slog.Attr{} // keep the output stable
			}
			return a
		},
	}))
	b, _ := loopbreaker.New(loopbreaker.Config{OnDecision: func(e loopbreaker.Event) {
		if e.Verdict == loopbreaker.Allow {
			return
		}
		hits := make([]string, len(e.Hits))
		for i, h := range e.Hits {
			hits[i] = h.String()
		}
		logger.Warn("tool call interrupted", "agent", e.Agent, "tool", e.Tool,
			"verdict", e.Verdict, "hits", strings.Join(hits, ", "), "took", e.Duration)
	}})
	call := loopbreaker.Call{Tool: "read", Args: map[string]any{"file_path": "/w/a.go", "offset": 40}}
	for range 5 {
		b.Check("agent-7", call)
	}
	// Output:
	// level=WARN msg="tool call interrupted" agent=agent-7 tool=read verdict=deny hits="exact:read:{\"file_path\":\"/w/a.go\",\"offset\":40} 5/5"
}
