package fingerprint

import (
	"strings"
	"sync/atomic"

	"github.com/loopbreaker/loopbreaker/normalize"
)

// Options configure an [Analyzer]. The zero Options strip no decoys, fold no
// hosts and know no shell tools.
type Options struct {
	// IgnoreArgs lists decoy argument names removed before fingerprinting:
	// "*" applies to every tool, other keys to the tool of that name
	// (matched case-insensitively). Only top-level arguments are removed.
	IgnoreArgs map[string][]string
	// HostAliases folds hosts before URLs are compared.
	HostAliases map[string]string
	// ShellTools names the tools whose command argument is a shell command,
	// case-insensitively.
	ShellTools []string
	// ChangeTools names file-editing tools, case-insensitively; their calls
	// are marked as writes (see [Analysis.Writes]).
	ChangeTools []string
	// LocalAllow drops the target fingerprints (net, site, sink, family,
	// verb) of calls whose URLs are all local.
	LocalAllow bool
	// SinkAlways emits sink: fingerprints for every shell command; otherwise
	// only for commands that fetch from the network.
	SinkAlways bool
	// NoKeys leaves Analysis.Observe and Analysis.Subject zero, for a
	// caller that does not judge results and so never reads them.
	NoKeys bool
}

// Class is how a tool is understood. The zero value is [Other].
type Class uint8

const (
	// Other tools carry only their exact: fingerprint.
	Other Class = iota
	// Shell tools run a command line.
	Shell
	// URLTool tools fetch, search or browse a URL.
	URLTool
)

// Analysis is everything the breaker needs to know about one call. It is
// shared between callers and must not be modified.
type Analysis struct {
	// Tool is the tool's name as called.
	Tool string
	// Class is how the tool was understood.
	Class Class
	// Prints are the call's fingerprints: exact first, then cmd, net, site,
	// sink, family and verb, each kind in order of appearance, without
	// duplicates. The exact: fingerprint has its hash but no text; write it
	// with [Analyzer.ExactText] when it is needed.
	Prints []Fingerprint
	// Local reports that the call mentions at least one URL and every URL is
	// local (localhost, loopback, private or link-local).
	Local bool
	// Fetch reports that the call fetches from the network: a URL tool, or a
	// shell command with an HTTP client or a URL.
	Fetch bool
	// Writes reports that the call may change the workspace: a file-editing
	// tool, or a shell command that writes a file or runs a command that
	// changes files.
	Writes bool
	// Summary is a short readable form of a shell or URL tool's call (its
	// command or URL), at most summaryBytes long; empty for other tools.
	Summary string

	// Observe identifies the question an observation asks, coarser than
	// Action: reordered flags, cleaned paths and the position arguments of
	// file tools (offset, limit, ...) fold together.
	Observe uint64
	// Subject identifies the program of a shell call with the operands it
	// works on (arguments that are neither options nor numbers), whatever
	// the options; 0 for other tools.
	Subject uint64
	// Verb names the program or tool that ran: the first command of a shell
	// call that is not cd or sleep, or the tool's name. VerbHash is
	// Hash(Verb).
	Verb     string
	VerbHash uint64

	key   sum128                    // the memo's key of the call
	exact atomic.Pointer[exactText] // the last exact: text written, see ExactTextOf
}

// exactText is an exact: text written with a byte limit.
type exactText struct {
	limit int
	text  string
}

// Limits on what one call contributes, so that a call's fingerprint set stays
// small whatever its size.
const (
	maxURLs      = 16
	maxSinks     = 16
	maxVerbs     = 16
	summaryBytes = 512
)

// Analyzer turns calls into [Analysis] values, remembering recent ones so that
// a repeated call is not analysed twice. The zero Analyzer is not usable:
// create one with [New]. An Analyzer is safe for concurrent use.
type Analyzer struct {
	decoysAll  decoys
	decoysTool map[string]decoys // lower-case tool → its names and the "*" ones
	aliases    map[string]string
	shellTools map[string]bool
	change     map[string]bool
	localAllow bool
	sinkAlways bool
	noKeys     bool
	memo       memo
	tools      toolCache
}

// New compiles opts into an Analyzer.
func New(opts Options) *Analyzer {
	all, byTool := map[string]bool{}, map[string]map[string]bool{}
	a := &Analyzer{
		decoysTool: map[string]decoys{},
		aliases:    map[string]string{},
		shellTools: lowerSet(opts.ShellTools),
		change:     lowerSet(opts.ChangeTools),
		localAllow: opts.LocalAllow,
		sinkAlways: opts.SinkAlways,
		noKeys:     opts.NoKeys,
	}
	for tool, names := range opts.IgnoreArgs {
		if tool == "*" {
			for _, n := range names {
				all[n] = true
			}
			continue
		}
		set := byTool[strings.ToLower(tool)]
		if set == nil {
			set = map[string]bool{}
			byTool[strings.ToLower(tool)] = set
		}
		for _, n := range names {
			set[n] = true
		}
	}
	// A tool's own set holds the "*" names too, so that checking a key
	// takes one lookup.
	a.decoysAll = newDecoys(all)
	for tool, set := range byTool {
		for n := range all {
			set[n] = true
		}
		a.decoysTool[tool] = newDecoys(set)
	}
	for from, to := range opts.HostAliases {
		a.aliases[strings.ToLower(from)] = strings.ToLower(to)
	}
	return a
}

