package fingerprint

// Kind is the kind of a fingerprint. The zero value is [Exact].
type Kind uint8

// The kinds of fingerprint, in the order a call's fingerprints are listed.
const (
	Exact Kind = iota
	Cmd
	Net
	Site
	Sink
	Family
	Verb
	numKinds
)

var kindNames = [numKinds]string{"exact", "cmd", "net", "site", "sink", "family", "verb"}

// String returns the kind's name, the prefix of its fingerprints without the
// colon ("exact", "cmd", ...).
func (k Kind) String() string {
	if k < numKinds {
		return kindNames[k]
	}
	return "unknown"
}

// Target reports whether fingerprints of the kind name what a call acts on
// (a URL, a site, an output file, a family or verb of commands) rather than
// the action itself. Approving a local call exempts its targets.
func (k Kind) Target() bool { return k >= Net && k <= Verb }

// ParseKind returns the kind named name ("net"), or false.
func ParseKind(name string) (Kind, bool) {
	for k, n := range kindNames {
		if n == name {
			return Kind(k), true
		}
	}
	return 0, false
}

// KindOf returns the kind of a whole fingerprint ("net:example.com/x"), or
// false when its prefix names no kind.
func KindOf(fingerprint string) (Kind, bool) {
	for k, n := range kindNames {
		if len(fingerprint) > len(n) && fingerprint[len(n)] == ':' && fingerprint[:len(n)] == n {
			return Kind(k), true
		}
	}
	return 0, false
}

// Fingerprint is one fingerprint of a call. The zero Fingerprint is an exact:
// fingerprint with empty text; Analyze never returns one.
type Fingerprint struct {
	Kind Kind
	// Text is the whole readable fingerprint, prefix included.
	Text string
	// Hash is Hash(Text): stable across processes and versions of this
	// package that keep the text the same.
	Hash uint64
}

// Hash returns the 64-bit FNV-1a hash of s, the hash a [Fingerprint]
// carries.
func Hash(s string) uint64 {
	h := uint64(fnvOffset)
	for i := 0; i < len(s); i++ {
		h ^= uint64(s[i])
		h *= fnvPrime
	}
	return h
}

const (
	fnvOffset = 14695981039346656037
	fnvPrime  = 1099511628211
)
