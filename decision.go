package loopbreaker

import (
	"fmt"
	"strconv"
	"strings"
)

// Verdict is what the host must do with a call. The zero value is [Allow].
type Verdict uint8

const (
	// Allow: dispatch the call to its tool.
	Allow Verdict = iota
	// Deny: do not run the tool; hand [Decision.Message] to the model as the
	// tool's error result.
	Deny
	// Ask: do not run the tool yet; show [Decision.Prompt] to the human
	// operator and pass the answer to [Breaker.Resolve].
	Ask
	// Stop: do not run the tool and end the agent's turn; hand control back
	// to the human. The run must be reported as stopped, not as finished.
	Stop
)

var verdictNames = [...]string{Allow: "allow", Deny: "deny", Ask: "ask", Stop: "stop"}

// String returns "allow", "deny", "ask" or "stop".
func (v Verdict) String() string {
	if int(v) < len(verdictNames) {
		return verdictNames[v]
	}
	return fmt.Sprintf("Verdict(%d)", uint8(v))
}

// MarshalText implements [encoding.TextMarshaler]; it fails for values that
// are not one of the four verdicts.
func (v Verdict) MarshalText() ([]byte, error) {
	if int(v) >= len(verdictNames) {
		return nil, fmt.Errorf("loopbreaker: verdict: unknown value %d", uint8(v))
	}
	return []byte(verdictNames[v]), nil
}

// UnmarshalText implements [encoding.TextUnmarshaler], accepting what
// [Verdict.String] produces.
func (v *Verdict) UnmarshalText(text []byte) error {
	for i, name := range verdictNames {
		if string(text) == name {
			*v = Verdict(i)
			return nil
		}
	}
	return fmt.Errorf("loopbreaker: verdict: unknown name %q (want allow, deny, ask or stop)", text)
}

// Hit is one fingerprint that reached its limit.
type Hit struct {
	// Fingerprint is the readable fingerprint, such as "net:open.canada.ca/x",
	// truncated to Config.PreviewChars.
	Fingerprint string
	// Count is the number of occurrences in the agent's window, this call
	// included: the first denial of a fingerprint capped at 5 reads 5.
	Count int
	// Limit is the fingerprint's cap.
	Limit int
}

// String formats the hit as "<fingerprint> <count>/<limit>".
func (h Hit) String() string {
	var sb strings.Builder
	h.writeTo(&sb)
	return sb.String()
}

// writeTo writes h as String formats it.
func (h Hit) writeTo(sb *strings.Builder) {
	sb.WriteString(h.Fingerprint)
	sb.WriteByte(' ')
	sb.WriteString(strconv.Itoa(h.Count))
	sb.WriteByte('/')
	sb.WriteString(strconv.Itoa(h.Limit))
}

// Decision is the answer of [Breaker.Check] for one call. The zero Decision
// allows the call.
type Decision struct {
	// Verdict says what to do with the call.
	Verdict Verdict
	// Hits lists the fingerprints that reached their limit (empty on Allow).
	Hits []Hit
	// Message is, on Deny and Stop, the text to hand the model as the tool's
	// error result. It starts with "REPEAT_TOOL_BLOCKED".
	Message string
	// Prompt is, on Ask, the question for the human operator.
	Prompt string
	// Advice is, on Allow, text to append once to the tool's result: the
	// call is close to a limit and the model should change approach. Empty
	// when there is nothing to say.
	Advice string

	// pending holds what an Ask needs to be resolved; nil otherwise.
	pending *pendingAsk
}
