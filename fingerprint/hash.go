package fingerprint

import (
	"encoding/json"
	"math"
	"math/bits"
	"slices"
	"strconv"
	"unsafe"

	"github.com/loopbreaker/loopbreaker/normalize"
)

// Hash returns the 64-bit hash of a fingerprint's text. It is stable across
// processes and platforms, so hashes kept in a snapshot of a window stay
// meaningful when the snapshot is restored elsewhere. It reads eight bytes
// at a time and is not meant to resist deliberate collisions.
func Hash(s string) uint64 {
	var h hasher
	h.init(seedA, seedB)
	h.str(s)
	return h.sum().a
}

// Seeds and multipliers of the two lanes of a hasher.
const (
	seedA = 0x9e3779b97f4a7c15
	seedB = 0xc2b2ae3d27d4eb4f
	mulA  = 0xbf58476d1ce4e5b9
	mulB  = 0x94d049bb133111eb
)

// hasher is a two-lane word-at-a-time hash. Two independent 64-bit lanes
// make an accidental collision of two different calls (which would make the
// memo hand one call the other's analysis) practically impossible.
type hasher struct {
	a, b uint64
}

// sum128 is a finished two-lane hash.
type sum128 struct{ a, b uint64 }

func (h *hasher) init(a, b uint64) { h.a, h.b = a, b }

func (h *hasher) word(w uint64) {
	h.a = bits.RotateLeft64((h.a^w)*mulA, 31)
	h.b = bits.RotateLeft64((h.b^w)*mulB, 27)
}

func (h *hasher) str(s string) {
	h.word(uint64(len(s)))
	if len(s) >= 64 {
		// Four independent lanes over 32-byte stripes keep the multipliers
		// busy in parallel; they are folded into h afterwards.
		v := [4]uint64{h.a, h.b, ^h.a, ^h.b}
		for len(s) >= 32 {
			v[0] = bits.RotateLeft64((v[0]^load64(s, 0))*mulA, 31)
			v[1] = bits.RotateLeft64((v[1]^load64(s, 8))*mulB, 27)
			v[2] = bits.RotateLeft64((v[2]^load64(s, 16))*mulA, 29)
			v[3] = bits.RotateLeft64((v[3]^load64(s, 24))*mulB, 33)
			s = s[32:]
		}
		for _, x := range v {
			h.word(x)
		}
	}
	whole := s
	for len(s) >= 8 {
		h.word(load64(s, 0))
		s = s[8:]
	}
	switch {
	case len(s) == 0:
	case len(whole) >= 8:
		// The last eight bytes, overlapping what came before; the length
		// hashed first keeps this unambiguous.
		h.word(load64(whole, len(whole)-8))
	case len(s) >= 4:
		// The bytes little-endian, as one word: two four-byte loads that
		// overlap put the shared bytes in the same places.
		n := len(s)
		h.word(load32(s, 0) | load32(s, n-4)<<(8*(n-4)))
	default:
		n := len(s)
		h.word(uint64(s[0]) | uint64(s[n/2])<<(8*(n/2)) | uint64(s[n-1])<<(8*(n-1)))
	}
}

// load32 reads four bytes of s at i, little-endian.
func load32(s string, i int) uint64 {
	_ = s[i+3]
	return uint64(s[i]) | uint64(s[i+1])<<8 | uint64(s[i+2])<<16 | uint64(s[i+3])<<24
}

// load64 reads eight bytes of s at i, little-endian.
func load64(s string, i int) uint64 {
	_ = s[i+7]
	return uint64(s[i]) | uint64(s[i+1])<<8 | uint64(s[i+2])<<16 | uint64(s[i+3])<<24 |
		uint64(s[i+4])<<32 | uint64(s[i+5])<<40 | uint64(s[i+6])<<48 | uint64(s[i+7])<<56
}

func (h *hasher) sum() sum128 {
	return sum128{a: mix(h.a ^ h.b>>1), b: mix(h.b ^ bits.RotateLeft64(h.a, 17))}
}

// mix is a final avalanche (splitmix64's).
func mix(x uint64) uint64 {
	x ^= x >> 30
	x *= mulA
	x ^= x >> 27
	x *= mulB
	return x ^ x>>31
}

// Type tags, so that the string "1" and the number 1 hash differently.
const (
	tagNull uint64 = iota + 1
	tagFalse
	tagTrue
	tagNumber
	tagString
	tagArray
	tagObject
	tagCut
	tagOther
)

