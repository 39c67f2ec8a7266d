package window

import (
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/stretchr/testify/require"
)

// naive is the obviously correct model of a Window: a list of calls, trimmed
// from the front.
type naive struct {
	size  int
	calls [][]Key
}

func (n *naive) push(keys []Key) {
	n.calls = append(n.calls, slices.Clone(keys))
	if len(n.calls) > n.size {
		n.calls = n.calls[len(n.calls)-n.size:]
	}
}

func (n *naive) count(h uint64) int {
	c := 0
	for _, call := range n.calls {
		if slices.ContainsFunc(call, func(k Key) bool { return k.Hash == h }) {
			c++
		}
	}
	return c
}

func (n *naive) forget(mask uint8) int {
	removed := 0
	for i, call := range n.calls {
		kept := call[:0:0]
		for _, k := range call {
			if k.Flags&mask != 0 {
				removed++
			} else {
				kept = append(kept, k)
			}
		}
		n.calls[i] = kept
	}
	return removed
}

func TestWindowAgainstNaiveModel(t *testing.T) {
	// Calls commit the first eight hashes, spread over Count's filter
	// words and bits; the last two are never committed, and the first of
	// them shares its filter bit with a committed one.
	hashes := []uint64{0, 1, 64, 512, 0x9e3779b97f4a7c15, 0xc2b2ae3d27d4eb4f, 1 << 40, 77, 1 + 512, 999}
	for seed := range uint64(200) {
		rng := rand.New(rand.NewPCG(seed, 7))
		size := 1 + rng.IntN(16)
		w, model := New(size), &naive{size: size}
		for step := range 300 {
			switch op := rng.IntN(20); {
			case op < 14:
				keys := make([]Key, rng.IntN(5))
				for i := range keys {
					keys[i] = Key{Hash: hashes[rng.IntN(8)], Flags: uint8(rng.IntN(4))}
				}
				w.Push(keys)
				model.push(keys)
			case op < 16:
				mask := uint8(1 + rng.IntN(3))
				require.Equal(t, model.forget(mask), w.Forget(mask), "seed %d step %d forget", seed, step)
			case op < 17:
				w.Reset()
				model.calls = nil
			default:
			}
			require.Equal(t, len(model.calls), w.Len(), "seed %d step %d", seed, step)
			for _, h := range hashes {
				require.Equal(t, model.count(h), w.Count(h), "seed %d step %d hash %d", seed, step, h)
			}
			var recent [][]Key
			for _, keys := range w.Recent() {
				recent = append(recent, slices.Clone(keys))
			}
			slices.Reverse(recent)
			for i := range recent {
				require.ElementsMatch(t, model.calls[i], recent[i], "seed %d step %d slot %d", seed, step, i)
			}
		}
	}
}

func TestWindowEvictsOldest(t *testing.T) {
	w := New(4)
	for i := range 6 {
		w.Push([]Key{{Hash: uint64(i)}})
	}
	require.Equal(t, 4, w.Len())
	require.Equal(t, 0, w.Count(0))
	require.Equal(t, 0, w.Count(1))
	require.Equal(t, 1, w.Count(5))
}

func TestWindowCountsCallsNotKeys(t *testing.T) {
	w := New(4)
	w.Push([]Key{{Hash: 9}, {Hash: 9}})
	require.Equal(t, 1, w.Count(9))
}

func TestWindowEmptyPushTakesASlot(t *testing.T) {
	w := New(2)
	w.Push([]Key{{Hash: 1}})
	w.Push(nil)
	w.Push(nil)
	require.Equal(t, 0, w.Count(1))
}

func TestZeroWindow(t *testing.T) {
	var w Window
	require.Equal(t, 0, w.Count(1))
	w.Push([]Key{{Hash: 1}})
	require.Equal(t, 1, w.Count(1))
	require.Equal(t, 1, New(0).Size())
}

func BenchmarkWindow(b *testing.B) {
	w := New(12)
	keys := []Key{{Hash: 1}, {Hash: 2}, {Hash: 3}, {Hash: 4}, {Hash: 5}}
	b.ReportAllocs()
	i := uint64(0)
	for b.Loop() {
		i++
		for _, k := range keys {
			_ = w.Count(k.Hash + i%7)
		}
		keys[0].Hash = i
		w.Push(keys)
	}
}
