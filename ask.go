package loopbreaker

import (
	"slices"
	"time"

	"github.com/loopbreaker/loopbreaker/fingerprint"
	"github.com/loopbreaker/loopbreaker/window"
)

// Resolve turns the human operator's answer to an Ask into the final
// decision: Allow when approved (the call is committed, and the local
// targets of this agent stop counting until the next [Breaker.UserTurn]), or
// Deny when declined (and later calls that would ask are denied without
// asking, until the next UserTurn). A decision that is not an Ask is returned
// unchanged; resolving one Ask twice gives the first answer again.
func (b *Breaker) Resolve(agent string, asked Decision, approved bool) Decision {
	start := b.clock()
	p := asked.pending
	if asked.Verdict != Ask || p == nil {
		return asked
	}
	d := b.resolve(agent, p, approved, start)
	b.count(d.Verdict)
	b.emit(agent, p.an.Tool, d, start)
	return d
}

func (b *Breaker) resolve(agent string, p *pendingAsk, approved bool, now time.Time) Decision {
	st := b.agents.get(agent, now, true)
	st.mu.Lock()
	defer st.mu.Unlock()
	if p.done {
		return p.answer
	}
	p.done = true
	sameTurn := st.turn == p.turn && agent == p.agent
	if approved {
		if sameTurn {
			st.approved = true
		}
		b.commit(st, p.an, b.keys(p.an))
		p.answer = Decision{Verdict: Allow}
		return p.answer
	}
	if sameTurn {
		st.declined = true
	}
	hits := slices.Clone(p.hits)
	for i, k := range p.hitKeys {
		hits[i].Count = st.win.Count(k.Hash) + 1
	}
	p.answer = b.deny(st, p.an, hits, p.hitKeys, denial{refused: true})
	return p.answer
}

// pendingAsk is what an Ask decision carries until it is resolved. It is
// shared by copies of the Decision; its fields after the first line are
// guarded by the agent's lock.
type pendingAsk struct {
	agent   string
	turn    uint64
	an      *fingerprint.Analysis
	hitKeys []window.Key
	hits    []Hit // in the order of hitKeys

	done   bool
	answer Decision
}
