package loopbreaker

import (
	"reflect"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/loopbreaker/loopbreaker/fingerprint"
	"github.com/loopbreaker/loopbreaker/window"
)

// Breaker decides, per agent, whether a tool call repeats an action the agent
// has already taken too often. The zero Breaker is not usable: create one
// with [New]. A Breaker is safe for concurrent use: each agent has its own
// lock, so agents never wait for one another, while two calls of one agent
// are decided one after the other and see each other.
type Breaker struct {
	cfg      Config // with defaults applied
	analyzer *fingerprint.Analyzer
	exclude  toolPatterns
	include  toolPatterns

	kindLimit [8]int         // by fingerprint.Kind; Off when uncapped
	fpLimit   map[uint64]int // whole-fingerprint limits, by hash
	fpBits    uint64         // bit h%64 set for every hash h in fpLimit

	agents *agents
	turns  atomic.Uint64
	clock  func() time.Time

	// analyzeFn is the analyzer's Analyze; tests replace it to inject faults.
	analyzeFn func(tool string, args map[string]any) *fingerprint.Analysis

	stats struct {
		checks, allowed, denied, asked, stopped, faults atomic.Uint64
	}
}

// Window key flags.
const (
	// flagObservation marks the exact: and cmd: keys of a call that only
	// observes; a later change to the workspace forgets them.
	flagObservation uint8 = 1 << iota
)

// New returns a Breaker for cfg, or the errors of [Config.Validate].
func New(cfg Config) (*Breaker, error) {
	if err := cfg.Validate(); err != nil {
		return nil, err
	}
	raw := cfg
	cfg = cfg.withDefaults()
	b := &Breaker{
		cfg:     cfg,
		exclude: compilePatterns(cfg.Exclude),
		include: compilePatterns(cfg.Include),
		fpLimit: map[uint64]int{},
		clock:   monotonicClock(),
	}
	if raw.IgnoreArgs == nil && raw.HostAliases == nil && raw.ShellTools == nil && raw.ChangeTools == nil {
		b.analyzer = defaultAnalyzer().Fork(analyzerOptions(cfg))
	} else {
		b.analyzer = fingerprint.New(analyzerOptions(cfg))
	}
	b.analyzeFn = b.analyzer.Analyze
	for k := range b.kindLimit {
		b.kindLimit[k] = Off
	}
	for key, limit := range cfg.Limits {
		if kind, ok := fingerprint.ParseKind(key); ok {
			b.kindLimit[kind] = limit
		}
	}
	for key, limit := range cfg.Limits {
		// A whole fingerprint whose limit is its kind's anyway (such as the
		// default "verb:curl": Off) needs no lookup on every call.
		if kind, ok := fingerprint.KindOf(key); ok && limit != b.kindLimit[kind] {
			h := fingerprint.Hash(key)
			b.fpLimit[h] = limit
			b.fpBits |= 1 << (h % 64)
		}
	}
	b.agents = newAgents(cfg.MaxAgents, cfg.IdleTimeout, cfg.Window, func() uint64 { return b.turns.Add(1) })
	return b, nil
}

// analyzerOptions are the fingerprint options of a configuration with its
// defaults applied.
func analyzerOptions(cfg Config) fingerprint.Options {
	return fingerprint.Options{
		IgnoreArgs:  cfg.IgnoreArgs,
		HostAliases: cfg.HostAliases,
		ShellTools:  cfg.ShellTools,
		ChangeTools: cfg.ChangeTools,
		LocalAllow:  cfg.LocalHosts == LocalAllow,
		SinkAlways:  cfg.Strict,
		// Observation keys serve only the rules that read results.
		NoKeys: cfg.FailLimit == Off,
	}
}

// monotonicClock returns a clock that reads only the monotonic clock, which
// costs about half as much as time.Now on virtual machines whose wall clock
// is slow to read. The breaker measures only intervals (idle agents, the
// duration in events), for which this is as good.
func monotonicClock() func() time.Time {
	epoch := time.Now()
	return func() time.Time { return epoch.Add(time.Since(epoch)) }
}

