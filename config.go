package loopbreaker

import (
	"errors"
	"fmt"
	"sort"
	"strings"
	"sync"
	"time"
	"unicode"
)

// Off is a [Config.Limits] value (and a value of the other knobs that say so)
// that disables the limit. In a JSON configuration it is written null.
const Off = -1

// LocalPolicy decides what happens when a call whose URLs are all local
// (localhost, loopback, private and link-local addresses) would be denied.
// The zero value is [LocalAsk].
type LocalPolicy uint8

const (
	// LocalAsk asks the human operator once per turn before denying a call
	// that only local traffic would deny. Unattended hosts should treat an
	// unanswered Ask as declined, which makes this fail closed.
	LocalAsk LocalPolicy = iota
	// LocalDeny counts and denies local calls like any other.
	LocalDeny
	// LocalAllow never fingerprints the targets of local calls.
	LocalAllow
)

var localPolicyNames = [...]string{LocalAsk: "ask", LocalDeny: "deny", LocalAllow: "allow"}

// String returns "ask", "deny" or "allow", the names a JSON configuration
// uses, or "LocalPolicy(n)" for a value that is none of the three.
func (p LocalPolicy) String() string {
	if int(p) < len(localPolicyNames) {
		return localPolicyNames[p]
	}
	return fmt.Sprintf("LocalPolicy(%d)", uint8(p))
}

// Config configures a [Breaker]. The zero Config is the documented default
// configuration (see [DefaultConfig]); every zero field means its default.
//
// A Config is a plain value with no synchronization of its own: it may be
// read from several goroutines at once, but writing to it (or to its maps and
// slices) while another goroutine reads it is a data race. [New] copies it,
// and neither New nor any other function of this package modifies the maps
// and slices given in it.
type Config struct {
	// Window is the number of recent calls per agent that count. 0 means 12;
	// otherwise it must be between 4 and 10,000 (a window holds memory for
	// every agent).
	Window int

	// Limits caps fingerprints, keyed by kind ("exact", "cmd", "net",
	// "sink", "site") or by a whole fingerprint ("family:http-fetch",
	// "verb:curl"); a whole fingerprint starts with one of the kinds or with
	// "family:" or "verb:". Each value is Off or at least 2. A key given here
	// replaces that key's default; the other defaults stay (see
	// [DefaultConfig]).
	Limits map[string]int

	// LocalHosts decides what happens to calls that only touch local hosts.
	// The zero value is [LocalAsk].
	LocalHosts LocalPolicy

	// IgnoreArgs lists decoy argument names removed before fingerprinting,
	// keyed by tool name; "*" applies to every tool and a tool's own list
	// adds to it. A key given here replaces that key's default list (an empty
	// list removes it); the other keys keep their defaults.
	IgnoreArgs map[string][]string

	// HostAliases folds one host spelling into another before URLs are
	// compared: both sides are whole host names, compared lower-cased.
	// Entries are merged over the defaults; to drop a default alias, map the
	// host to itself.
	HostAliases map[string]string

	// Exclude names tools that are never counted and never reset a window;
	// Include, when non-empty, names the only tools that are counted. Names
	// match case-insensitively and may use * wildcards. nil means the
	// default (Exclude: "todo_write"; Include: empty); a non-nil slice, even
	// an empty one, replaces it.
	Exclude, Include []string

	// ShellTools names the tools whose "command" (or "cmd") argument is a
	// shell command, case-insensitively. nil means the default list; a
	// non-nil slice replaces it.
	ShellTools []string

	// PreviewChars truncates fingerprints quoted in messages. 0 means 400;
	// at most 1<<20.
	PreviewChars int
	// ResultPreviewChars truncates the previous result quoted in a denial.
	// 0 means 800; at most 1<<20.
	ResultPreviewChars int

	// MaxAgents caps the number of agents whose state is kept; the least
	// recently used agent is dropped first. 0 means 10,000; Off keeps every
	// agent.
	MaxAgents int
	// IdleTimeout drops the state of an agent that made no call for this
	// long; it is checked lazily, on use. 0 means one hour; a negative value
	// (conventionally Off, that is -1ns) keeps idle agents.
	IdleTimeout time.Duration

	// Strict keeps the counting of the reference specification: no progress
	// awareness, and sink fingerprints for every shell command.
	Strict bool

	// ChangeTools names file-editing tools whose successful calls change the
	// workspace, case-insensitively. nil means the default list; a non-nil
	// slice replaces it.
	ChangeTools []string

	// FailLimit denies an identical call after this many identical attempts
	// in a row failed. 0 means 3; Off disables it.
	FailLimit int

	// WarnMargin sets the advice threshold: a call whose fingerprint reaches
	// limit-WarnMargin occurrences is allowed with [Decision.Advice]. 0 means
	// 1; Off disables advice.
	WarnMargin int

	// MaxDenials turns denials into [Stop] once an agent has been denied this
	// many times in one turn. 0 means 8; Off disables it.
	MaxDenials int

	// OnFault, when set, is called when fingerprinting a call panicked; the
	// call is then allowed. It runs outside the breaker's locks.
	OnFault func(agent string, call Call, fault any)

	// OnDecision, when set, is called after every Check and Resolve, outside
	// the breaker's locks; it may call back into the breaker.
	OnDecision func(Event)
}