// Fork returns an Analyzer with a's compiled tables (decoys, aliases, tool
// lists) and an empty memo of its own; the switches LocalAllow, SinkAlways
// and NoKeys come from opts, its tables are ignored. Compiling the tables
// takes more time than creating a breaker otherwise does, so a breaker with
// the default tables forks one compiled analyzer.
func (a *Analyzer) Fork(opts Options) *Analyzer {
	return &Analyzer{
		decoysAll:  a.decoysAll,
		decoysTool: a.decoysTool,
		aliases:    a.aliases,
		shellTools: a.shellTools,
		change:     a.change,
		localAllow: opts.LocalAllow,
		sinkAlways: opts.SinkAlways,
		noKeys:     opts.NoKeys,
	}
}

func lowerSet(names []string) map[string]bool {
	set := make(map[string]bool, len(names))
	for _, n := range names {
		set[strings.ToLower(n)] = true
	}
	return set
}

// decoys is the decoy set of one call: the "*" list and the tool's own, and,
// for observation keys, the arguments that choose a position in a file.
type decoys struct {
	set      map[string]bool
	filter   uint64 // the nameBit of every name in set
	position bool
}

func (d *decoys) skip(k string) bool {
	// Most argument names are no decoy, and the filter tells most of them
	// without a map lookup.
	return (d.filter&nameBit(k) != 0 && d.set[k]) || (d.position && positionArgs[strings.ToLower(k)])
}

// nameBit picks one of 64 bits by an argument name's length and its first
// and last bytes.
func nameBit(k string) uint64 {
	if k == "" {
		return 1
	}
	return 1 << ((uint(len(k))*7 + uint(k[0])*3 + uint(k[len(k)-1])) % 64)
}

// newDecoys makes the decoys of a set of names, with its filter.
func newDecoys(set map[string]bool) decoys {
	d := decoys{set: set}
	for name := range set {
		d.filter |= nameBit(name)
	}
	return d
}

// decoysOf returns the decoy set of a tool (lower-case name).
func (a *Analyzer) decoysOf(lower string) decoys {
	if d, ok := a.decoysTool[lower]; ok {
		return d
	}
	return a.decoysAll
}

// Analyze returns the analysis of one call. It never panics on arguments
// that encoding/json produces; arguments of other types are rendered
// defensively. The result is shared and must not be modified.
func (a *Analyzer) Analyze(tool string, args map[string]any) *Analysis {
	t := a.toolOf(tool)
	key := callKey(tool, args, &t.decoys)
	if an := a.memo.get(key); an != nil {
		return an
	}
	an := a.analyze(t, args, key)
	a.memo.put(key, an)
	return an
}

// ExactText returns the exact: fingerprint of a call with at most about
// limit bytes of canonical arguments; a limit of 0 or less means the whole
// text, however long.
func (a *Analyzer) ExactText(tool string, args map[string]any, limit int) string {
	if limit <= 0 {
		limit = normalize.MaxCanonicalBytes
	}
	d := a.decoysOf(toLower(tool))
	return writeExactText(tool, args, d.skip, limit)
}

// ExactTextOf is ExactText for a call whose analysis is an, such as a call
// that is denied again and again: the text is written once per analysis
// and limit, and kept in an.
func (a *Analyzer) ExactTextOf(an *Analysis, tool string, args map[string]any, limit int) string {
	if c := an.exact.Load(); c != nil && c.limit == limit {
		return c.text
	}
	text := a.ExactText(tool, args, limit)
	an.exact.Store(&exactText{limit: limit, text: text})
	return text
}

func writeExactText(tool string, args map[string]any, skip func(string) bool, limit int) string {
	buf := make([]byte, 0, len("exact:")+len(tool)+1+64)
	buf = append(append(append(buf, "exact:"...), tool...), ':')
	return string(normalize.AppendCanonicalLimit(buf, args, skip, limit))
}

func (a *Analyzer) analyze(t *toolFacts, args map[string]any, key sum128) *Analysis {
	tool, lower, class := t.name, t.lower, t.class
	// One allocation holds the analysis and room for its usual prints: a
	// tool that is neither a shell nor a URL tool has only its exact: one.
	var an *Analysis
	var b builder
	if class == Other {
		holder := &struct {
			an     Analysis
			prints [1]Fingerprint
		}{}
		an, b.prints = &holder.an, holder.prints[:0]
	} else {
		holder := &struct {
			an     Analysis
			prints [6]Fingerprint
		}{}
		an, b.prints = &holder.an, holder.prints[:0]
	}
	an.Tool, an.Verb, an.Class, an.key = tool, tool, class, key
	// The exact: text is written only on demand (ExactText): most calls are
	// never quoted, and their arguments can be long.
	b.prints = append(b.prints, Fingerprint{Kind: Exact, Hash: key.a})

	switch class {
	case Shell:
		a.shellPrints(an, &b, lower, args)
	case URLTool:
		a.urlToolPrints(an, &b, args)
	}
	if t.change && !isViewCommand(args) {
		an.Writes = true
	}
	if an.Observe == 0 && !a.noKeys {
		an.Observe = observeOther(tool, args, &t.decoys)
	}
	an.Prints = b.prints
	an.VerbHash = Hash(an.Verb)
	return an
}

