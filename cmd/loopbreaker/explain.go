package main

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"path"
	"slices"
	"sort"
	"strings"

	"github.com/loopbreaker/loopbreaker"
	"github.com/loopbreaker/loopbreaker/fingerprint"
	"github.com/loopbreaker/loopbreaker/normalize"
)

// explainUsage is the help text of explain.
const explainUsage = `Usage: loopbreaker explain [-config FILE] TOOL 'ARGS_JSON'

Prints the fingerprints the breaker counts for one call of TOOL with the
JSON object ARGS_JSON as arguments, each with its limit and with what the
normalisation did to produce it: the decoy arguments removed, the wrappers,
assignments, waits and volatile flags left out of the command, the output
files and here-documents kept in it, the URLs folded (host aliases
applied), where each output file was found, and the commands and fetches
the call makes.

Only what the call itself carries is shown: the rules that read recorded
results (fail:, stale: and cycle: hits) depend on the calls before it.

Flags:
  -config FILE  a JSON configuration (see check-config); default: the
                library's defaults
`

// effective is the part of the effective configuration that explain reads,
// decoded from loopbreaker.Config.JSON (defaults applied, Off as null).
type effective struct {
	Limits      map[string]*int     `json:"limits"`
	LocalHosts  string              `json:"localHosts"`
	IgnoreArgs  map[string][]string `json:"ignoreArgs"`
	HostAliases map[string]string   `json:"hostAliases"`
	ShellTools  []string            `json:"shellTools"`
	Strict      bool                `json:"strict"`
}

// runExplain is the explain command.
func runExplain(args []string, stdout, stderr io.Writer) int {
	fs := newFlagSet("explain", explainUsage, stderr)
	configPath := fs.String("config", "", "JSON configuration `FILE`")
	if code, done := parseFlags(fs, explainUsage, args, stdout); done {
		return code
	}
	var argsJSON string
	switch fs.NArg() {
	case 0:
		return usageError(stderr, "explain", explainUsage, "no tool given")
	case 1:
	case 2:
		argsJSON = fs.Arg(1)
	default:
		return usageError(stderr, "explain", explainUsage, "want TOOL and ARGS_JSON, got %d arguments", fs.NArg())
	}
	call, err := loopbreaker.ParseCall(fs.Arg(0), []byte(argsJSON))
	if err != nil {
		return usageError(stderr, "explain", explainUsage, "%s", strings.TrimPrefix(err.Error(), "loopbreaker: "))
	}
	cfg, ok := loadConfig(*configPath, stderr)
	if !ok {
		return exitError
	}
	b, err := loopbreaker.New(cfg)
	if err != nil {
		printErrors(stderr, *configPath, err)
		return exitError
	}
	var eff effective
	raw, err := cfg.JSON()
	if err == nil {
		err = json.Unmarshal(raw, &eff)
	}
	if err != nil {
		printErrors(stderr, *configPath, err)
		return exitError
	}

	var out bytes.Buffer
	explain(&out, b, eff, call)
	if _, err := stdout.Write(out.Bytes()); err != nil {
		printErrors(stderr, "", err)
		return exitError
	}
	return exitOK
}

// explanation collects, per fingerprint, the lines that say where it came
// from, and notes about the call as a whole.
type explanation struct {
	head  []string
	why   map[string][]string
	notes []string
}

// add adds a line to the explanation of the fingerprint fp.
func (e *explanation) add(fp, format string, args ...any) {
	e.why[fp] = append(e.why[fp], fmt.Sprintf(format, args...))
}

// note adds a note about the call as a whole.
func (e *explanation) note(format string, args ...any) {
	e.notes = append(e.notes, fmt.Sprintf(format, args...))
}

// explain writes the explanation of call to w.
func explain(w io.Writer, b *loopbreaker.Breaker, eff effective, call loopbreaker.Call) {
	fps := b.Fingerprints(call)
	if fps == nil {
		fmt.Fprintf(w, "%s is not tracked (Exclude or Include): its calls are never counted.\n", call.Tool)
		return
	}
	e := &explanation{why: map[string][]string{}}
	explainDecoys(e, fps[0], eff, call)

	var urls []string
	switch {
	case eff.isShell(call.Tool):
		urls = explainShell(e, fps, eff, call)
	case isURLTool(call.Tool):
		e.head = append(e.head, call.Tool+" is a URL tool: it fetches its url, href, uri or urls argument.")
		urls = urlArgs(call.Args)
		for _, fp := range fps {
			if fp == "family:http-fetch" {
				e.add(fp, "%s fetches over HTTP", call.Tool)
			}
		}
	default:
		e.head = append(e.head, call.Tool+" is neither a shell tool nor a URL tool: it is counted by its exact: fingerprint alone.")
	}
	explainURLs(e, fps, eff, urls)

	for _, h := range e.head {
		fmt.Fprintln(w, h)
	}
	fmt.Fprintln(w)
	for _, fp := range fps {
		fmt.Fprintln(w, fp)
		fmt.Fprintf(w, "    %s\n", eff.limitText(fp))
		for _, line := range e.why[fp] {
			fmt.Fprintf(w, "    %s\n", line)
		}
	}
	if len(e.notes) > 0 {
		fmt.Fprintln(w)
		for _, n := range e.notes {
			fmt.Fprintln(w, "note: "+n)
		}
	}
}