// The scalar defaults and bounds. The tables are built by the default*
// functions below, which return fresh values on every call.
const (
	defaultWindow             = 12
	minWindow                 = 4
	maxWindow                 = 10_000
	minLimit                  = 2
	defaultPreviewChars       = 400
	defaultResultPreviewChars = 800
	maxPreviewChars           = 1 << 20
	defaultMaxAgents          = 10_000
	defaultIdleTimeout        = time.Hour
	defaultFailLimit          = 3
	defaultWarnMargin         = 1
	defaultMaxDenials         = 8
)

// limitKinds are the kinds that a bare Limits key may name.
var limitKinds = []string{"exact", "cmd", "net", "sink", "site"}

// fingerprintKinds are the prefixes (before ':') of whole fingerprints that a
// Limits key may name. exact: is not among them: an exact: fingerprint is
// identified by a hash of the call, not of its text, so one cannot be named.
var fingerprintKinds = []string{"cmd", "net", "site", "sink", "family", "verb"}

func defaultLimits() map[string]int {
	return map[string]int{
		"exact":             5,
		"cmd":               5,
		"net":               5,
		"sink":              5,
		"site":              Off,
		"family:http-fetch": Off,
		"verb:curl":         Off,
		"verb:wget":         Off,
	}
}

func defaultIgnoreArgs() map[string][]string {
	return map[string][]string{
		// Arguments that describe or schedule a call without changing what
		// it does; timeout, timeout_ms, yield_time_ms and max_output_tokens
		// are the timing knobs that real harnesses send with every shell
		// call.
		"*": {
			"description", "timeoutMs", "timeout_ms", "run_in_background",
			"justification", "reason", "title", "comment", "explanation",
			"thought", "thoughts", "rationale", "summary", "yield_time_ms",
			"max_output_tokens",
		},
		"bash": {"description", "timeoutMs", "timeout", "run_in_background", "justification"},
	}
}

func defaultHostAliases() map[string]string {
	// Only hosts that serve the same content under another name. For
	// example raw.githubusercontent.com is not github.com: it serves
	// different bytes.
	return map[string]string{
		"open-data.canada.ca": "open.canada.ca",
		"en.m.wikipedia.org":  "en.wikipedia.org",
		"mobile.twitter.com":  "twitter.com",
		"m.youtube.com":       "youtube.com",
		"old.reddit.com":      "reddit.com",
	}
}

func defaultExclude() []string { return []string{"todo_write"} }

func defaultInclude() []string { return []string{} }

func defaultShellTools() []string {
	return []string{
		"bash", "sh", "zsh", "shell", "pwsh", "powershell", "execute_bash",
		"run_shell_command", "exec_command", "execute_command", "terminal",
		"run_terminal_cmd", "local_shell", "container.exec",
	}
}

func defaultChangeTools() []string {
	return []string{
		"edit", "write", "str_replace_editor", "str_replace_based_edit_tool",
		"apply_patch", "multiedit", "multi_edit", "replace", "write_file",
		"edit_file", "create_file", "notebookedit", "notebook_edit", "insert",
		"patch",
	}
}

// DefaultConfig returns the default configuration with every default written
// out, so that it can be inspected or edited. Every call returns new maps and
// slices, which the caller owns. OnFault and OnDecision are nil.
//
// The default limits are 5 for the kinds exact, cmd, net and sink, and Off for
// site, family:http-fetch, verb:curl and verb:wget.
func DefaultConfig() Config {
	return Config{
		Window:             defaultWindow,
		Limits:             defaultLimits(),
		LocalHosts:         LocalAsk,
		IgnoreArgs:         defaultIgnoreArgs(),
		HostAliases:        defaultHostAliases(),
		Exclude:            defaultExclude(),
		Include:            defaultInclude(),
		ShellTools:         defaultShellTools(),
		PreviewChars:       defaultPreviewChars,
		ResultPreviewChars: defaultResultPreviewChars,
		MaxAgents:          defaultMaxAgents,
		IdleTimeout:        defaultIdleTimeout,
		Strict:             false,
		ChangeTools:        defaultChangeTools(),
		FailLimit:          defaultFailLimit,
		WarnMargin:         defaultWarnMargin,
		MaxDenials:         defaultMaxDenials,
	}
}