// defaultAnalyzer compiles the default fingerprint options once.
var defaultAnalyzer = sync.OnceValue(func() *fingerprint.Analyzer {
	return fingerprint.New(analyzerOptions(Config{}.withDefaults()))
})

// limitOf returns the cap of one fingerprint: its own entry in Limits, else
// its kind's, else Off.
func (b *Breaker) limitOf(p fingerprint.Fingerprint) int {
	if b.fpBits&(1<<(p.Hash%64)) != 0 {
		// Most fingerprints have no limit of their own, and the bit tells
		// them without a map lookup.
		if l, ok := b.fpLimit[p.Hash]; ok {
			return l
		}
	}
	return b.kindLimit[p.Kind]
}

// tracked reports whether calls of tool are counted at all.
func (b *Breaker) tracked(tool string) bool {
	if len(b.include) > 0 && !b.include.match(tool) {
		return false
	}
	return !b.exclude.match(tool)
}

// analyze fingerprints a call; a panic inside is reported through OnFault
// and gives ok=false.
func (b *Breaker) analyze(agent string, call Call) (an *fingerprint.Analysis, ok bool) {
	defer func() {
		if r := recover(); r != nil {
			an, ok = nil, false
			b.stats.faults.Add(1)
			if b.cfg.OnFault != nil {
				b.cfg.OnFault(agent, call, r)
			}
		}
	}()
	return b.analyzeFn(call.Tool, call.Args), true
}

// Check decides whether agent may run call. It is synchronous, does no I/O,
// never blocks on anything but the agent's own lock, and never fails: a fault
// inside fingerprinting allows the call (and is reported to Config.OnFault).
//
// An allowed call is committed to the agent's window in full; a denied call
// commits only the fingerprints that reached their limit, because the action
// never ran; an Ask commits nothing until [Breaker.Resolve]. Calls of
// excluded tools are allowed without being counted.
func (b *Breaker) Check(agent string, call Call) Decision {
	start := b.clock()
	b.stats.checks.Add(1)
	d := b.check(agent, call, start)
	b.count(d.Verdict)
	b.emit(agent, call.Tool, d, start)
	return d
}

func (b *Breaker) check(agent string, call Call, now time.Time) Decision {
	if !b.tracked(call.Tool) {
		return Decision{}
	}
	an, ok := b.analyze(agent, call)
	if !ok {
		return Decision{}
	}
	st := b.agents.get(agent, now, true)
	st.mu.Lock()
	defer st.mu.Unlock()
	st.last = lastCall{args: argsID(call.Args), tool: call.Tool, an: an}
	return b.decide(agent, st, an, call)
}

// lastCall remembers the analysis of an agent's last checked call, so that
// Record of that call does not analyse it again.
type lastCall struct {
	args uintptr
	tool string
	an   *fingerprint.Analysis
}

// argsID identifies an arguments map by its address.
func argsID(args map[string]any) uintptr {
	return uintptr(reflect.ValueOf(args).UnsafePointer())
}

// printText returns the readable text of a fingerprint for a message: the
// analysis keeps only the start of an exact: text, so that one is written
// again from the call, as long as a preview needs.
func (b *Breaker) printText(p fingerprint.Fingerprint, an *fingerprint.Analysis, call Call) string {
	if p.Kind != fingerprint.Exact {
		return p.Text
	}
	return b.analyzer.ExactTextOf(an, call.Tool, call.Args, 4*b.cfg.PreviewChars+8)
}

