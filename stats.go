package loopbreaker

import "time"

func (b *Breaker) count(v Verdict) {
	switch v {
	case Allow:
		b.stats.allowed.Add(1)
	case Deny:
		b.stats.denied.Add(1)
	case Ask:
		b.stats.asked.Add(1)
	case Stop:
		b.stats.stopped.Add(1)
	}
}

// emit calls OnDecision; it runs outside every lock.
func (b *Breaker) emit(agent, tool string, d Decision, start time.Time) {
	if b.cfg.OnDecision == nil {
		return
	}
	b.cfg.OnDecision(Event{Agent: agent, Tool: tool, Verdict: d.Verdict, Hits: d.Hits, Duration: b.clock().Sub(start)})
}

// Stats counts what a Breaker has done since it was created. The zero Stats
// counts nothing.
type Stats struct {
	// Checks counts calls to Check, excluded tools included.
	Checks uint64
	// Allowed, Denied, Asked and Stopped count the verdicts of Check and
	// Resolve (an Ask later resolved counts once as asked and once more as
	// allowed or denied).
	Allowed, Denied, Asked, Stopped uint64
	// Faults counts calls whose fingerprinting panicked (and were allowed).
	Faults uint64
	// Agents is the number of agents whose state is held now.
	Agents int
}

// Stats returns the breaker's counters. It is safe to call at any time.
func (b *Breaker) Stats() Stats {
	return Stats{
		Checks:  b.stats.checks.Load(),
		Allowed: b.stats.allowed.Load(),
		Denied:  b.stats.denied.Load(),
		Asked:   b.stats.asked.Load(),
		Stopped: b.stats.stopped.Load(),
		Faults:  b.stats.faults.Load(),
		Agents:  b.agents.count(),
	}
}
