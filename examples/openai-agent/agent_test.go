package main

import (
	"context"
	"fmt"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"

	"github.com/loopbreaker/loopbreaker"
	"github.com/openai/openai-go/v3"
	"github.com/openai/openai-go/v3/option"
)

// fakeExecutor records the commands it is given and runs none of them.
type fakeExecutor struct {
	mu       sync.Mutex
	commands []string
}

func (f *fakeExecutor) run(_ context.Context, command string) loopbreaker.Result {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.commands = append(f.commands, command)
	code := 0
	return loopbreaker.Result{Text: fmt.Sprintf("fake output %d", len(f.commands)), ExitCode: &code}
}

func (f *fakeExecutor) ran() []string {
	f.mu.Lock()
	defer f.mu.Unlock()
	return append([]string(nil), f.commands...)
}

// setup serves model on a loopback test server and returns a real SDK client
// for it, a default breaker and a fake executor.
func setup(t *testing.T, model *ScriptedModel, cfg loopbreaker.Config) (openai.Client, *loopbreaker.Breaker, *fakeExecutor) {
	t.Helper()
	srv := httptest.NewServer(model)
	t.Cleanup(srv.Close)
	client := openai.NewClient(
		option.WithBaseURL(srv.URL+"/v1"),
		option.WithAPIKey("test-key"),
		option.WithMaxRetries(0),
	)
	breaker, err := loopbreaker.New(cfg)
	if err != nil {
		t.Fatal(err)
	}
	return client, breaker, &fakeExecutor{}
}

// capOf is the breaker's default cap on one exact call or command.
func capOf(t *testing.T) int {
	t.Helper()
	limits := loopbreaker.DefaultConfig().Limits
	if limits["exact"] != limits["cmd"] {
		t.Fatalf("the test assumes equal exact and cmd caps, got %d and %d", limits["exact"], limits["cmd"])
	}
	return limits["exact"]
}

func TestRepeatedCallIsDeniedAndTheModelGivesUp(t *testing.T) {
	limit := capOf(t)
	model := &ScriptedModel{}
	client, breaker, fake := setup(t, model, loopbreaker.Config{})

	traj, err := Run(t.Context(), client, breaker, fake.run, "Has the build finished?", Options{})
	if err != nil {
		t.Fatal(err)
	}

	// Attempts 1..cap-1 ran; the cap-th was refused before it ran.
	if ran := fake.ran(); len(ran) != limit-1 {
		t.Fatalf("executor ran %d commands, want %d: %q", len(ran), limit-1, ran)
	}
	for _, c := range fake.ran() {
		if c != DefaultScriptedCommand {
			t.Errorf("executor ran %q, want %q", c, DefaultScriptedCommand)
		}
	}
	if len(traj.Steps) != limit {
		t.Fatalf("trajectory has %d steps, want %d", len(traj.Steps), limit)
	}
	seen := map[string]bool{}
	for i, s := range traj.Steps {
		wantVerdict, wantRan := loopbreaker.Allow, true
		if i == limit-1 {
			wantVerdict, wantRan = loopbreaker.Deny, false
		}
		if s.Attempt != i+1 || s.Verdict != wantVerdict || s.Executed != wantRan {
			t.Errorf("step %d: attempt %d, verdict %s, executed %v; want attempt %d, %s, %v",
				i, s.Attempt, s.Verdict, s.Executed, i+1, wantVerdict, wantRan)
		}
		if seen[s.Description] {
			t.Errorf("step %d repeats description %q; the scripted model should vary it", i, s.Description)
		}
		seen[s.Description] = true
	}
	if last := traj.Steps[limit-1]; !strings.HasPrefix(last.Output, loopbreaker.BlockedPrefix) {
		t.Errorf("denied step output = %q, want the breaker's message", last.Output)
	}

	// The loop ended because the model gave up, not because of a Stop.
	if traj.Outcome != Finished || traj.Final != GiveUpAnswer {
		t.Errorf("outcome %q, final %q; want %q, %q", traj.Outcome, traj.Final, Finished, GiveUpAnswer)
	}

	// What the model was told: one request per attempt plus the last one,
	// each ending with the result of the previous tool call.
	reqs := model.Received()
	if len(reqs) != limit+1 {
		t.Fatalf("the model received %d requests, want %d", len(reqs), limit+1)
	}
	for k, req := range reqs {
		if len(req.Tools) != 1 || req.Tools[0].Function.Name != "bash" {
			t.Errorf("request %d offers tools %+v, want only bash", k, req.Tools)
		}
		if k == 0 {
			continue
		}
		msgs := req.Messages
		call, result := msgs[len(msgs)-2], msgs[len(msgs)-1]
		wantID := fmt.Sprintf("call_%d", k)
		if call.Role != "assistant" || len(call.ToolCalls) != 1 || call.ToolCalls[0].ID != wantID {
			t.Errorf("request %d: message before the result is %+v, want the assistant's call %s", k, call, wantID)
		}
		if result.Role != "tool" || result.ToolCallID != wantID {
			t.Errorf("request %d: last message is %s for %q, want the tool result for %s", k, result.Role, result.ToolCallID, wantID)
		}
		blocked := strings.HasPrefix(result.Text(), loopbreaker.BlockedPrefix)
		if want := k == limit; blocked != want {
			t.Errorf("request %d: tool result blocked = %v, want %v: %q", k, blocked, want, result.Text())
		}
		if k < limit && !strings.HasPrefix(result.Text(), fmt.Sprintf("fake output %d", k)) {
			t.Errorf("request %d: tool result %q, want the executor's output", k, result.Text())
		}
	}

	if st := breaker.Stats(); st.Allowed != uint64(limit-1) || st.Denied != 1 || st.Stopped != 0 {
		t.Errorf("breaker stats %+v, want %d allowed and 1 denied", st, limit-1)
	}
}