// decide requires that st.mu is held.
func (b *Breaker) decide(agent string, st *agentState, an *fingerprint.Analysis, call Call) Decision {
	var hits []Hit
	var hitKeys []window.Key
	warn := ""
	for _, p := range an.Prints {
		limit := b.limitOf(p)
		if limit == Off || (st.approved && an.Local && p.Kind.Target()) {
			continue
		}
		count := st.win.Count(p.Hash) + 1
		if count >= limit {
			hits = append(hits, Hit{Fingerprint: preview(b.printText(p, an, call), b.cfg.PreviewChars), Count: count, Limit: limit})
			hitKeys = append(hitKeys, b.key(an, p))
			continue
		}
		if b.cfg.WarnMargin != Off && count == limit-b.cfg.WarnMargin && warn == "" {
			warn = b.printText(p, an, call)
		}
	}
	if len(hits) == 0 && b.cfg.FailLimit != Off {
		verbLimit := 0
		if l := b.kindLimit[fingerprint.Cmd]; l != Off {
			verbLimit = l - 1
		}
		if sh, ok := st.hist.stale(an, b.cfg.FailLimit, verbLimit); ok {
			quoted := sh.quoted
			if quoted == "" {
				quoted = b.quote(st, nil)
			}
			sh.hit.Fingerprint = preview(sh.hit.Fingerprint, b.cfg.PreviewChars)
			return b.deny(st, an, []Hit{sh.hit}, nil, denial{why: sh.why, quoted: quoted})
		}
	}
	if len(hits) == 0 {
		var buf [16]window.Key
		b.commit(st, an, b.appendKeys(buf[:0], an))
		return Decision{Verdict: Allow, Advice: b.advice(warn)}
	}
	if b.cfg.LocalHosts == LocalAsk && an.Local && !st.declined && allTargets(an, hits) {
		return Decision{
			Verdict: Ask,
			Hits:    hits,
			Prompt:  b.askPrompt(an, hits),
			pending: &pendingAsk{agent: agent, turn: st.turn, an: an, hitKeys: hitKeys, hits: hits},
		}
	}
	return b.deny(st, an, hits, hitKeys, denial{refused: st.declined && an.Local && allTargets(an, hits)})
}

// denial says why a call is denied beyond its hits.
type denial struct {
	why     string // an explanation of the hits, when they are not plain counts
	quoted  string // the result to quote; found in the window when empty
	refused bool   // the operator declined to exempt local targets
}

// deny commits the hitting keys and builds the denial; it requires that
// st.mu is held.
func (b *Breaker) deny(st *agentState, an *fingerprint.Analysis, hits []Hit, hitKeys []window.Key, why denial) Decision {
	if why.quoted == "" {
		why.quoted = b.quote(st, hitKeys)
	}
	b.commit(st, an, hitKeys)
	st.denials++
	verdict := Deny
	if b.cfg.MaxDenials != Off && st.denials > b.cfg.MaxDenials {
		verdict = Stop
	}
	return Decision{
		Verdict: verdict,
		Hits:    hits,
		Message: b.denyMessage(an, hits, why, verdict == Stop),
	}
}

// allTargets reports whether every hit is a target fingerprint, which is
// what makes a local call's denial askable.
func allTargets(an *fingerprint.Analysis, hits []Hit) bool {
	for _, h := range hits {
		kind, ok := fingerprint.KindOf(h.Fingerprint)
		if !ok || !kind.Target() {
			return false
		}
	}
	return true
}

// keys returns the window keys of every fingerprint of a call.
func (b *Breaker) keys(an *fingerprint.Analysis) []window.Key {
	return b.appendKeys(make([]window.Key, 0, len(an.Prints)), an)
}

// appendKeys appends the window keys of every fingerprint of a call to dst.
func (b *Breaker) appendKeys(dst []window.Key, an *fingerprint.Analysis) []window.Key {
	for _, p := range an.Prints {
		dst = append(dst, b.key(an, p))
	}
	return dst
}