// withDefaults returns c with every zero field replaced by its default and
// the merged maps (Limits, IgnoreArgs, HostAliases) merged one level deep over
// the defaults. The maps and slices of the result are new where c gave any,
// and otherwise the package's shared default tables, which nothing modifies;
// c's are only read. Host aliases are lower-cased, and a negative
// IdleTimeout becomes Off, so that equal behaviour means equal values. It
// does not validate.
func (c Config) withDefaults() Config {
	d := c
	if d.Window == 0 {
		d.Window = defaultWindow
	}

	d.Limits = defaultLimits()
	for k, v := range c.Limits {
		d.Limits[k] = v
	}

	shared := sharedDefaults()
	d.IgnoreArgs = shared.IgnoreArgs
	if c.IgnoreArgs != nil {
		d.IgnoreArgs = defaultIgnoreArgs()
		for k, names := range c.IgnoreArgs {
			d.IgnoreArgs[k] = cloneList(names)
		}
	}

	d.HostAliases = shared.HostAliases
	if c.HostAliases != nil {
		d.HostAliases = defaultHostAliases()
		// Sorted, so that two spellings of one host resolve the same way on
		// every run: the later in byte order (the lower-case one) wins.
		for _, k := range sortedKeys(c.HostAliases) {
			d.HostAliases[strings.ToLower(k)] = strings.ToLower(c.HostAliases[k])
		}
	}

	d.Exclude = listOr(c.Exclude, shared.Exclude)
	d.Include = listOr(c.Include, shared.Include)
	d.ShellTools = listOr(c.ShellTools, shared.ShellTools)
	d.ChangeTools = listOr(c.ChangeTools, shared.ChangeTools)

	if d.PreviewChars == 0 {
		d.PreviewChars = defaultPreviewChars
	}
	if d.ResultPreviewChars == 0 {
		d.ResultPreviewChars = defaultResultPreviewChars
	}
	if d.MaxAgents == 0 {
		d.MaxAgents = defaultMaxAgents
	}
	switch {
	case d.IdleTimeout == 0:
		d.IdleTimeout = defaultIdleTimeout
	case d.IdleTimeout < 0:
		d.IdleTimeout = Off
	}
	if d.FailLimit == 0 {
		d.FailLimit = defaultFailLimit
	}
	if d.WarnMargin == 0 {
		d.WarnMargin = defaultWarnMargin
	}
	if d.MaxDenials == 0 {
		d.MaxDenials = defaultMaxDenials
	}
	return d
}

// listOr returns a copy of list, or def() when list is nil. The copy is never
// nil, so an empty list stays distinguishable from "the default".
func listOr(list, def []string) []string {
	if list == nil {
		return def
	}
	return cloneList(list)
}

// sharedDefaults holds one copy of the default tables, shared by every
// configuration that keeps them; nothing may modify it.
var sharedDefaults = sync.OnceValue(DefaultConfig)

func cloneList(list []string) []string {
	return append(make([]string, 0, len(list)), list...)
}

func sortedKeys[V any](m map[string]V) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	return keys
}

// Validate reports every problem of c, joined with [errors.Join]; each is a
// [*FieldError] naming the field, in the order of the fields of Config (map
// keys in sorted order). It returns nil when c is valid. Zero values are
// valid: they stand for the defaults, so Validate checks c as given, not
// c with the defaults applied.
func (c Config) Validate() error {
	probs := c.problems()
	if len(probs) == 0 {
		return nil
	}
	errs := make([]error, len(probs))
	for i, p := range probs {
		errs[i] = p.fieldError()
	}
	return errors.Join(errs...)
}

// problem is one invalid value, located both as a Go field path (for
// FieldError) and as a JSON path (for LoadConfig's messages).
type problem struct {
	at     location
	value  any
	reason string
}

func (p problem) fieldError() *FieldError {
	return &FieldError{Field: p.at.goPath, Value: p.value, Reason: p.reason}
}

