package loopbreaker

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
)

// Call is one tool call a model asked for: the tool's name and its arguments
// as decoded from JSON. Argument values are the types encoding/json produces
// (string, bool, json.Number or float64, []any, map[string]any, nil); other
// values are rendered with fmt and still fingerprinted.
//
// The zero Call (no tool name, no arguments) is valid and is checked like any
// other. A Call is a plain value: the breaker never modifies its Args.
type Call struct {
	// Tool is the tool's name as the model called it.
	Tool string
	// Args are the call's arguments; nil means none.
	Args map[string]any
}

// ParseCall builds a Call from a tool name and the raw JSON text of its
// arguments, as a harness receives them from a model. Numbers are kept as
// json.Number so that 1.0 and 1 and 10000000000000001 keep their spelling.
// Empty input and JSON null give a Call with no arguments; anything other than
// a JSON object is an error.
func ParseCall(tool string, argsJSON []byte) (Call, error) {
	trimmed := bytes.TrimSpace(argsJSON)
	if len(trimmed) == 0 || bytes.Equal(trimmed, []byte("null")) {
		return Call{Tool: tool}, nil
	}
	if trimmed[0] != '{' {
		return Call{}, fmt.Errorf("loopbreaker: arguments of tool %q: must be a JSON object", tool)
	}
	dec := json.NewDecoder(bytes.NewReader(trimmed))
	dec.UseNumber()
	var args map[string]any
	if err := dec.Decode(&args); err != nil {
		return Call{}, fmt.Errorf("loopbreaker: arguments of tool %q: %w", tool, err)
	}
	if dec.More() {
		return Call{}, fmt.Errorf("loopbreaker: arguments of tool %q: %w", tool, errTrailingData)
	}
	return Call{Tool: tool, Args: args}, nil
}

var errTrailingData = errors.New("unexpected data after the JSON object")

// Result is the settled outcome of an allowed call, handed to
// [Breaker.Record] after the tool has run. The zero Result is a success with
// no output and no other evidence.
//
// Text is quoted (truncated) in later denials. IsError is the harness's own
// error flag. ExitCode, Status and TimedOut are structured evidence of
// failure: a non-zero exit code, an HTTP status of 400 or above (other than
// rate limits and server errors, which say nothing about the call's
// arguments), or a timeout.
type Result struct {
	// Text is the tool's output as the model will see it.
	Text string
	// IsError is the harness's error flag for the result.
	IsError bool
	// ExitCode is the process exit code of a shell tool; nil when unknown.
	ExitCode *int
	// Status is the HTTP status of a fetch tool; 0 when unknown.
	Status int
	// TimedOut reports that the tool was stopped by a time limit.
	TimedOut bool
}