func TestStopEndsTheRun(t *testing.T) {
	limit := capOf(t)
	// The model ignores one refusal; the breaker stops at the second.
	model := &ScriptedModel{Patience: 2}
	client, breaker, fake := setup(t, model, loopbreaker.Config{MaxDenials: 1})

	traj, err := Run(t.Context(), client, breaker, fake.run, "Has the build finished?", Options{})
	if err != nil {
		t.Fatal(err)
	}
	if traj.Outcome != Stopped || traj.Final != "" {
		t.Errorf("outcome %q, final %q; want %q and no answer", traj.Outcome, traj.Final, Stopped)
	}
	if n := len(fake.ran()); n != limit-1 {
		t.Errorf("executor ran %d commands, want %d", n, limit-1)
	}
	if len(traj.Steps) != limit+1 {
		t.Fatalf("trajectory has %d steps, want %d", len(traj.Steps), limit+1)
	}
	if v := traj.Steps[limit-1].Verdict; v != loopbreaker.Deny {
		t.Errorf("attempt %d: verdict %s, want deny", limit, v)
	}
	if v := traj.Steps[limit].Verdict; v != loopbreaker.Stop {
		t.Errorf("attempt %d: verdict %s, want stop", limit+1, v)
	}
	// The stopped call's refusal is not sent: the run ends instead.
	if n := len(model.Received()); n != limit+1 {
		t.Errorf("the model received %d requests, want %d", n, limit+1)
	}
}

func TestMaxStepsBoundsTheRun(t *testing.T) {
	model := &ScriptedModel{}
	client, breaker, fake := setup(t, model, loopbreaker.Config{})

	traj, err := Run(t.Context(), client, breaker, fake.run, "Has the build finished?", Options{MaxSteps: 2})
	if err != nil {
		t.Fatal(err)
	}
	if traj.Outcome != OutOfSteps || len(traj.Steps) != 2 || len(fake.ran()) != 2 {
		t.Errorf("outcome %q after %d steps and %d commands; want %q after 2 and 2",
			traj.Outcome, len(traj.Steps), len(fake.ran()), OutOfSteps)
	}
	if n := len(model.Received()); n != 2 {
		t.Errorf("the model received %d requests, want 2", n)
	}
}

func TestEndpointErrorIsReturned(t *testing.T) {
	srv := httptest.NewServer(&ScriptedModel{})
	t.Cleanup(srv.Close)
	// A wrong path: the scripted model answers 404.
	client := openai.NewClient(option.WithBaseURL(srv.URL+"/wrong"), option.WithAPIKey("test-key"), option.WithMaxRetries(0))
	breaker, err := loopbreaker.New(loopbreaker.Config{})
	if err != nil {
		t.Fatal(err)
	}
	fake := &fakeExecutor{}
	traj, err := Run(t.Context(), client, breaker, fake.run, "Has the build finished?", Options{})
	if err == nil || traj.Outcome != Failed {
		t.Errorf("err %v, outcome %q; want an error and %q", err, traj.Outcome, Failed)
	}
	if len(fake.ran()) != 0 {
		t.Error("the executor ran after a failed request")
	}
}
