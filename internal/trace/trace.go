// Package trace reads recorded agent sessions in JSON Lines form and replays
// them through a loopbreaker.Breaker.
//
// A trace has one event a line: a tool call
//
//	{"agent":"main","tool":"bash","args":{"command":"ls"},"result":"...","is_error":false,"exit_code":0}
//
// or a human message
//
//	{"event":"user"}
//
// The agent defaults to "main". Other fields (and other "event" kinds) are
// ignored.
package trace

import (
	"bufio"
	"bytes"
	"encoding/json"
	"fmt"
	"io"

	"github.com/loopbreaker/loopbreaker"
)

// Event is one line of a trace. The zero Event is a call of no tool by no
// agent.
type Event struct {
	// Line is the event's 0-based line number in its trace.
	Line int
	// Agent is the agent's id ("main" when the line names none).
	Agent string
	// User marks a human message; the other fields are then unset.
	User bool
	// Call is the tool call.
	Call loopbreaker.Call
	// Result is the recorded outcome of the call.
	Result loopbreaker.Result
}

// LineError is a malformed trace line, skipped by [Read].
type LineError struct {
	Line int   // 0-based
	Err  error // what is wrong with it
}

// Error returns "line N: ..." with N counted from 1, as an editor shows it.
func (e *LineError) Error() string { return fmt.Sprintf("line %d: %v", e.Line+1, e.Err) }

// Unwrap returns the underlying error.
func (e *LineError) Unwrap() error { return e.Err }

// maxLine bounds one trace line.
const maxLine = 64 << 20

type rawEvent struct {
	Event    string          `json:"event"`
	Agent    string          `json:"agent"`
	Tool     *string         `json:"tool"`
	Args     json.RawMessage `json:"args"`
	Result   json.RawMessage `json:"result"`
	IsError  bool            `json:"is_error"`
	ExitCode *int            `json:"exit_code"`
	Status   int             `json:"status"`
	TimedOut bool            `json:"timed_out"`
}

// Read reads every event of a trace. Malformed lines are skipped and
// reported as [*LineError] values; err is set only when reading itself
// failed.
func Read(r io.Reader) (events []Event, bad []*LineError, err error) {
	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, 0, 64<<10), maxLine)
	for n := 0; sc.Scan(); n++ {
		line := bytes.TrimSpace(sc.Bytes())
		if len(line) == 0 {
			continue
		}
		ev, ok, lerr := parse(n, line)
		if lerr != nil {
			bad = append(bad, &LineError{Line: n, Err: lerr})
			continue
		}
		if ok {
			events = append(events, ev)
		}
	}
	if err := sc.Err(); err != nil {
		return events, bad, fmt.Errorf("trace: %w", err)
	}
	return events, bad, nil
}

// parse decodes one line; ok is false for events a replay ignores.
func parse(n int, line []byte) (Event, bool, error) {
	var raw rawEvent
	if err := json.Unmarshal(line, &raw); err != nil {
		return Event{}, false, err
	}
	agent := raw.Agent
	if agent == "" {
		agent = "main"
	}
	if raw.Event != "" {
		return Event{Line: n, Agent: agent, User: raw.Event == "user"}, raw.Event == "user", nil
	}
	if raw.Tool == nil {
		return Event{}, false, fmt.Errorf("neither \"tool\" nor \"event\"")
	}
	call, err := loopbreaker.ParseCall(*raw.Tool, raw.Args)
	if err != nil {
		return Event{}, false, err
	}
	ev := Event{Line: n, Agent: agent, Call: call, Result: loopbreaker.Result{
		IsError: raw.IsError, ExitCode: raw.ExitCode, Status: raw.Status, TimedOut: raw.TimedOut,
	}}
	if len(raw.Result) > 0 {
		var s string
		if json.Unmarshal(raw.Result, &s) == nil {
			ev.Result.Text = s
		} else {
			ev.Result.Text = string(raw.Result)
		}
	}
	return ev, true, nil
}

// Replay feeds events to b as a host would: a human message calls UserTurn,
// a call is checked, an Ask is resolved with approve, and the recorded
// result of a call that ends up allowed is handed to Record. After a Stop
// the host ends the agent's turn, so the agent's further calls up to the
// next human message are skipped: they would never have been made. decide,
// when not nil, receives each checked call's event and its decision from
// Check (an Ask is reported as an Ask, whatever the answer).
func Replay(b *loopbreaker.Breaker, events []Event, approve bool, decide func(Event, loopbreaker.Decision)) {
	stopped := map[string]bool{}
	for _, ev := range events {
		if ev.User {
			b.UserTurn(ev.Agent)
			delete(stopped, ev.Agent)
			continue
		}
		if stopped[ev.Agent] {
			continue
		}
		d := b.Check(ev.Agent, ev.Call)
		if d.Verdict == loopbreaker.Stop {
			stopped[ev.Agent] = true
		}
		final := d
		if d.Verdict == loopbreaker.Ask {
			final = b.Resolve(ev.Agent, d, approve)
		}
		if final.Verdict == loopbreaker.Allow {
			b.Record(ev.Agent, ev.Call, ev.Result)
		}
		if decide != nil {
			decide(ev, d)
		}
	}
}
