package loopbreaker

import "github.com/loopbreaker/loopbreaker/fingerprint"

// failStreaks tracks, for one agent, the call whose recorded attempts keep
// failing.
type failStreaks struct {
	exact uint64 // exact: hash of the last recorded call
	fails int    // consecutive failed attempts of that call
	text  string // preview of its latest failure
}

// record notes one recorded attempt.
func (f *failStreaks) record(exact uint64, failed bool, text string) {
	switch {
	case !failed:
		*f = failStreaks{}
	case f.exact == exact:
		f.fails++
		f.text = text
	default:
		*f = failStreaks{exact: exact, fails: 1, text: text}
	}
}

// failed reports whether a result is evidence that the call failed.
func (b *Breaker) failed(an *fingerprint.Analysis, res Result) bool {
	switch {
	case res.TimedOut:
		return true
	case res.ExitCode != nil && *res.ExitCode != 0:
		return true
	case res.Status >= 400 && res.Status < 500 && res.Status != 429:
		return true
	}
	return res.IsError
}
