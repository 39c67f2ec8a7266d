package window

import "iter"

// Key is one committed fingerprint: its hash and flag bits whose meaning is
// the caller's. The zero Key is a valid key with hash 0 and no flags.
type Key struct {
	Hash  uint64 // the fingerprint's hash
	Flags uint8  // the caller's flag bits, for Forget
}

// Window is a ring of the last Size calls' keys. The zero Window has size 0
// and holds nothing; use [New]. A Window is not safe for concurrent use.
type Window struct {
	slots [][]Key // slot i holds the keys one call committed
	next  int     // the slot the next Push fills
	n     int     // how many slots are in use
	// seen has a bit set for every hash in the window, and possibly for
	// hashes that left it since it was last rebuilt: a clear bit means
	// Count is 0 without a scan. Push sets bits, and rebuilds it from the
	// slots once per turn of the ring.
	seen [seenWords]uint64
}

// seenWords is the size of Window.seen in 64-bit words.
const seenWords = 8

// seenBit returns the word and bit of h in Window.seen.
func seenBit(h uint64) (word int, bit uint64) {
	return int(h>>6) % seenWords, 1 << (h & 63)
}

// New returns an empty window of the given size. A size below 1 is treated
// as 1.
func New(size int) *Window {
	size = max(size, 1)
	return &Window{slots: make([][]Key, size)}
}

// Size returns the number of calls the window holds at most.
func (w *Window) Size() int { return len(w.slots) }

// Len returns the number of calls currently in the window.
func (w *Window) Len() int { return w.n }

// Count returns how many of the calls in the window committed hash h.
func (w *Window) Count(h uint64) int {
	// Slots outside the window are empty (never written since the last
	// Reset), so every slot can be scanned without ring arithmetic.
	if word, bit := seenBit(h); w.seen[word]&bit == 0 {
		return 0
	}
	c := 0
	for _, slot := range w.slots {
		for _, k := range slot {
			if k.Hash == h {
				c++
				break
			}
		}
	}
	return c
}

// Push commits one call's keys as the newest slot, evicting the oldest when
// the window is full, and returns the slot's number (stable until the slot is
// evicted). keys is copied. A call may commit no keys: it still takes a slot,
// so that it pushes older calls out.
func (w *Window) Push(keys []Key) (slot int) {
	if len(w.slots) == 0 {
		w.slots = make([][]Key, 1)
	}
	slot = w.next
	w.slots[slot] = append(w.slots[slot][:0], keys...)
	w.next = (w.next + 1) % len(w.slots)
	w.n = min(w.n+1, len(w.slots))
	if w.next == 0 {
		// Once per turn of the ring, forget the bits of evicted keys.
		w.rebuildSeen()
	} else {
		for _, k := range keys {
			word, bit := seenBit(k.Hash)
			w.seen[word] |= bit
		}
	}
	return slot
}

// rebuildSeen sets seen from the keys in the window.
func (w *Window) rebuildSeen() {
	w.seen = [seenWords]uint64{}
	for _, slot := range w.slots {
		for _, k := range slot {
			word, bit := seenBit(k.Hash)
			w.seen[word] |= bit
		}
	}
}

// Forget removes every key that has any of the flag bits in mask from every
// slot, and returns how many it removed. Slots stay in place.
func (w *Window) Forget(mask uint8) int {
	removed := 0
	for i := range w.n {
		s := w.index(i)
		keys := w.slots[s][:0]
		for _, k := range w.slots[s] {
			if k.Flags&mask != 0 {
				removed++
				continue
			}
			keys = append(keys, k)
		}
		w.slots[s] = keys
	}
	return removed
}

// Reset empties the window, keeping its size.
func (w *Window) Reset() {
	for i := range w.slots {
		w.slots[i] = w.slots[i][:0]
	}
	w.next, w.n = 0, 0
	w.seen = [seenWords]uint64{}
}

// Recent yields the slots in the window from the newest to the oldest, with
// their keys. The keys slice must not be modified or kept.
func (w *Window) Recent() iter.Seq2[int, []Key] {
	return func(yield func(int, []Key) bool) {
		for i := w.n - 1; i >= 0; i-- {
			s := w.index(i)
			if !yield(s, w.slots[s]) {
				return
			}
		}
	}
}

// index maps the i-th oldest call in the window to its slot.
func (w *Window) index(i int) int {
	size := len(w.slots)
	return (w.next - w.n + i + size) % size
}