// problems lists the invalid values of c; see Validate.
func (c Config) problems() []problem {
	var ps []problem
	add := func(at location, value any, reason string) {
		ps = append(ps, problem{at: at, value: value, reason: reason})
	}

	if c.Window != 0 && c.Window < minWindow {
		add(field("Window", "window"), c.Window, "must be 0 (default) or >= 4")
	} else if c.Window > maxWindow {
		add(field("Window", "window"), c.Window, "must be at most 10000: a window holds memory for every agent")
	}

	limits := field("Limits", "limits")
	for _, k := range sortedKeys(c.Limits) {
		at := func() location { return limits.key(k) } // built only for a problem
		if reason := limitKeyProblem(k); reason != "" {
			add(at(), k, reason)
		}
		switch v := c.Limits[k]; {
		case v == Off || v >= minLimit:
		case v == 0:
			add(at(), v, "must be Off (-1) or at least 2: a cap below 2 would deny the first call (leave the key out to keep its default)")
		case v > 0:
			add(at(), v, "must be Off (-1) or at least 2: a cap below 2 would deny the first call")
		default:
			add(at(), v, "must be Off (-1) or at least 2")
		}
	}

	if int(c.LocalHosts) >= len(localPolicyNames) {
		add(field("LocalHosts", "localHosts"), c.LocalHosts, "must be LocalAsk, LocalDeny or LocalAllow")
	}

	ignore := field("IgnoreArgs", "ignoreArgs")
	for _, k := range sortedKeys(c.IgnoreArgs) {
		at := func() location { return ignore.key(k) }
		if blank(k) {
			add(at(), k, "tool name must not be empty")
		}
		for i, name := range c.IgnoreArgs[k] {
			if blank(name) {
				add(at().index(i), name, "argument name must not be empty")
			}
		}
	}

	aliases := field("HostAliases", "hostAliases")
	folded := make(map[string]string, len(c.HostAliases)) // lower-cased key -> original key
	for _, k := range sortedKeys(c.HostAliases) {
		at, v := func() location { return aliases.key(k) }, c.HostAliases[k]
		if reason := hostProblem(k); reason != "" {
			add(at(), k, "host: "+reason)
		}
		if reason := hostProblem(v); reason != "" {
			add(at(), v, "alias target: "+reason)
		}
		lk := strings.ToLower(k)
		if prev, ok := folded[lk]; ok && !strings.EqualFold(c.HostAliases[prev], v) {
			add(at(), v, fmt.Sprintf("same host as key %q once lower-cased, with a different target", prev))
		}
		folded[lk] = k
	}

	for _, l := range []struct {
		at   location
		list []string
	}{
		{field("Exclude", "exclude"), c.Exclude},
		{field("Include", "include"), c.Include},
		{field("ShellTools", "shellTools"), c.ShellTools},
		{field("ChangeTools", "changeTools"), c.ChangeTools},
	} {
		for i, name := range l.list {
			if blank(name) {
				add(l.at.index(i), name, "tool name must not be empty")
			}
		}
	}

	for _, f := range []struct {
		at    location
		value int
	}{
		{field("PreviewChars", "previewChars"), c.PreviewChars},
		{field("ResultPreviewChars", "resultPreviewChars"), c.ResultPreviewChars},
	} {
		if f.value < 0 || f.value > maxPreviewChars {
			add(f.at, f.value, "must be 0 (default) or between 1 and 1048576")
		}
	}

	for _, f := range []struct {
		at    location
		value int
	}{
		{field("MaxAgents", "maxAgents"), c.MaxAgents},
		{field("FailLimit", "failLimit"), c.FailLimit},
		{field("WarnMargin", "warnMargin"), c.WarnMargin},
		{field("MaxDenials", "maxDenials"), c.MaxDenials},
	} {
		if f.value < Off {
			add(f.at, f.value, "must be 0 (default), Off (-1) or at least 1")
		}
	}
	return ps
}

// limitKeyProblem says what is wrong with a Limits key, or "" if nothing is.
func limitKeyProblem(k string) string {
	if k == "" {
		return "key must not be empty"
	}
	kind, rest, whole := strings.Cut(k, ":")
	if !whole {
		for _, known := range limitKinds {
			if k == known {
				return ""
			}
		}
		for _, known := range fingerprintKinds {
			if k == known {
				return fmt.Sprintf("kind %q is not capped as a whole; give a fingerprint such as %s:<name>", k, k)
			}
		}
		return "unknown kind; want exact, cmd, net, sink, site, or a whole fingerprint such as family:http-fetch"
	}
	if kind == "exact" {
		return "exact: fingerprints cannot be capped one by one; cap the kind (\"exact\") or exclude the tool"
	}
	known := false
	for _, fk := range fingerprintKinds {
		known = known || kind == fk
	}
	if !known {
		return fmt.Sprintf("unknown fingerprint kind %q; want cmd, net, site, sink, family or verb", kind)
	}
	if rest == "" {
		return "fingerprint has nothing after its kind"
	}
	return ""
}

// hostProblem says what is wrong with a host name of HostAliases, or "".
func hostProblem(h string) string {
	switch {
	case h == "":
		return "must not be empty"
	case strings.IndexFunc(h, unicode.IsSpace) >= 0:
		return "must not contain whitespace"
	case strings.Contains(h, "/"):
		return "must be a host name, without '/'"
	}
	return ""
}

// blank reports whether a name is empty or only whitespace, which can match
// no tool or argument.
func blank(s string) bool { return strings.TrimSpace(s) == "" }
