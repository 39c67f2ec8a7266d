package fingerprint

import (
	"slices"
	"strconv"
	"strings"
	"sync"

	"github.com/loopbreaker/loopbreaker/normalize"
)

// IsFetchVerb reports whether a program is an HTTP client, whose calls
// belong to family:http-fetch.
func IsFetchVerb(verb string) bool {
	switch verb {
	case "curl", "wget", "http", "https", "httpie", "xh", "xhs", "aria2c":
		return true
	}
	return false
}

// isNavigation reports whether a command only moves around or waits (or
// only assigns variables). Such commands are left out of verb: fingerprints
// and of observation keys, whose answers already tell whether the directory
// mattered.
func isNavigation(verb string) bool {
	switch verb {
	case "cd", "pushd", "popd", "sleep", "":
		return true
	}
	return false
}

// IsWait reports whether a command only waits (or only assigns variables);
// cmd: fingerprints leave such commands out (unless a line has nothing
// else), so that "sleep 30 && x" and "sleep 60 && x" are one action.
func IsWait(verb string) bool { return verb == "sleep" || verb == "" }

// shellScratch is the memory shellPrints reuses from one call to the next:
// nothing it keeps in an analysis points into it.
type shellScratch struct {
	parser normalize.ShellParser
	words  []string // the arguments of commands stripped of volatile flags
	text   []byte   // the cmd: text being written
}

// maxScratchWords and maxScratchText bound the memory a shellScratch keeps.
const (
	maxScratchWords = 1024
	maxScratchText  = 4096
)

var shellScratches = sync.Pool{New: func() any { return new(shellScratch) }}

func (a *Analyzer) shellPrints(an *Analysis, b *builder, lower string, args map[string]any) {
	scratch := shellScratches.Get().(*shellScratch)
	defer func() {
		scratch.words = scratch.words[:0]
		if cap(scratch.words) > maxScratchWords {
			scratch.words = nil
		}
		if cap(scratch.text) > maxScratchText {
			scratch.text = nil
		}
		shellScratches.Put(scratch)
	}()
	sh, raw, ok := parseCommand(&scratch.parser, lower, firstOf(args, "command", "cmd"))
	if !ok {
		return
	}
	an.Summary = clip(raw)

	found := normalize.ExtractURLs(raw)
	var settings map[string]bool
	if !a.sinkAlways && len(found) > 0 {
		settings = settingURLs(sh)
	}
	var urls []normalize.URL
	for _, r := range found {
		if len(urls) == maxURLs {
			break
		}
		if settings[r] {
			continue
		}
		if u, ok := normalize.NormalizeURL(r, a.aliases); ok {
			urls = append(urls, u)
		}
	}
	fetchVerb := false
	for _, c := range sh.Commands {
		if IsFetchVerb(c.Verb) {
			fetchVerb = true
		}
		if writesFiles(c) {
			an.Writes = true
		}
	}
	if len(sh.Sinks) > 0 {
		an.Writes = true
	}
	an.Fetch = fetchVerb || len(urls) > 0

	var strippedBuf [8][]string
	stripped := strippedBuf[:0]
	for _, c := range sh.Commands {
		// Commands without volatile flags share their words: nothing here
		// modifies them.
		start := len(scratch.words)
		if words, ok := normalize.AppendStripVolatile(scratch.words, c.Verb, c.Args); ok {
			scratch.words = words
			stripped = append(stripped, words[start:len(words):len(words)])
		} else {
			stripped = append(stripped, c.Args)
		}
	}
	scratch.text = appendCommandText(append(scratch.text[:0], "cmd:"...), sh, stripped, raw)
	if len(scratch.text) > len("cmd:") {
		b.add(Cmd, string(scratch.text))
	}
	if !a.noKeys {
		an.Observe = observeShell(sh, stripped)
	}
	for i, c := range sh.Commands {
		if !isNavigation(c.Verb) {
			an.Verb = c.Verb
			if !a.noKeys {
				an.Subject = subject(c.Verb, stripped[i])
			}
			break
		}
	}
	local := a.noteURLs(an, urls)
	if local && a.localAllow {
		return
	}
	a.urlPrints(b, urls)
	if a.sinkAlways || an.Fetch {
		for i, s := range sh.Sinks {
			if i == maxSinks {
				break
			}
			b.add(Sink, "sink:"+s)
		}
	}
	if fetchVerb {
		b.addPrint(fetchFamily)
	}
	verbs := 0
	for _, c := range sh.Commands {
		if isNavigation(c.Verb) || verbs == maxVerbs {
			continue
		}
		verbs++
		b.addPrint(verbPrint(c.Verb))
	}
}

