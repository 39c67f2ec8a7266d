package loopbreaker

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"strconv"

	"github.com/loopbreaker/loopbreaker/window"
)

// SnapshotVersion is the version of the form written by [Breaker.Snapshot].
const SnapshotVersion = 1

// The snapshot form, version 1:
//
//	{
//	  "version": 1,
//	  "window": 12,                  // Config.Window of the breaker that wrote it
//	  "approved": false,             // local targets exempted for this turn
//	  "declined": false,             // asking refused for this turn
//	  "denials": 0,                  // denials in this turn
//	  "lastResult": "...",           // preview of the last recorded result
//	  "calls": [                     // the window, oldest call first
//	    {"keys": ["<hash>", "<hash>/<flags>"], "exact": "<hash>", "result": "..."}
//	  ],
//	  "history": [                   // recorded results since the last change, oldest first
//	    {"observe": "<hash>", "verb": "<hash>", "subject": "<hash>", "result": "<hash>", "size": 42, "failed": true, "text": "..."}
//	  ]
//	}
//
// Hashes are 16 hexadecimal digits; a key's flags, when not zero, follow a
// slash. Fingerprint hashes are stable across processes, so a snapshot can
// be restored by another process running the same version of the library.
type snapshot struct {
	Version    int          `json:"version"`
	Window     int          `json:"window"`
	Approved   bool         `json:"approved,omitempty"`
	Declined   bool         `json:"declined,omitempty"`
	Denials    int          `json:"denials,omitempty"`
	LastResult string       `json:"lastResult,omitempty"`
	Calls      []snapCall   `json:"calls"`
	History    []snapRecord `json:"history,omitempty"`
}

type snapCall struct {
	Keys   []string `json:"keys"`
	Exact  string   `json:"exact,omitempty"`
	Result *string  `json:"result,omitempty"`
}

type snapRecord struct {
	Observe string `json:"observe"`
	Verb    string `json:"verb"`
	Subject string `json:"subject"`
	Result  string `json:"result"`
	Size    int    `json:"size,omitempty"`
	Failed  bool   `json:"failed,omitempty"`
	Text    string `json:"text,omitempty"`
}

// maxSnapshotKeys bounds the keys one restored call may hold.
const maxSnapshotKeys = 256

// Snapshot returns one agent's state as versioned JSON: its window, the
// results it quotes, its exemptions, refusals and denial count, and the
// evidence of its recent results. [Breaker.Restore] loads it, in this
// process or another, so that a resumed session keeps its budget. An agent
// the breaker holds no state for gives the snapshot of a fresh agent.
func (b *Breaker) Snapshot(agent string) ([]byte, error) {
	snap := snapshot{Version: SnapshotVersion, Window: b.cfg.Window, Calls: []snapCall{}}
	if st := b.agents.get(agent, b.clock(), false); st != nil {
		st.mu.Lock()
		snap.Approved, snap.Declined, snap.Denials = st.approved, st.declined, st.denials
		snap.LastResult = st.lastResult
		for slot, keys := range st.win.Recent() {
			c := snapCall{Keys: make([]string, len(keys))}
			for i, k := range keys {
				c.Keys[i] = formatKey(k)
			}
			if m := st.meta[slot]; m.exact != 0 || m.has {
				c.Exact = formatHash(m.exact)
				if m.has {
					c.Result = &m.result
				}
			}
			snap.Calls = append(snap.Calls, c)
		}
		for _, r := range st.hist.recs {
			snap.History = append(snap.History, snapRecord{
				Observe: formatHash(r.observe), Verb: formatHash(r.verb), Subject: formatHash(r.subject), Result: formatHash(r.result),
				Size: r.size, Failed: r.failed, Text: r.text,
			})
		}
		st.mu.Unlock()
		slices.Reverse(snap.Calls)
	}
	return json.Marshal(snap)
}

