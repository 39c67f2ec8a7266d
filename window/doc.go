// Package window counts fingerprints over a sliding window of an agent's most
// recent calls.
//
// A [Window] holds, for each of the last N calls, the fingerprint hashes that
// call committed, each with caller-defined flag bits. It answers how often a
// hash occurs in the window and can forget flagged hashes when the caller
// learns that earlier observations are stale.
//
// A Window is not safe for concurrent use; callers serialise access (the
// loopbreaker.Breaker holds a per-agent lock around it).
package window