// explainDecoys says which arguments the exact: fingerprint left out.
func explainDecoys(e *explanation, exact string, eff effective, call loopbreaker.Call) {
	lower := strings.ToLower(call.Tool)
	decoy := map[string]bool{}
	for tool, names := range eff.IgnoreArgs {
		if tool == "*" || strings.ToLower(tool) == lower {
			for _, n := range names {
				decoy[n] = true
			}
		}
	}
	var removed []string
	for name := range call.Args {
		if decoy[name] {
			removed = append(removed, name)
		}
	}
	sort.Strings(removed)
	if len(removed) > 0 {
		e.add(exact, "decoys removed: %s (ignoreArgs)", strings.Join(removed, ", "))
	} else {
		e.add(exact, "no decoy argument to remove")
	}
	e.add(exact, "arguments as canonical JSON: keys sorted, spacing dropped")
}

// explainShell explains the fingerprints of a shell tool's call and returns
// the URLs its command mentions.
func explainShell(e *explanation, fps []string, eff effective, call loopbreaker.Call) []string {
	var sh normalize.Shell
	var raw string
	var segs [][]string
	key := "command"
	if _, ok := call.Args["command"]; !ok {
		key = "cmd"
	}
	sh, raw, ok := fingerprint.ParseCommand(call.Tool, call.Args[key])
	switch c := call.Args[key].(type) {
	case string:
		if fingerprint.IsInterfaceEdit(c) {
			first, _, _ := strings.Cut(c, "\n")
			segs = splitSegments(first, 0)
		} else {
			segs = splitSegments(c, 0)
		}
	case []any:
		var argv []string
		for _, w := range c {
			if s, ok := w.(string); ok {
				argv = append(argv, s)
			}
		}
		segs = expandPayloads([][]string{argv}, 0)
	}
	switch {
	case ok:
	default:
		e.head = append(e.head, fmt.Sprintf("%s is a shell tool, but its call has no \"command\" or \"cmd\" string or list: only exact: is counted.", call.Tool))
		return nil
	}

	verbs := make([]string, len(sh.Commands))
	for i, c := range sh.Commands {
		verbs[i] = c.Verb
		if c.Verb == "" {
			verbs[i] = "(assignments only)"
		}
	}
	e.head = append(e.head, fmt.Sprintf("%s is a shell tool: its %s parses into %d simple command(s): %s.", call.Tool, key, len(sh.Commands), strings.Join(verbs, ", ")))
	if !sh.Parsed {
		e.note("the command did not parse as bash (or is PowerShell): it was split into words plainly")
	}
	if payload := payloadShells(segs); len(payload) > 0 {
		e.note("shell -c payloads parsed in place of their shell: %s", strings.Join(payload, "; "))
	}

	for _, fp := range fps {
		switch {
		case strings.HasPrefix(fp, "cmd:"):
			explainCmd(e, fp, sh, segs, raw)
		case strings.HasPrefix(fp, "sink:"):
			e.add(fp, "%s", sinkSource(strings.TrimPrefix(fp, "sink:"), sh, raw))
		case fp == "family:http-fetch":
			e.add(fp, "the command runs an HTTP client (%s)", strings.Join(fetchVerbsOf(sh), ", "))
		case strings.HasPrefix(fp, "verb:"):
			e.add(fp, "the name of a command it runs, without wrappers or directory")
		}
	}
	urls := normalize.ExtractURLs(raw)
	for _, s := range sh.Sinks {
		switch {
		case slices.Contains(fps, "sink:"+s):
		case eff.LocalHosts == "allow" && allLocal(urls, eff):
			e.note("output file %s has no sink: fingerprint: the call is local, and localHosts \"allow\" drops its targets", s)
		case !eff.Strict:
			e.note("output file %s has no sink: fingerprint: only commands that fetch count their output files (strict counts every one)", s)
		default:
			e.note("output file %s has no sink: fingerprint (a call counts at most 16 output files)", s)
		}
	}
	return urls
}

