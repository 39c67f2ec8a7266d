package fingerprint

import "sync"

// memo remembers the analyses of recent calls, keyed by tool and canonical
// arguments. It is a fixed-size, direct-mapped table split into shards with a
// lock each, so that it is bounded, allocation-free on a hit, and never a
// point of contention for all callers at once.
type memo struct {
	shards [memoShards]memoShard
}

const (
	memoShards   = 16
	memoSlots    = 256  // per shard
	memoMaxBytes = 4096 // calls with longer canonical arguments are not remembered
)

type memoShard struct {
	mu    sync.Mutex
	slots [memoSlots]memoSlot
}

type memoSlot struct {
	key       uint64
	tool      string
	canonical string
	an        *Analysis
}

// memoKey hashes a tool name and canonical arguments.
func memoKey(tool string, canonical []byte) uint64 {
	h := uint64(fnvOffset)
	for i := 0; i < len(tool); i++ {
		h ^= uint64(tool[i])
		h *= fnvPrime
	}
	h ^= 0
	h *= fnvPrime
	for _, c := range canonical {
		h ^= uint64(c)
		h *= fnvPrime
	}
	return h
}

func (m *memo) get(key uint64, tool string, canonical []byte) *Analysis {
	if len(canonical) > memoMaxBytes {
		return nil
	}
	sh := &m.shards[key%memoShards]
	sh.mu.Lock()
	s := &sh.slots[(key/memoShards)%memoSlots]
	var an *Analysis
	if s.an != nil && s.key == key && s.tool == tool && s.canonical == string(canonical) {
		an = s.an
	}
	sh.mu.Unlock()
	return an
}

func (m *memo) put(key uint64, tool string, canonical []byte, an *Analysis) {
	if len(canonical) > memoMaxBytes {
		return
	}
	sh := &m.shards[key%memoShards]
	sh.mu.Lock()
	sh.slots[(key/memoShards)%memoSlots] = memoSlot{key: key, tool: tool, canonical: string(canonical), an: an}
	sh.mu.Unlock()
}
