package loopbreaker

import (
	"strconv"
	"strings"

	"github.com/loopbreaker/loopbreaker/fingerprint"
)

// history is what an agent's recorded results say since the workspace last
// changed: the evidence for denying a call that keeps failing, or keeps
// getting the same answer, before any fingerprint reaches its limit.
type history struct {
	recs []record // oldest first, at most the window's size
}

// record is one recorded result.
type record struct {
	observe uint64 // Analysis.Observe
	verb    uint64 // hash of Analysis.Verb
	subject uint64 // Analysis.Subject
	result  uint64 // hash of the result text, digit runs folded
	size    int    // the length of the result text, white space trimmed, at most 255
	failed  bool
	text    string // preview of a failure's text, for the denial
}

// add appends r, dropping the oldest record beyond max.
func (h *history) add(r record, max int) {
	if len(h.recs) == max {
		copy(h.recs, h.recs[1:])
		h.recs = h.recs[:max-1]
	}
	h.recs = append(h.recs, r)
}

// reset forgets every record: the workspace changed.
func (h *history) reset() { h.recs = h.recs[:0] }

// staleHit is a reason to deny a call found in the history.
type staleHit struct {
	hit    Hit
	why    string
	quoted string
}

// stale looks for a reason to deny a call in the agent's recorded results.
// Four kinds of evidence count, all gathered since the workspace last
// changed:
//
//   - the same question (the call's observation key) answered the same way
//     limit times in a row, success or failure;
//   - the same program failing with the same error verbLimit times in a
//     row, whatever its arguments;
//   - the same program on the same operands giving the same output (of
//     some length) verbLimit times in a row, whatever its options;
//   - a cycle of two or three questions whose answers do not change (A B A
//     B then A, or A B C A then B).
func (h *history) stale(an *fingerprint.Analysis, limit, verbLimit int) (staleHit, bool) {
	if limit > 0 {
		if n, last, ok := h.sameAnswers(limit, anyRecord, func(r record) bool { return r.observe == an.Observe }); ok {
			sh := staleHit{hit: Hit{Fingerprint: "stale:" + an.Verb, Count: n + 1, Limit: limit + 1}}
			if last.failed {
				sh.hit.Fingerprint = "fail:" + an.Verb
				sh.why = "Its last " + strconv.Itoa(n) + " attempts failed with the same error, and nothing has changed since: repeating it cannot succeed. Change what the error complains about, or use a different approach."
				sh.quoted = last.text
			} else {
				sh.why = "It asks again what the last " + strconv.Itoa(n) + " calls asked, and the answer did not change; nothing has changed in the workspace since."
			}
			return sh, true
		}
	}
	if verbLimit <= 0 {
		return h.cycle(an, limit)
	}
	failedWithText := func(r record) bool { return r.failed && r.size > 0 }
	if n, last, ok := h.sameAnswers(verbLimit, failedWithText, func(r record) bool { return r.verb == an.VerbHash }); ok {
		return staleHit{
			hit:    Hit{Fingerprint: "fail:" + an.Verb, Count: n + 1, Limit: verbLimit + 1},
			why:    "The last " + strconv.Itoa(n) + " calls of " + an.Verb + " failed with the same error, whatever their arguments; another variation will not get past it.",
			quoted: last.text,
		}, true
	}
	// A fetch of a new URL asks for a new resource, whatever the program
	// answered before (pages summarised by "| jq length" all read "100"):
	// net: fingerprints judge fetches. Short outputs ("ok", "644") are the
	// same answer to many different questions; only a longer output
	// repeated word for word says that nothing is being learnt.
	if !an.Fetch && an.Subject != 0 {
		long := func(r record) bool { return r.size >= minVerbAnswer }
		if n, _, ok := h.sameAnswers(verbLimit, long, func(r record) bool { return r.subject == an.Subject }); ok {
			return staleHit{
				hit: Hit{Fingerprint: "stale:" + an.Verb, Count: n + 1, Limit: verbLimit + 1},
				why: "The last " + strconv.Itoa(n) + " calls of " + an.Verb + " on the same operands all returned the same output, whatever their options; another variation will not change it.",
			}, true
		}
	}
	return h.cycle(an, limit)
}

