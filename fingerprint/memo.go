package fingerprint

import "sync"

// memo remembers the analyses of recent calls, keyed by the 128-bit hash of
// the tool and its arguments. It is a fixed-size, direct-mapped table split
// into shards with a lock each, so that it is bounded, allocation-free, and
// never a point of contention for all callers at once.
type memo struct {
	shards [memoShards]memoShard
}

const (
	memoShards = 8
	memoSlots  = 8 // per shard
)

type memoShard struct {
	mu    sync.Mutex
	slots [memoSlots]memoSlot
}

type memoSlot struct {
	key sum128
	an  *Analysis
}

func (m *memo) get(key sum128) *Analysis {
	sh := &m.shards[key.a%memoShards]
	sh.mu.Lock()
	var an *Analysis
	if s := &sh.slots[(key.a/memoShards)%memoSlots]; s.an != nil && s.key == key {
		an = s.an
	}
	sh.mu.Unlock()
	return an
}

func (m *memo) put(key sum128, an *Analysis) {
	sh := &m.shards[key.a%memoShards]
	sh.mu.Lock()
	sh.slots[(key.a/memoShards)%memoSlots] = memoSlot{key: key, an: an}
	sh.mu.Unlock()
}
