package loopbreaker

import "time"

// Event describes one decision, for [Config.OnDecision]: a Check, or the
// Resolve of an Ask. It is a plain value; its Hits are the decision's own
// and must not be modified.
type Event struct {
	// Agent is the agent's id as given to Check or Resolve.
	Agent string
	// Tool is the name of the tool called.
	Tool string
	// Verdict is the decision.
	Verdict Verdict
	// Hits are the fingerprints that reached their limit.
	Hits []Hit
	// Duration is the time spent deciding, hooks excluded.
	Duration time.Duration
}