// cycle reports a cycle of two or three questions whose answers do not
// change.
func (h *history) cycle(an *fingerprint.Analysis, limit int) (staleHit, bool) {
	if n := len(h.recs); limit > 0 && n >= 4 {
		r := h.recs[n-4:]
		two := r[0].observe == r[2].observe && r[1].observe == r[3].observe && r[0].observe != r[1].observe &&
			an.Observe == r[0].observe && r[0].result == r[2].result && r[1].result == r[3].result
		three := r[0].observe == r[3].observe && an.Observe == r[1].observe && r[0].observe != r[1].observe &&
			r[2].observe != r[0].observe && r[2].observe != r[1].observe && r[0].result == r[3].result
		if two || three {
			return staleHit{
				hit: Hit{Fingerprint: "cycle:" + an.Verb, Count: 5, Limit: 5},
				why: "The agent is going round the same few calls, which keep returning the same results.",
			}, true
		}
	}
	return staleHit{}, false
}

// sameAnswers reports whether the last n records that match all carry the
// same result, and are all accepted, returning n and the newest of them.
func (h *history) sameAnswers(n int, accept, match func(record) bool) (int, record, bool) {
	same := 0
	var newest record
	for i := len(h.recs) - 1; i >= 0 && same < n; i-- {
		r := h.recs[i]
		if !match(r) {
			continue
		}
		if !accept(r) || (same > 0 && r.result != newest.result) {
			return 0, record{}, false
		}
		if same == 0 {
			newest = r
		}
		same++
	}
	return same, newest, same == n
}

func anyRecord(record) bool { return true }

// minVerbAnswer is the length from which one program's output, repeated
// word for word under changing options, counts as the same answer.
const minVerbAnswer = 32

// failed reports whether a result is evidence that the call failed: the
// harness's error flag, a non-zero exit code, an HTTP client error other
// than a rate limit, a timeout, or, for shell tools, the usual marks of a
// failure in the text. An exit code of 1 from a program that uses it to say
// "no" (grep, diff, test) is not a failure.
func (b *Breaker) failed(an *fingerprint.Analysis, res Result) bool {
	if answersNo(an.Verb) && (res.ExitCode != nil && *res.ExitCode == 1) {
		return false
	}
	switch {
	case res.TimedOut:
		return true
	case res.ExitCode != nil && *res.ExitCode != 0:
		return true
	case res.Status == 429 || res.Status >= 500:
		return false
	case res.Status >= 400:
		return true
	case res.IsError:
		return true
	case res.ExitCode != nil:
		// A known exit code of 0 outweighs what the text seems to say.
		return false
	}
	return an.Class == fingerprint.Shell && failureText(res.Text)
}

func answersNo(verb string) bool {
	switch verb {
	case "grep", "egrep", "fgrep", "rg", "ag", "ack", "diff", "cmp", "test", "[", "[[":
		return true
	}
	return false
}

// failureText reports whether a shell tool's output shows a failure.
func failureText(text string) bool {
	if i := strings.Index(text, "[exit code: "); i >= 0 {
		rest := text[i+len("[exit code: "):]
		if !strings.HasPrefix(rest, "0]") {
			return true
		}
	}
	if strings.Contains(text, "Traceback (most recent call last)") || strings.Contains(text, ": command not found") {
		return true
	}
	if i := strings.Index(text, "curl: ("); i >= 0 {
		return true
	}
	if i := strings.Index(text, "HTTP Error "); i >= 0 {
		code := text[i+len("HTTP Error "):]
		return len(code) >= 3 && code[0] == '4' && !strings.HasPrefix(code, "429")
	}
	return false
}

// resultHash hashes a result text. The text of a failure has its runs of
// digits folded to one '#', so that line numbers, process ids and timings do
// not make one error look like another; the numbers of an answer are its
// content and are kept.
func resultHash(text string, failed bool) uint64 {
	if !failed {
		return fingerprint.Hash(text)
	}
	h := uint64(14695981039346656037)
	digits := false
	for i := 0; i < len(text); i++ {
		c := text[i]
		if c >= '0' && c <= '9' {
			if digits {
				continue
			}
			digits = true
			c = '#'
		} else {
			digits = false
		}
		h ^= uint64(c)
		h *= 1099511628211
	}
	return h
}