// Restore replaces one agent's state with a snapshot written by
// [Breaker.Snapshot]. Data of another version, data written with another
// window size, and data that is not a valid snapshot are errors that say
// so; the agent's state is then left as it was.
func (b *Breaker) Restore(agent string, data []byte) error {
	var snap snapshot
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&snap); err != nil {
		return fmt.Errorf("loopbreaker: snapshot: %w", err)
	}
	if dec.More() {
		return errors.New("loopbreaker: snapshot: unexpected data after the JSON object")
	}
	if snap.Version != SnapshotVersion {
		return fmt.Errorf("loopbreaker: snapshot: version %d is not supported (this library reads version %d)", snap.Version, SnapshotVersion)
	}
	if snap.Window != b.cfg.Window {
		return fmt.Errorf("loopbreaker: snapshot: written with a window of %d calls, but this breaker's window is %d", snap.Window, b.cfg.Window)
	}
	if len(snap.Calls) > b.cfg.Window {
		return fmt.Errorf("loopbreaker: snapshot: %d calls do not fit a window of %d", len(snap.Calls), b.cfg.Window)
	}
	if len(snap.History) > b.cfg.Window {
		return fmt.Errorf("loopbreaker: snapshot: %d history records exceed the window of %d", len(snap.History), b.cfg.Window)
	}
	if snap.Denials < 0 {
		return fmt.Errorf("loopbreaker: snapshot: denials: must be >= 0 (got %d)", snap.Denials)
	}
	type call struct {
		keys []window.Key
		meta slotMeta
	}
	calls := make([]call, len(snap.Calls))
	for i, c := range snap.Calls {
		if len(c.Keys) > maxSnapshotKeys {
			return fmt.Errorf("loopbreaker: snapshot: calls[%d]: %d keys exceed %d", i, len(c.Keys), maxSnapshotKeys)
		}
		calls[i].keys = make([]window.Key, len(c.Keys))
		for j, s := range c.Keys {
			k, err := parseKey(s)
			if err != nil {
				return fmt.Errorf("loopbreaker: snapshot: calls[%d].keys[%d]: %w", i, j, err)
			}
			calls[i].keys[j] = k
		}
		if c.Exact != "" {
			h, err := parseHash(c.Exact)
			if err != nil {
				return fmt.Errorf("loopbreaker: snapshot: calls[%d].exact: %w", i, err)
			}
			calls[i].meta.exact = h
		}
		if c.Result != nil {
			calls[i].meta.result = preview(*c.Result, b.cfg.ResultPreviewChars)
			calls[i].meta.has = true
		}
	}
	recs := make([]record, len(snap.History))
	for i, r := range snap.History {
		var err error
		for _, f := range []struct {
			name string
			in   string
			out  *uint64
		}{{"observe", r.Observe, &recs[i].observe}, {"verb", r.Verb, &recs[i].verb}, {"subject", r.Subject, &recs[i].subject}, {"result", r.Result, &recs[i].result}} {
			if *f.out, err = parseHash(f.in); err != nil {
				return fmt.Errorf("loopbreaker: snapshot: history[%d].%s: %w", i, f.name, err)
			}
		}
		if r.Size < 0 || r.Size > 255 {
			return fmt.Errorf("loopbreaker: snapshot: history[%d].size: must be 0 to 255 (got %d)", i, r.Size)
		}
		recs[i].size, recs[i].failed = r.Size, r.Failed
		recs[i].text = preview(r.Text, b.cfg.ResultPreviewChars)
	}

	st := b.agents.get(agent, b.clock(), true)
	st.mu.Lock()
	defer st.mu.Unlock()
	st.win.Reset()
	clear(st.meta)
	for _, c := range calls {
		st.meta[st.win.Push(c.keys)] = c.meta
	}
	st.hist.recs = recs
	st.approved, st.declined, st.denials = snap.Approved, snap.Declined, snap.Denials
	st.lastResult = preview(snap.LastResult, b.cfg.ResultPreviewChars)
	st.turn = b.turns.Add(1)
	return nil
}

func formatHash(h uint64) string {
	s := strconv.FormatUint(h, 16)
	return "0000000000000000"[len(s):] + s
}

func formatKey(k window.Key) string {
	if k.Flags == 0 {
		return formatHash(k.Hash)
	}
	return formatHash(k.Hash) + "/" + strconv.Itoa(int(k.Flags))
}

func parseHash(s string) (uint64, error) {
	if len(s) != 16 {
		return 0, fmt.Errorf("hash %q: want 16 hexadecimal digits", s)
	}
	h, err := strconv.ParseUint(s, 16, 64)
	if err != nil {
		return 0, fmt.Errorf("hash %q: want 16 hexadecimal digits", s)
	}
	return h, nil
}

func parseKey(s string) (window.Key, error) {
	hash, flags, found := bytes.Cut([]byte(s), []byte("/"))
	h, err := parseHash(string(hash))
	if err != nil {
		return window.Key{}, err
	}
	k := window.Key{Hash: h}
	if found {
		f, err := strconv.ParseUint(string(flags), 10, 8)
		if err != nil || f == 0 {
			return window.Key{}, fmt.Errorf("key %q: flags must be a number from 1 to 255", s)
		}
		k.Flags = uint8(f)
	}
	return k, nil
}