// explainCmd explains a cmd: fingerprint: the commands it renders, what was
// removed from each, which were left out, and what stands for the output
// files and here-documents. It checks that its account renders to the
// fingerprint, and says so when it does not.
func explainCmd(e *explanation, fp string, sh normalize.Shell, segs [][]string, raw string) {
	var kept, left []normalize.SimpleCommand
	for _, c := range sh.Commands {
		if fingerprint.IsWait(c.Verb) {
			left = append(left, c)
		} else {
			kept = append(kept, c)
		}
	}
	if len(kept) == 0 {
		kept, left = sh.Commands, nil
	}
	if render(kept, sh.Sinks, sh.Inputs, raw) != strings.TrimPrefix(fp, "cmd:") {
		e.add(fp, "(this account does not reproduce the fingerprint exactly; it may be incomplete)")
	}
	for _, c := range left {
		if c.Verb == "" {
			e.add(fp, "left out: a command of assignments only")
		} else {
			e.add(fp, "left out: %s (waits are not part of cmd:)", strings.TrimSpace(c.Verb+" "+strings.Join(c.Args, " ")))
		}
	}
	prefixes := wrapperPrefixes(sh.Commands, segs)
	for i, c := range sh.Commands {
		if fingerprint.IsWait(c.Verb) && len(left) > 0 {
			continue
		}
		if p := prefixes[i]; p != "" {
			e.add(fp, "wrappers and assignments removed before %s: %s", c.Verb, p)
		}
		if removed := strippedWords(c.Args, normalize.StripVolatile(c.Verb, c.Args)); len(removed) > 0 {
			e.add(fp, "volatile flags stripped from %s: %s", c.Verb, strings.Join(removed, " "))
		}
	}
	if len(kept) > 1 {
		e.add(fp, "%d commands joined with \" ; \"", len(kept))
	}
	if files := redirected(kept, sh.Sinks); len(files) > 0 {
		e.add(fp, "output files of redirections added: >%s", strings.Join(files, " >"))
	}
	if len(sh.Inputs) > 0 {
		e.add(fp, "input files of redirections added: <%s", strings.Join(sh.Inputs, " <"))
	}
	switch {
	case strings.Contains(raw, "<<"):
		e.add(fp, "here-document: the whole command line stands as its hash (indentation and blank lines ignored), <<#%x", fingerprint.BlockHash(raw))
	case fingerprint.IsInterfaceEdit(raw):
		e.add(fp, "edit block: only its first line is parsed; the whole command stands as its hash (indentation and blank lines ignored), <<#%x", fingerprint.BlockHash(raw))
	}
}

// redirected returns the output files that no kept command names among its
// words: those a redirection or tee names, which cmd: adds after the
// commands.
func redirected(kept []normalize.SimpleCommand, sinks []string) []string {
	var out []string
	for _, s := range sinks {
		if !slices.ContainsFunc(kept, func(c normalize.SimpleCommand) bool { return slices.Contains(c.Args, s) }) {
			out = append(out, s)
		}
	}
	return out
}

// render writes commands the way cmd: fingerprints show them, so that
// explainCmd can check its account against the fingerprint.
func render(cmds []normalize.SimpleCommand, sinks, inputs []string, raw string) string {
	return fingerprint.CommandText(normalize.Shell{Commands: cmds, Sinks: sinks, Inputs: inputs}, raw)
}

// strippedWords returns the words of args that StripVolatile did not keep;
// an option cluster that only lost some letters is shown as "-sSLo → -o".
func strippedWords(args, kept []string) []string {
	var removed []string
	j := 0
	for i, a := range args {
		switch {
		case j < len(kept) && a == kept[j]:
			j++
		case j < len(kept) && isCluster(a) && isCluster(kept[j]) && lettersWithin(kept[j], a) &&
			(i+1 >= len(args) || args[i+1] != kept[j]):
			removed = append(removed, a+" → "+kept[j])
			j++
		default:
			removed = append(removed, a)
		}
	}
	return removed
}

// isCluster reports whether w is a cluster of short options (-sSL), not a
// long option or a lone dash.
func isCluster(w string) bool { return len(w) > 1 && w[0] == '-' && w[1] != '-' }

// lettersWithin reports whether every letter of the cluster small is in big.
func lettersWithin(small, big string) bool {
	for _, r := range small[1:] {
		if !strings.ContainsRune(big[1:], r) {
			return false
		}
	}
	return true
}

