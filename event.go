package loopbreaker

import "time"

// Event describes one decision, for [Config.OnDecision].
type Event struct {
	Agent    string
	Tool     string
	Verdict  Verdict
	Hits     []Hit
	Duration time.Duration // time spent deciding
}