// builder collects fingerprints without duplicates.
type builder struct {
	prints []Fingerprint
}

func (b *builder) add(k Kind, text string) {
	b.addPrint(Fingerprint{Kind: k, Text: text, Hash: Hash(text)})
}

// addPrint adds a fingerprint whose hash is already known.
func (b *builder) addPrint(p Fingerprint) {
	for _, q := range b.prints {
		if q.Hash == p.Hash && q.Text == p.Text {
			return
		}
	}
	b.prints = append(b.prints, p)
}

// fetchFamily is the family:http-fetch fingerprint.
var fetchFamily = Fingerprint{Kind: Family, Text: "family:http-fetch", Hash: Hash("family:http-fetch")}

// commonVerbs holds the verb: fingerprints of frequent programs, made once.
var commonVerbs = func() map[string]Fingerprint {
	m := map[string]Fingerprint{}
	for _, v := range strings.Fields(`ls cat grep rg find sed awk head tail wc sort uniq echo printf python python3 pip pip3
		pytest node npm npx yarn pnpm go cargo make mvn gradle java javac git curl wget rm mkdir cp mv touch chmod
		bash sh docker kubectl jq diff patch tee xargs cut tr env open edit create search_file search_dir find_file
		goto scroll_down scroll_up submit`) {
		m[v] = Fingerprint{Kind: Verb, Text: "verb:" + v, Hash: Hash("verb:" + v)}
	}
	return m
}()

// verbPrint returns the verb: fingerprint of a program.
func verbPrint(verb string) Fingerprint {
	if p, ok := commonVerbs[verb]; ok {
		return p
	}
	text := "verb:" + verb
	return Fingerprint{Kind: Verb, Text: text, Hash: Hash(text)}
}

// isURLTool reports whether a tool's lower-case name says it fetches,
// searches or browses.
func isURLTool(lower string) bool {
	return strings.Contains(lower, "fetch") || strings.Contains(lower, "search") ||
		strings.Contains(lower, "browse") || strings.HasPrefix(lower, "web_")
}

// isViewCommand reports whether an editor tool's call only views a file
// (str_replace_editor's "command": "view").
func isViewCommand(args map[string]any) bool {
	c, _ := args["command"].(string)
	return c == "view"
}

func (a *Analyzer) urlToolPrints(an *Analysis, b *builder, args map[string]any) {
	var urls []normalize.URL
	var raw []string
	for _, key := range [...]string{"url", "href", "uri", "urls"} {
		switch v := args[key].(type) {
		case string:
			raw = append(raw, v)
		case []any:
			for _, item := range v {
				if s, ok := item.(string); ok {
					raw = append(raw, s)
				}
			}
		}
	}
	for _, r := range raw {
		if len(urls) == maxURLs {
			break
		}
		if u, ok := normalize.NormalizeURL(r, a.aliases); ok {
			urls = append(urls, u)
		}
	}
	if len(raw) > 0 {
		an.Summary = clip(raw[0])
	}
	an.Fetch = true
	local := a.noteURLs(an, urls)
	if local && a.localAllow {
		return
	}
	a.urlPrints(b, urls)
	b.addPrint(fetchFamily)
}

// noteURLs records the URL facts of a call and reports whether it is local.
func (a *Analyzer) noteURLs(an *Analysis, urls []normalize.URL) bool {
	an.Local = len(urls) > 0
	for _, u := range urls {
		if !u.Local {
			an.Local = false
		}
	}
	return an.Local
}

func (a *Analyzer) urlPrints(b *builder, urls []normalize.URL) {
	for _, u := range urls {
		b.add(Net, u.PrefixedIdentity("net:"))
	}
	for _, u := range urls {
		b.add(Site, "site:"+u.Site)
	}
}

// toLower lower-cases ASCII names without allocating when they already are.
func toLower(s string) string {
	for i := 0; i < len(s); i++ {
		if c := s[i]; c >= 'A' && c <= 'Z' {
			return strings.ToLower(s)
		}
	}
	return s
}

// clip cuts s to at most summaryBytes, on a rune boundary. A short s is
// returned as it is: strings are immutable, and keeping a short one alive
// costs nothing worth a copy.
func clip(s string) string {
	if len(s) <= summaryBytes {
		return s
	}
	cut := summaryBytes
	for cut > 0 && s[cut]&0xC0 == 0x80 {
		cut--
	}
	return s[:cut] + "…"
}
