package loopbreaker

import (
	"hash/maphash"
	"sync"
	"time"

	"github.com/loopbreaker/loopbreaker/window"
)

// agentState is everything the breaker knows about one agent.
type agentState struct {
	mu sync.Mutex // guards every field below but the LRU links

	win  *window.Window
	meta []slotMeta // indexed like the window's slots

	lastResult string   // preview of the agent's most recent recorded result
	last       lastCall // the last checked call
	turn       uint64   // changes at every UserTurn; identifies the turn
	approved   bool     // local targets exempted for this turn
	declined   bool     // asking refused for this turn
	denials    int      // denials in this turn
	hist       history

	// Guarded by the shard's lock.
	id         string
	lastUsed   time.Time
	prev, next *agentState
}

// slotMeta is what the breaker keeps beside each window slot.
type slotMeta struct {
	exact  uint64 // the exact: hash of the call, to match Record to it
	result string // preview of its recorded result
	has    bool   // result is set
}

// agentShard holds a share of the agents, most recently used first.
type agentShard struct {
	mu         sync.Mutex
	agents     map[string]*agentState
	head, tail *agentState // LRU list, head most recent
	capacity   int         // 0: unbounded
}

// agents is the breaker's table of agents, split into shards so that agents
// rarely contend on one lock.
type agents struct {
	shards  []agentShard
	seed    maphash.Seed
	idle    time.Duration // <= 0: keep idle agents
	window  int
	newTurn func() uint64
}

func newAgents(maxAgents int, idle time.Duration, windowSize int, newTurn func() uint64) *agents {
	n := 16
	if maxAgents != Off && maxAgents < 16*16 {
		// Few agents: one shard keeps the LRU order exact.
		n = 1
	}
	t := &agents{shards: make([]agentShard, n), seed: maphash.MakeSeed(), idle: idle, window: windowSize, newTurn: newTurn}
	for i := range t.shards {
		if maxAgents != Off {
			t.shards[i].capacity = (maxAgents + n - 1) / n
		}
	}
	return t
}

func (t *agents) shard(id string) *agentShard {
	if len(t.shards) == 1 {
		return &t.shards[0]
	}
	return &t.shards[maphash.String(t.seed, id)%uint64(len(t.shards))]
}

// get returns the state of agent id, creating it when create is set; it
// refreshes the agent's place in the LRU order and drops agents that have
// been idle too long or that exceed the capacity.
func (t *agents) get(id string, now time.Time, create bool) *agentState {
	sh := t.shard(id)
	sh.mu.Lock()
	defer sh.mu.Unlock()
	st := sh.agents[id]
	if st != nil && t.expired(st, now) {
		sh.remove(st)
		st = nil
	}
	if st == nil {
		if !create {
			return nil
		}
		st = &agentState{id: id, win: window.New(t.window), meta: make([]slotMeta, t.window), turn: t.newTurn()}
		if sh.agents == nil {
			sh.agents = map[string]*agentState{}
		}
		sh.agents[id] = st
	}
	st.lastUsed = now
	if sh.head != st {
		// A new state is in no list, and unlink leaves it alone.
		sh.unlink(st)
		sh.pushFront(st)
	}
	for sh.tail != nil && sh.tail != st && (t.expired(sh.tail, now) || (sh.capacity > 0 && len(sh.agents) > sh.capacity)) {
		sh.remove(sh.tail)
	}
	return st
}

func (t *agents) expired(st *agentState, now time.Time) bool {
	// Time going backwards never expires anyone.
	return t.idle > 0 && now.Sub(st.lastUsed) > t.idle
}

// drop removes agent id.
func (t *agents) drop(id string) {
	sh := t.shard(id)
	sh.mu.Lock()
	if st := sh.agents[id]; st != nil {
		sh.remove(st)
	}
	sh.mu.Unlock()
}

// count returns the number of agents held.
func (t *agents) count() int {
	n := 0
	for i := range t.shards {
		sh := &t.shards[i]
		sh.mu.Lock()
		n += len(sh.agents)
		sh.mu.Unlock()
	}
	return n
}

// remove, unlink and pushFront require that sh.mu is held.
func (sh *agentShard) remove(st *agentState) {
	sh.unlink(st)
	delete(sh.agents, st.id)
}

func (sh *agentShard) unlink(st *agentState) {
	if st.prev != nil {
		st.prev.next = st.next
	} else if sh.head == st {
		sh.head = st.next
	}
	if st.next != nil {
		st.next.prev = st.prev
	} else if sh.tail == st {
		sh.tail = st.prev
	}
	st.prev, st.next = nil, nil
}

func (sh *agentShard) pushFront(st *agentState) {
	st.next = sh.head
	if sh.head != nil {
		sh.head.prev = st
	}
	sh.head = st
	if sh.tail == nil {
		sh.tail = st
	}
}