// sinkSource says where a command's output file was found.
func sinkSource(sink string, sh normalize.Shell, raw string) string {
	for _, c := range sh.Commands {
		var short byte
		var long string
		switch c.Verb {
		case "curl":
			short, long = 'o', "--output"
		case "wget":
			short, long = 'O', "--output-document"
		case "tee":
			for _, a := range c.Args {
				if !strings.HasPrefix(a, "-") && sameFile(a, sink) {
					return "file written by tee " + a
				}
			}
			continue
		default:
			continue
		}
		for i, a := range c.Args {
			next := ""
			if i+1 < len(c.Args) {
				next = c.Args[i+1]
			}
			switch {
			case a == long && sameFile(next, sink):
				return fmt.Sprintf("output file of %s %s %s", c.Verb, a, next)
			case strings.HasPrefix(a, long+"=") && sameFile(a[len(long)+1:], sink):
				return fmt.Sprintf("output file of %s %s", c.Verb, a)
			case isCluster(a):
				// -o FILE, -sSo FILE or -oFILE: the letter takes the rest
				// of the cluster, or the next word.
				k := strings.IndexByte(a[1:], short)
				if k < 0 {
					continue
				}
				if rest := a[k+2:]; rest != "" && sameFile(rest, sink) {
					return fmt.Sprintf("output file of %s %s", c.Verb, a)
				} else if rest == "" && sameFile(next, sink) {
					return fmt.Sprintf("output file of %s %s %s", c.Verb, a, next)
				}
			}
		}
	}
	if strings.Contains(raw, ">") {
		return "target of an output redirection (>, >>, 2>, &>)"
	}
	return "a file the command writes"
}

// sameFile reports whether a word names the cleaned sink path.
func sameFile(word, sink string) bool {
	return word == sink || path.Clean(word) == sink
}

// fetchVerbsOf names the HTTP clients a parsed command line runs.
func fetchVerbsOf(sh normalize.Shell) []string {
	var out []string
	for _, v := range sh.Verbs() {
		if fingerprint.IsFetchVerb(v) {
			out = append(out, v)
		}
	}
	if len(out) == 0 {
		out = []string{"an HTTP client"}
	}
	return out
}

// explainURLs explains the net: and site: fingerprints from the raw URLs a
// call mentions.
func explainURLs(e *explanation, fps []string, eff effective, raws []string) {
	for _, r := range raws {
		u, ok := normalize.NormalizeURL(r, eff.HostAliases)
		if !ok {
			continue
		}
		net, site := "net:"+u.Identity(), "site:"+u.Site
		if slices.Contains(fps, net) {
			e.add(net, "URL normalised: %s → %s", r, u.Identity())
			if plain, ok := normalize.NormalizeURL(r, nil); ok && plain.Host != u.Host {
				e.add(net, "host folded: %s → %s (hostAliases)", plain.Host, u.Host)
			}
		}
		if slices.Contains(fps, site) {
			line := "registrable domain of " + u.Host
			if !slices.Contains(e.why[site], line) {
				e.add(site, "%s", line)
			}
		}
	}
	if allLocal(raws, eff) {
		switch eff.LocalHosts {
		case "allow":
			e.note("every URL is local: with localHosts \"allow\" its targets are not fingerprinted")
		case "ask":
			e.note("every URL is local: a denial caused by its targets alone asks the operator first (localHosts \"ask\")")
		}
	}
}

// allLocal reports whether the raw URLs hold at least one URL and every URL
// is local, which is when the breaker treats a call as local.
func allLocal(raws []string, eff effective) bool {
	n := 0
	for _, r := range raws {
		u, ok := normalize.NormalizeURL(r, eff.HostAliases)
		if !ok {
			continue
		}
		if !u.Local {
			return false
		}
		n++
	}
	return n > 0
}

// urlArgs returns the URL arguments of a URL tool's call.
func urlArgs(args map[string]any) []string {
	var out []string
	for _, k := range []string{"url", "href", "uri", "urls"} {
		switch v := args[k].(type) {
		case string:
			out = append(out, v)
		case []any:
			for _, item := range v {
				if s, ok := item.(string); ok {
					out = append(out, s)
				}
			}
		}
	}
	return out
}

// isURLTool reports whether the breaker treats a tool as fetching URLs: its
// name contains fetch, search or browse, or starts with web_.
func isURLTool(tool string) bool {
	l := strings.ToLower(tool)
	return strings.Contains(l, "fetch") || strings.Contains(l, "search") ||
		strings.Contains(l, "browse") || strings.HasPrefix(l, "web_")
}