func (b *Breaker) key(an *fingerprint.Analysis, p fingerprint.Fingerprint) window.Key {
	k := window.Key{Hash: p.Hash}
	if !b.cfg.Strict && !an.Writes && (p.Kind == fingerprint.Exact || p.Kind == fingerprint.Cmd) {
		k.Flags = flagObservation
	}
	return k
}

// commit pushes keys as one call; it requires that st.mu is held.
func (b *Breaker) commit(st *agentState, an *fingerprint.Analysis, keys []window.Key) {
	slot := st.win.Push(keys)
	st.meta[slot] = slotMeta{exact: an.Prints[0].Hash}
}

// Record hands the breaker the settled result of an allowed call: later
// denials quote it, its failure or answer is evidence for the result rules,
// and a successful change to the workspace makes earlier observations stale
// (in Strict mode only for the result rules). Pass the Call given to Check,
// unmodified: when its arguments map is the one the agent's last Check saw,
// Record reuses that analysis instead of fingerprinting the call again.
// Record of a call the breaker never saw is harmless; a result that is the
// breaker's own refusal (it starts with BlockedPrefix) is ignored.
func (b *Breaker) Record(agent string, call Call, res Result) {
	if !b.tracked(call.Tool) || strings.HasPrefix(res.Text, BlockedPrefix) {
		// The breaker's own refusal handed back as a result is no evidence.
		return
	}
	st := b.agents.get(agent, b.clock(), true)
	st.mu.Lock()
	var an *fingerprint.Analysis
	if l := st.last; l.an != nil && l.tool == call.Tool && l.args == argsID(call.Args) {
		an = l.an
	}
	st.mu.Unlock()
	if an == nil {
		var ok bool
		if an, ok = b.analyze(agent, call); !ok {
			return
		}
	}
	st.mu.Lock()
	defer st.mu.Unlock()
	text := preview(res.Text, b.cfg.ResultPreviewChars)
	st.lastResult = text
	exact := an.Prints[0].Hash
	for slot := range st.win.Recent() {
		if m := &st.meta[slot]; m.exact == exact {
			m.result, m.has = text, true
			break
		}
	}
	failed := b.failed(an, res)
	if an.Writes && !failed {
		// The workspace changed: earlier observations are stale.
		st.hist.reset()
		if !b.cfg.Strict {
			st.win.Forget(flagObservation)
		}
		return
	}
	r := record{
		observe: an.Observe,
		verb:    an.VerbHash,
		subject: an.Subject,
		result:  resultHash(res.Text, failed),
		size:    min(len(strings.TrimSpace(res.Text)), 255),
		failed:  failed,
	}
	if failed {
		r.text = text
	}
	st.hist.add(r, b.cfg.Window)
}

// UserTurn marks a real human message to agent: its window, exemptions,
// refusals, failure streaks and denial count are cleared. Tool results and
// the breaker's own messages are not user turns.
func (b *Breaker) UserTurn(agent string) {
	st := b.agents.get(agent, b.clock(), false)
	if st == nil {
		return
	}
	st.mu.Lock()
	defer st.mu.Unlock()
	st.win.Reset()
	clear(st.meta)
	st.turn = b.turns.Add(1)
	st.approved, st.declined = false, false
	st.denials = 0
	st.hist.reset()
}

// Forget drops every state of agent, as if it had never called.
func (b *Breaker) Forget(agent string) { b.agents.drop(agent) }

// Fingerprints returns every fingerprint call carries, readable and whole,
// whether or not its kind is capped: what Check would count. It returns nil
// for calls of excluded tools.
func (b *Breaker) Fingerprints(call Call) []string {
	if !b.tracked(call.Tool) {
		return nil
	}
	an, ok := b.analyze("", call)
	if !ok {
		return nil
	}
	out := make([]string, len(an.Prints))
	for i, p := range an.Prints {
		out[i] = p.Text
	}
	// The analysis keeps no exact: text; write the whole one.
	out[0] = b.analyzer.ExactText(call.Tool, call.Args, 0)
	return out
}
