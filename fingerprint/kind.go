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
	// Kind is the fingerprint's kind, the prefix of its text.
	Kind Kind
	// Text is the readable fingerprint, prefix included. An [Analysis]
	// leaves the exact: text empty (see [Analyzer.ExactText]).
	Text string
	// Hash identifies the fingerprint, stably across processes: Hash(Text)
	// for every kind but exact:, whose hash is computed from the call itself
	// so that it does not depend on how much of the text is kept.
	Hash uint64
}