// settingURLs returns the URLs that commands other than HTTP clients take
// as option values, such as pip's --index-url or npm's --registry: they
// configure where a tool looks, not what it fetches, so they are not
// counted as net: resources. Only a value that is itself a URL counts; a
// URL inside a longer value (python -c "urlopen('https://...')") is what
// that code fetches.
func settingURLs(sh normalize.Shell) map[string]bool {
	var out map[string]bool
	for _, c := range sh.Commands {
		if IsFetchVerb(c.Verb) {
			continue
		}
		for i, w := range c.Args {
			value := ""
			if strings.HasPrefix(w, "-") {
				if eq := strings.IndexByte(w, '='); eq > 0 {
					value = w[eq+1:]
				}
			} else if i > 0 && strings.HasPrefix(c.Args[i-1], "-") && !strings.Contains(c.Args[i-1], "=") {
				value = w
			}
			if !isURLWord(value) {
				continue
			}
			if out == nil {
				out = map[string]bool{}
			}
			for _, u := range normalize.ExtractURLs(value) {
				out[u] = true
			}
		}
	}
	return out
}

// isURLWord reports whether a word is one http(s) URL and nothing else.
func isURLWord(w string) bool {
	if len(w) < len("http://") || w[0]|0x20 != 'h' {
		return false
	}
	return (strings.EqualFold(w[:len("http://")], "http://") ||
		len(w) >= len("https://") && strings.EqualFold(w[:len("https://")], "https://")) &&
		!strings.ContainsAny(w, " \t\n'\"")
}

// ParseCommand parses the command argument of a shell tool the way the
// analyzer does: a string as a shell command line (PowerShell tools, and the
// multi-line edit commands of agent-computer interfaces, split into plain
// words instead), an argv array of strings as one command. raw is the
// command's text. ok is false when the argument is neither.
func ParseCommand(tool string, command any) (sh normalize.Shell, raw string, ok bool) {
	var p normalize.ShellParser
	return parseCommand(&p, tool, command)
}

// parseCommand is ParseCommand with a parser's memory: sh is valid until
// p's next call.
func parseCommand(p *normalize.ShellParser, tool string, command any) (sh normalize.Shell, raw string, ok bool) {
	switch c := command.(type) {
	case string:
		switch lower := toLower(tool); {
		case lower == "pwsh" || lower == "powershell":
			return p.ParsePlain(c), c, true
		case IsInterfaceEdit(c):
			// The first line is the call; the rest is a text block, which
			// goes into cmd: as a hash, like a here-document.
			first, _, _ := strings.Cut(c, "\n")
			return p.ParsePlain(first), c, true
		}
		return p.Parse(c), c, true
	case []any:
		argv := make([]string, 0, len(c))
		for _, w := range c {
			if s, ok := w.(string); ok {
				argv = append(argv, s)
			}
		}
		return normalize.ParseArgv(argv), strings.Join(argv, " "), true
	}
	return normalize.Shell{}, "", false
}

// BlockHash hashes a command line that carries a text block (a here-document
// or an edit block) line by line, each line without its leading and trailing
// white space and blank lines left out, so that a block re-sent with other
// indentation, trailing spaces or blank lines is the same action.
func BlockHash(raw string) uint64 {
	var h hasher
	h.init(seedA, seedB^0x626c6f636b)
	for raw != "" {
		line := raw
		if i := strings.IndexByte(raw, '\n'); i >= 0 {
			line, raw = raw[:i], raw[i+1:]
		} else {
			raw = ""
		}
		if line = strings.TrimSpace(line); line != "" {
			h.str(line)
		}
	}
	return h.sum().a
}

// IsInterfaceEdit reports whether a command is a multi-line edit command of
// an agent-computer interface run through the shell tool (SWE-agent's
// "edit 10:12\n<text>\nend_of_edit", "insert", "append"): its text block is
// not shell and would only make the parser fail slowly.
func IsInterfaceEdit(c string) bool {
	var rest string
	switch {
	case strings.HasPrefix(c, "edit "):
		rest = c[len("edit "):]
	case strings.HasPrefix(c, "insert "):
		rest = c[len("insert "):]
	case strings.HasPrefix(c, "append "):
		rest = c[len("append "):]
	default:
		return false
	}
	return strings.IndexByte(rest, '\n') >= 0
}

func firstOf(args map[string]any, keys ...string) any {
	for _, k := range keys {
		if v, ok := args[k]; ok {
			return v
		}
	}
	return nil
}