// isShell reports whether the configuration lists tool as a shell tool,
// matched without regard to case as the breaker matches it.
func (eff effective) isShell(tool string) bool {
	for _, t := range eff.ShellTools {
		if strings.EqualFold(t, tool) {
			return true
		}
	}
	return false
}

// limitText says how a fingerprint is capped: its own limit, else its
// kind's.
func (eff effective) limitText(fp string) string {
	kind, _, _ := strings.Cut(fp, ":")
	l, ok := eff.Limits[fp]
	if !ok {
		l, ok = eff.Limits[kind]
	}
	if !ok || l == nil {
		return "not capped: it never denies a call"
	}
	return fmt.Sprintf("limit %d", *l)
}

// splitSegments splits a command line into the words of its simple
// commands, separated by unquoted ; & | and newlines, with quotes removed.
// It knows nothing else of the shell's grammar: it only serves to find the
// words in front of each parsed command's verb. Shell -c payloads are split
// in place of their shell.
func splitSegments(s string, depth int) [][]string {
	var segs [][]string
	var words []string
	var cur strings.Builder
	inWord := false
	endWord := func() {
		if inWord {
			words = append(words, cur.String())
			cur.Reset()
			inWord = false
		}
	}
	endSeg := func() {
		endWord()
		if len(words) > 0 {
			segs = append(segs, words)
			words = nil
		}
	}
	for i := 0; i < len(s); i++ {
		switch c := s[i]; c {
		case ' ', '\t':
			endWord()
		case ';', '&', '|', '\n':
			endSeg()
		case '\\':
			inWord = true
			if i+1 < len(s) {
				i++
				cur.WriteByte(s[i])
			}
		case '\'', '"':
			inWord = true
			j := i + 1
			for j < len(s) && s[j] != c {
				if c == '"' && s[j] == '\\' && j+1 < len(s) {
					j++
				}
				cur.WriteByte(s[j])
				j++
			}
			i = j
		default:
			inWord = true
			cur.WriteByte(c)
		}
	}
	endSeg()
	return expandPayloads(segs, depth)
}

// expandPayloads replaces each `bash -c PAYLOAD` segment by the segments of
// its payload, as the parser does, up to a few levels deep.
func expandPayloads(segs [][]string, depth int) [][]string {
	var out [][]string
	for _, w := range segs {
		if p, ok := normalize.ShellPayload(w); ok && depth < 4 {
			out = append(out, []string{payloadMark, strings.Join(w[:len(w)-1], " ")})
			out = append(out, splitSegments(p, depth+1)...)
			continue
		}
		out = append(out, w)
	}
	return out
}

// payloadMark starts the pseudo-segment that records a shell whose -c
// payload was split in its place.
const payloadMark = "\x00payload"

// payloadShells lists the shells whose payloads splitSegments expanded.
func payloadShells(segs [][]string) []string {
	var out []string
	for _, w := range segs {
		if len(w) == 2 && w[0] == payloadMark {
			out = append(out, w[1])
		}
	}
	return out
}

// wrapperPrefixes finds, for each parsed command, the words that stood in
// front of its verb in the command line (wrappers with their options, and
// NAME=value assignments), or "" when there were none or they cannot be
// told. Segments are matched to commands in order; a segment counts only
// when it starts with the verb itself, an assignment or a known wrapper.
func wrapperPrefixes(cmds []normalize.SimpleCommand, segs [][]string) []string {
	out := make([]string, len(cmds))
	next := 0
	for i, c := range cmds {
		if c.Verb == "" {
			continue
		}
		for s := next; s < len(segs); s++ {
			w := segs[s]
			if w[0] == payloadMark {
				continue
			}
			if base(w[0]) == c.Verb {
				next = s + 1
				break
			}
			if !isAssignment(w[0]) && !normalize.IsWrapper(base(w[0])) {
				continue
			}
			k := slices.IndexFunc(w, func(x string) bool { return base(x) == c.Verb })
			if k > 0 {
				out[i] = strings.Join(w[:k], " ")
				next = s + 1
				break
			}
		}
	}
	return out
}

// isAssignment reports whether w is a NAME=value word.
func isAssignment(w string) bool {
	name, _, ok := strings.Cut(w, "=")
	if !ok || name == "" {
		return false
	}
	for i, r := range name {
		if r != '_' && (r < 'a' || r > 'z') && (r < 'A' || r > 'Z') && (i == 0 || r < '0' || r > '9') {
			return false
		}
	}
	return true
}

// base returns the last element of a command word ("/usr/bin/curl" gives
// "curl").
func base(w string) string {
	w = strings.TrimRight(w, "/")
	if i := strings.LastIndexByte(w, '/'); i >= 0 {
		return w[i+1:]
	}
	return w
}
