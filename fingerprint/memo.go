package fingerprint

import "sync/atomic"

// memo remembers the analyses of recent calls, keyed by the 128-bit hash of
// the tool and its arguments. It is a fixed-size, direct-mapped table of
// atomic pointers, each analysis carrying its own key, so that it is
// bounded, allocation-free and lock-free.
type memo struct {
	slots [memoSlots]atomic.Pointer[Analysis]
}

const memoSlots = 64

func (m *memo) get(key sum128) *Analysis {
	if an := m.slots[key.a%memoSlots].Load(); an != nil && an.key == key {
		return an
	}
	return nil
}

func (m *memo) put(key sum128, an *Analysis) {
	m.slots[key.a%memoSlots].Store(an)
}