// CommandText renders a parsed shell line (raw is its text) the way cmd:
// fingerprints show it: waits left out, wrappers and volatile flags removed,
// words quoted where they need it, the output files of redirections added,
// and a here-document or edit block as the hash of the whole line.
func CommandText(sh normalize.Shell, raw string) string {
	stripped := make([][]string, len(sh.Commands))
	for i, c := range sh.Commands {
		stripped[i] = normalize.StripVolatile(c.Verb, c.Args)
	}
	return string(appendCommandText(nil, sh, stripped, raw))
}

// appendCommandText appends CommandText to dst, with each command's
// arguments already stripped of volatile flags.
func appendCommandText(dst []byte, sh normalize.Shell, stripped [][]string, raw string) []byte {
	var keepBuf [16]int
	keep := keepBuf[:0]
	for i, c := range sh.Commands {
		if !IsWait(c.Verb) {
			keep = append(keep, i)
		}
	}
	if len(keep) == 0 {
		for i := range sh.Commands {
			keep = append(keep, i)
		}
	}
	for n, i := range keep {
		if n > 0 {
			dst = append(dst, " ; "...)
		}
		dst = append(dst, sh.Commands[i].Verb...)
		for _, w := range stripped[i] {
			dst = appendWord(append(dst, ' '), w)
		}
	}
	// Output files named by redirects are part of the action (an option
	// such as curl's -o is already among the words), and so are the files
	// read through "<" and the body of a here-document, which the commands
	// above do not show.
	for _, s := range sh.Sinks {
		if !slices.ContainsFunc(keep, func(i int) bool { return slices.Contains(sh.Commands[i].Args, s) }) {
			dst = appendWord(append(dst, " >"...), s)
		}
	}
	for _, in := range sh.Inputs {
		dst = appendWord(append(dst, " <"...), in)
	}
	if strings.Contains(raw, "<<") || IsInterfaceEdit(raw) {
		dst = strconv.AppendUint(append(dst, " <<#"...), BlockHash(raw), 16)
	}
	return dst
}

// appendWord appends w, single-quoted when it is empty or holds characters a
// shell would split or expand.
func appendWord(dst []byte, w string) []byte {
	if w != "" && !needsQuotes(w) {
		return append(dst, w...)
	}
	dst = append(dst, '\'')
	for {
		i := strings.IndexByte(w, '\'')
		if i < 0 {
			break
		}
		dst = append(append(dst, w[:i]...), `'\''`...)
		w = w[i+1:]
	}
	return append(append(dst, w...), '\'')
}

// shellSpecial marks the bytes a shell would split on or expand.
var shellSpecial = func() (t [256]bool) {
	for _, c := range []byte(" \t\n'\"\\;&|<>()$`*?[]{}#~") {
		t[c] = true
	}
	return t
}()

func needsQuotes(w string) bool {
	for i := 0; i < len(w); i++ {
		if shellSpecial[w[i]] {
			return true
		}
	}
	return false
}

// writesFiles reports whether a command changes files in place.
func writesFiles(c normalize.SimpleCommand) bool {
	switch c.Verb {
	case "mv", "cp", "touch", "chmod", "chown", "ln", "install", "rsync",
		"unzip", "truncate", "dd", "patch", "tee":
		return true
	case "edit", "create", "insert", "append", "str_replace", "apply_patch":
		// The file-editing commands of agent computer interfaces that run
		// through the shell tool (SWE-agent and its kin).
		return true
	case "sed", "perl":
		for _, w := range c.Args {
			if w == "-i" || strings.HasPrefix(w, "-i") && c.Verb == "sed" || strings.HasPrefix(w, "--in-place") || (c.Verb == "perl" && strings.HasPrefix(w, "-pi")) {
				return true
			}
		}
	case "git":
		if sub := firstArg(c.Args); sub != "" {
			switch sub {
			case "apply", "am", "checkout", "commit", "merge", "rebase", "reset", "restore",
				"revert", "stash", "cherry-pick", "switch", "pull", "rm", "mv", "add", "clean", "init", "clone":
				return true
			}
		}
	case "pip", "pip3", "npm", "pnpm", "yarn", "go", "cargo", "apt", "apt-get", "uv", "poetry", "bundle", "gem":
		switch firstArg(c.Args) {
		case "install", "i", "ci", "add", "uninstall", "remove", "get", "update", "upgrade", "sync":
			return true
		}
	}
	return false
}

// firstArg returns the first argument that is not an option.
func firstArg(args []string) string {
	for _, w := range args {
		if !strings.HasPrefix(w, "-") {
			return w
		}
	}
	return ""
}