// argsHasher hashes a value by the same equality as its canonical JSON
// (normalize.AppendCanonical) without writing that JSON: object members are
// hashed one by one and summed, so key order needs no sort; strings are
// hashed raw, with no escaping. It applies the same depth, node and cycle
// limits. Hashers are passed by value, so that hashing allocates nothing.
type argsHasher struct {
	nodes int
	// path holds the containers on the way to the current value (the first
	// n of them; deeper ones count in over), to cut cycles short.
	path [32]uintptr
	n    int
	over int
	num  [32]byte
}

// callKey hashes a tool and its arguments without the skipped top-level
// keys.
func callKey(tool string, args map[string]any, d *decoys) sum128 {
	var e argsHasher
	var h hasher
	h.init(seedA, seedB)
	h.str(tool)
	if args == nil {
		h.word(tagNull)
	} else {
		h = e.object(h, args, 0, d)
	}
	return h.sum()
}

func (e *argsHasher) value(h hasher, v any, depth int) hasher {
	e.nodes++
	if depth > normalize.MaxDepth || e.nodes > normalize.MaxNodes {
		h.word(tagCut)
		return h
	}
	switch x := v.(type) {
	case nil:
		h.word(tagNull)
	case string:
		h.word(tagString)
		h.str(x)
	case bool:
		if x {
			h.word(tagTrue)
		} else {
			h.word(tagFalse)
		}
	case json.Number:
		if json.Valid([]byte(x)) && x != "" && (x[0] == '-' || (x[0] >= '0' && x[0] <= '9')) {
			h.word(tagNumber)
		} else {
			h.word(tagString)
		}
		h.str(string(x))
	case float64:
		h = e.float(h, x)
	case int:
		h.word(tagNumber)
		h.str(string(strconv.AppendInt(e.num[:0], int64(x), 10)))
	case map[string]any:
		h = e.object(h, x, depth, nil)
	case []any:
		if e.enter(uintptr(unsafe.Pointer(unsafe.SliceData(x)))) {
			h.word(tagCut)
			return h
		}
		h.word(tagArray)
		h.word(uint64(len(x)))
		for _, item := range x {
			h = e.value(h, item, depth+1)
		}
		e.leave()
	default:
		// Rare shapes: hash their canonical text.
		h.word(tagOther)
		h.str(string(normalize.AppendCanonical(nil, v, nil)))
	}
	return h
}

func (e *argsHasher) float(h hasher, f float64) hasher {
	if math.IsNaN(f) || math.IsInf(f, 0) {
		h.word(tagString)
		h.str(strconv.FormatFloat(f, 'g', -1, 64))
		return h
	}
	h.word(tagNumber)
	if f == math.Trunc(f) && math.Abs(f) < 1e21 {
		h.str(string(strconv.AppendFloat(e.num[:0], f, 'f', -1, 64)))
		return h
	}
	h.str(string(strconv.AppendFloat(e.num[:0], f, 'g', -1, 64)))
	return h
}

func (e *argsHasher) object(h hasher, m map[string]any, depth int, d *decoys) hasher {
	if e.enter(mapAddr(m)) {
		h.word(tagCut)
		return h
	}
	var sumA, sumB uint64
	n := 0
	for k, v := range m {
		if d != nil && d.skip(k) {
			continue
		}
		var member hasher
		member.init(seedB, seedA)
		member.str(k)
		member = e.value(member, v, depth+1)
		s := member.sum()
		sumA += s.a
		sumB += s.b
		n++
	}
	h.word(tagObject)
	h.word(uint64(n))
	h.word(sumA)
	h.word(sumB)
	e.leave()
	return h
}

// mapAddr returns the address of a map's data, which identifies it.
func mapAddr(m map[string]any) uintptr {
	return uintptr(*(*unsafe.Pointer)(unsafe.Pointer(&m)))
}

// enter records a container on the path; it reports true when the container
// is already on it, which means the value contains itself.
func (e *argsHasher) enter(p uintptr) bool {
	if p != 0 && slices.Contains(e.path[:e.n], p) {
		return true
	}
	if e.n < len(e.path) {
		e.path[e.n] = p
		e.n++
	} else {
		// Beyond the tracked path, MaxDepth still bounds a cycle.
		e.over++
	}
	return false
}

func (e *argsHasher) leave() {
	if e.over > 0 {
		e.over--
	} else {
		e.n--
	}
}
