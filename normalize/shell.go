package normalize

import (
	"path"
	"strconv"
	"strings"
	"sync"
	"unicode/utf8"

	"mvdan.cc/sh/v3/syntax"
)

// Shell is the parsed form of one shell command line: the simple commands it
// runs and the files it writes to.
//
// The zero value is an empty command line (no commands, no sinks) that was
// not parsed.
type Shell struct {
	// Commands holds every simple command in order of appearance: each part
	// of a pipeline or &&/|| list, the commands of subshells, { } groups,
	// if/while/for/case bodies and function bodies, commands run by $( ),
	// backquotes and <( ), and the commands inside `bash -c '...'` (and sh,
	// zsh, dash, ksh) payloads, which are parsed in place of the shell that
	// runs them. At most 256 entries are kept.
	Commands []SimpleCommand
	// Sinks lists the files written by the command line, cleaned, without
	// repeats, in order of appearance: redirection targets (> f, >> f,
	// 2> f, &> f), the files of tee, and the output files of curl (-o) and
	// wget (-O). Generic sinks such as /dev/null are left out (see
	// IsGenericSink). At most 64 entries are kept.
	Sinks []string
	// Inputs lists the files read through input redirections (< f),
	// cleaned, without repeats, in order of appearance; at most 64. They
	// are part of what a command asks: "wc -l < a" and "wc -l < b" are two
	// questions.
	Inputs []string
	// Parsed is false when some text could not be parsed as shell and was
	// split into words by the plain fallback (see ParsePlain) instead.
	Parsed bool
}

// SimpleCommand is one command after its wrappers (sudo, env, timeout, nohup,
// nice, ionice, time, command, exec, stdbuf) and leading NAME=value
// assignments are removed.
//
// The zero value is a command made of assignments only.
type SimpleCommand struct {
	// Verb is the base name of the command word ("/usr/bin/curl" becomes
	// "curl"). It is "" when the command had only assignments or its
	// command word has no name (such as "" or "/").
	Verb string
	// Args holds the remaining words, rendered as the command would receive
	// them (quotes removed, escapes resolved, expansions kept as text), in
	// order, volatile flags included (see StripVolatile).
	Args []string
}

// Limits that keep the cost of one call bounded whatever the input.
const (
	shellMaxInput        = 64 << 10 // longer text is split plainly, not parsed
	shellMaxCommands     = 256
	shellMaxSinks        = 64
	shellMaxPayloadDepth = 4   // bash -c 'bash -c ...' levels parsed
	shellMaxNesting      = 64  // nested compound commands and substitutions walked
	shellMaxBrackets     = 100 // deeper ( { nesting is not handed to the parser
	shellRecoverErrors   = 8
)

// ParseShell parses a bash command line, as an agent's shell tool receives
// it, into its simple commands and output files.
//
// Text that does not parse is parsed again in the parser's error-recovering
// mode, and if that fails too it is split by ParsePlain (Parsed is then
// false). Text longer than 64 KiB is not parsed: its first 64 KiB are split
// plainly. ParseShell never panics and never fails; it reads nothing but
// cmd (no environment, no files). It is safe for concurrent use.
func ParseShell(cmd string) Shell {
	if len(cmd) > shellMaxInput {
		return ParsePlain(cmd[:shellMaxInput])
	}
	b := shNewBuilder(len(cmd))
	b.sh.Parsed = true
	if !shGuard(func() { b.text(cmd, 0) }) {
		// A bug of ours must not reach the caller either.
		return ParsePlain(cmd)
	}
	return b.result()
}

// ParseArgv reads a command given as an argument vector, as some agents'
// exec tools receive it: ["bash", "-lc", "git status"] parses the payload as
// a shell command line (like ParseShell), and any other vector, such as
// ["curl", "-s", "https://example.com"], is one simple command, after its
// wrappers are removed. It never panics and is safe for concurrent use.
func ParseArgv(argv []string) Shell {
	b := shNewBuilder(0)
	b.sh.Parsed = true
	if len(argv) == 0 {
		return b.result()
	}
	// Copy: the result must not share memory with the caller's slice.
	b.words = append(make([]string, 0, len(argv)), argv...)
	if !shGuard(func() { b.call(b.words[:len(argv):len(argv)], 0) }) {
		// Again without parsing any payload; failing that, nothing.
		b = shNewBuilder(0)
		b.noReparse = true
		b.words = append(make([]string, 0, len(argv)), argv...)
		if !shGuard(func() { b.call(b.words[:len(argv):len(argv)], shellMaxPayloadDepth) }) {
			return Shell{}
		}
	}
	return b.result()
}

// ParsePlain splits a command line without a shell grammar. It serves
// PowerShell (whose syntax bash cannot parse) and is the fallback for text
// that bash cannot parse either.
//
// Words are separated by white space; |, ||, && and ; separate commands
// whether or not they stand apart (a|b); a lone & separates commands too,
// except at the start of a command, where it is PowerShell's call operator
// and is dropped. Single and double quotes group words and are removed;
// backslashes are kept as they are, so Windows paths (C:\Users\me\x.txt)
// survive. > FILE, >> FILE, 2> FILE and *> FILE record FILE as a sink; <
// FILE and 2>&1 are dropped. Wrappers, assignments and the sinks of tee,
// curl and wget are handled as in ParseShell. Parsed is always false.
// ParsePlain never panics and is safe for concurrent use.
func ParsePlain(cmd string) Shell {
	if len(cmd) > shellMaxInput {
		cmd = cmd[:shellMaxInput]
	}
	b := shNewBuilder(len(cmd))
	if !shGuard(func() { b.plain(cmd, 0) }) {
		return Shell{}
	}
	b.sh.Parsed = false
	return b.result()
}

// Verbs returns the distinct non-empty verbs of s.Commands in order of first
// appearance.
func (s Shell) Verbs() []string {
	out := make([]string, 0, len(s.Commands))
outer:
	for _, c := range s.Commands {
		if c.Verb == "" {
			continue
		}
		for _, v := range out {
			if v == c.Verb {
				continue outer
			}
		}
		out = append(out, c.Verb)
	}
	return out
}

// IsGenericSink reports whether writing to p says nothing about what a
// command produces: /dev/null, /dev/stdout, /dev/stderr, /dev/stdin,
// /dev/zero, /dev/full, /dev/tty, /dev/fd/N, /proc/self/fd/N and "-"
// (standard output). The path is cleaned first, so /dev//null counts. It is
// safe for concurrent use.
func IsGenericSink(p string) bool {
	p = path.Clean(p)
	switch p {
	case "-", "/dev/null", "/dev/stdout", "/dev/stderr", "/dev/stdin", "/dev/zero",
		"/dev/full", "/dev/tty":
		return true
	}
	return strings.HasPrefix(p, "/dev/fd/") || strings.HasPrefix(p, "/proc/self/fd/")
}

// shBuilder collects the result of one call.
type shBuilder struct {
	sh Shell
	// words is an arena for rendered words; each command's Args is a
	// capacity-limited window on it, so appending to one never overwrites
	// another.
	words []string
	// noReparse turns off the parsing of shell -c payloads (used after a
	// panic, to be certain the fallback cannot panic again).
	noReparse bool
	// noFast sends fast-path text to the parser anyway; tests use it to
	// check that both give the same result.
	noFast bool
	// hint is the expected number of words, for sizing the arena.
	hint int
}

// shNewBuilder returns a builder for a text of n bytes. Its word arena is
// made on first use, sized by the path that uses it.
func shNewBuilder(n int) *shBuilder {
	return &shBuilder{hint: min(n/8+4, 64)}
}

// reserve makes room for k more words in the arena, and for the first use
// of the arena at least the size hint.
func (b *shBuilder) reserve(k int) {
	if b.words == nil {
		b.words = make([]string, 0, max(k, b.hint))
		return
	}
	if cap(b.words)-len(b.words) < k {
		b.words = append(make([]string, 0, len(b.words)+max(k, b.hint)), b.words...)
	}
}

// reserveCommands sizes the command list for k commands, if it has none.
func (b *shBuilder) reserveCommands(k int) {
	if b.sh.Commands == nil {
		b.sh.Commands = make([]SimpleCommand, 0, min(k, shellMaxCommands))
	}
}

// result is the finished Shell; an empty command list is nil, whichever
// path built it.
func (b *shBuilder) result() Shell {
	if len(b.sh.Commands) == 0 {
		b.sh.Commands = nil
	}
	return b.sh
}

func (b *shBuilder) full() bool { return len(b.sh.Commands) >= shellMaxCommands }

func (b *shBuilder) addCommand(verb string, args []string) {
	if b.full() {
		return
	}
	b.reserveCommands(4)
	if len(args) == 0 {
		args = nil
	}
	b.sh.Commands = append(b.sh.Commands, SimpleCommand{Verb: verb, Args: args})
}

// addSink records an output file: cleaned unless it holds an expansion
// (cleaning "$(cd .. && pwd)/f" would rewrite the command inside),
// skipped if generic or already there.
func (b *shBuilder) addSink(p string) {
	if p == "" || len(b.sh.Sinks) >= shellMaxSinks {
		return
	}
	if strings.IndexByte(p, '$') < 0 && strings.IndexByte(p, '`') < 0 {
		p = path.Clean(p)
	}
	if IsGenericSink(p) {
		return
	}
	for _, s := range b.sh.Sinks {
		if s == p {
			return
		}
	}
	if b.sh.Sinks == nil {
		b.sh.Sinks = make([]string, 0, 2)
	}
	b.sh.Sinks = append(b.sh.Sinks, p)
}

// addInput records a file read by an input redirection, cleaned unless it
// holds an expansion, skipped if already there.
func (b *shBuilder) addInput(p string) {
	if p == "" || len(b.sh.Inputs) >= shellMaxSinks {
		return
	}
	if strings.IndexByte(p, '$') < 0 && strings.IndexByte(p, '`') < 0 {
		p = path.Clean(p)
	}
	for _, s := range b.sh.Inputs {
		if s == p {
			return
		}
	}
	b.sh.Inputs = append(b.sh.Inputs, p)
}

// text parses src (the whole command line at depth 0, a shell -c payload
// deeper) and adds what it finds.
func (b *shBuilder) text(src string, depth int) {
	if !b.noFast && (b.fast(src, depth) || b.quick(src, depth)) {
		return
	}
	if shBracketDepth(src) > shellMaxBrackets {
		b.sh.Parsed = false
		b.plain(src, depth)
		return
	}
	f, text, ok := shParse(src)
	if !ok {
		b.sh.Parsed = false
		b.plain(src, depth)
		return
	}
	b.reserve(0)
	nc, ns, nw := len(b.sh.Commands), len(b.sh.Sinks), len(b.words)
	defer func() {
		if recover() != nil {
			// A bug in the walker must not escape: drop what this text
			// added and split it plainly, without parsing anything again.
			b.sh.Commands, b.sh.Sinks, b.words = b.sh.Commands[:nc], b.sh.Sinks[:ns], b.words[:nw]
			b.sh.Parsed = false
			b.noReparse = true
			b.plain(src, depth)
		}
	}()
	w := shWalker{b: b, src: text, depth: depth}
	w.stmts(f.Stmts, 0)
}

// shGuard runs f and reports whether it returned without panicking.
func shGuard(f func()) (ok bool) {
	defer func() {
		if recover() != nil {
			ok = false
		}
	}()
	f()
	return true
}

// shParser is a pooled bash parser; syntax.Parser is not safe for
// concurrent use, so each call borrows one.
type shParser struct {
	strict, lenient *syntax.Parser
	r               strings.Reader
}

var shParsers = sync.Pool{New: func() any {
	return &shParser{strict: syntax.NewParser(syntax.KeepComments(false), syntax.Variant(syntax.LangBash))}
}}

// shParse parses src as bash: strictly first, then once more recovering from
// up to a few errors. A panic inside the parser counts as a failure, and the
// parser that panicked is not returned to the pool.
//
// The text that positions in f point into is returned too: when a
// here-document is never closed, bash reads its body up to the end of the
// input and runs the command anyway, so the parse is retried with the
// missing terminator line appended.
func shParse(src string) (f *syntax.File, text string, ok bool) {
	sp := shParsers.Get().(*shParser)
	defer func() {
		if recover() != nil {
			f, ok = nil, false
			return
		}
		sp.r.Reset("")
		shParsers.Put(sp)
	}()
	sp.r.Reset(src)
	f, err := sp.strict.Parse(&sp.r, "")
	if err == nil {
		return f, src, true
	}
	for text := src; ; {
		delim, unclosed := shUnclosedHeredoc(err)
		if !unclosed || len(text) > len(src)+256 {
			break
		}
		text += "\n" + delim + "\n"
		sp.r.Reset(text)
		if f, err = sp.strict.Parse(&sp.r, ""); err == nil {
			return f, text, true
		}
	}
	if !shMayRecover(err) {
		return f, src, false
	}
	if sp.lenient == nil {
		sp.lenient = syntax.NewParser(syntax.KeepComments(false), syntax.Variant(syntax.LangBash),
			syntax.RecoverErrors(shellRecoverErrors))
	}
	sp.r.Reset(src)
	f, err = sp.lenient.Parse(&sp.r, "")
	return f, src, err == nil && f != nil
}

// shMayRecover reports whether error recovery can help with err: it only
// supplies missing tokens, as at an unexpected end of input or after an
// operator with nothing behind it. On real traffic it never rescued any
// other error, and trying costs a second full parse of text that is often
// not shell at all.
//
// An unclosed quote is the exception: recovery closes it by dropping the
// quoted words ("echo Let's try A" would become "echo Let"), while the plain
// split keeps every word.
func shMayRecover(err error) bool {
	pe, ok := err.(syntax.ParseError)
	if ok && strings.Contains(pe.Text, "without closing quote") {
		return false
	}
	return !ok || pe.Incomplete || strings.Contains(pe.Text, "must be followed by")
}

// shUnclosedHeredoc reports whether err says a here-document was never
// closed, and with which delimiter.
func shUnclosedHeredoc(err error) (string, bool) {
	pe, ok := err.(syntax.ParseError)
	if !ok {
		return "", false
	}
	q, ok := strings.CutPrefix(pe.Text, "unclosed here-document ")
	if !ok {
		return "", false
	}
	delim, uerr := strconv.Unquote(q)
	if uerr != nil || delim == "" || strings.ContainsAny(delim, "\n") {
		return "", false
	}
	return delim, true
}

// shBracketDepth is the deepest nesting of ( and { in src, quotes ignored;
// it guards the parser against inputs such as 60,000 open parentheses,
// which it would take a second to reject.
func shBracketDepth(src string) int {
	d, deepest := 0, 0
	for i := 0; i < len(src); i++ {
		switch src[i] {
		case '(', '{':
			d++
			if d > deepest {
				deepest = d
			}
		case ')', '}':
			if d > 0 {
				d--
			}
		}
	}
	return deepest
}

// The fast path. A command line made only of the bytes below has no quotes,
// expansions, globs, redirections or operators, so bash would split it on
// spaces and nothing else; the parser is not needed.
var shFastBytes = func() (t [256]bool) {
	for c := 'a'; c <= 'z'; c++ {
		t[c] = true
	}
	for c := 'A'; c <= 'Z'; c++ {
		t[c] = true
	}
	for c := '0'; c <= '9'; c++ {
		t[c] = true
	}
	for _, c := range " -_./=:,@%+" {
		t[c] = true
	}
	return t
}()

// shReserved holds the words that bash reads as grammar, not as a command
// name, in command position. Fast-path text starting with one goes to the
// parser.
var shReserved = map[string]bool{
	"if": true, "then": true, "elif": true, "else": true, "fi": true, "do": true, "done": true,
	"case": true, "esac": true, "while": true, "until": true, "for": true, "in": true,
	"select": true, "function": true, "time": true, "coproc": true, "declare": true,
	"local": true, "export": true, "readonly": true, "typeset": true, "nameref": true, "let": true,
}

// fast handles src without the parser when it qualifies, and reports whether
// it did.
func (b *shBuilder) fast(src string, depth int) bool {
	n := 1
	for i := 0; i < len(src); i++ {
		c := src[i]
		if !shFastBytes[c] {
			return false
		}
		if c == ' ' {
			n++
		}
	}
	b.reserve(n)
	start := len(b.words)
	for i := 0; i < len(src); {
		for i < len(src) && src[i] == ' ' {
			i++
		}
		j := i
		for j < len(src) && src[j] != ' ' {
			j++
		}
		if j > i {
			b.words = append(b.words, src[i:j])
		}
		i = j
	}
	words := b.words[start:len(b.words):len(b.words)]
	if len(words) == 0 {
		return true
	}
	k := 0
	for k < len(words) && shIsAssign(words[k]) {
		k++
	}
	if shReserved[words[0]] || (k < len(words) && shReserved[words[k]]) {
		b.words = b.words[:start]
		return false
	}
	b.reserveCommands(1)
	b.call(words[k:], depth)
	return true
}

// The quick path. Most agent commands that the fast path refuses are still
// plain lists of simple commands: quoted arguments, && || | ; and newlines
// between commands, a redirection or two, a here-document (`cd /w && grep
// -n "a b" f.py 2>/dev/null | head`, `cat > f.py <<'EOF' ...`). quick lexes
// exactly that subset of bash itself, several times faster than the parser,
// and gives the very same result; anything outside the subset (expansions,
// parentheses, keywords, unusual operators or here-documents, escaped
// newlines, control bytes, invalid UTF-8) makes it decline without side
// effects, and the parser takes over.

// shQuickCmd is one simple command found by quick: its words in b.words and
// its redirections in the local list.
type shQuickCmd struct {
	w0, w1 int
	r0, r1 int
	assign bool // it had NAME=value words
	hdoc   bool // it had a here-document
}

// shQuickRedir is one redirection found by quick.
type shQuickRedir struct {
	op     syntax.RedirOperator
	fd     bool // a descriptor number came before the operator (2>)
	target string
}

// shQuickWordByte marks the bytes that quick accepts unquoted inside a word;
// anything else that is not an operator or blank makes it decline.
var shQuickWordByte = func() (t [256]bool) {
	for c := range shFastBytes {
		t[c] = shFastBytes[c] && c != ' '
	}
	for _, c := range "~*?[]{}^#" {
		t[c] = true
	}
	for c := 0x80; c < 0x100; c++ {
		t[c] = true // UTF-8, checked as a whole beforehand
	}
	return t
}()

// shControl marks the control bytes that make quick decline: all but tab
// and newline.
var shControl = func() (t [256]bool) {
	for c := range 0x20 {
		t[c] = c != '\t' && c != '\n'
	}
	t[0x7f] = true
	return t
}()

// quick handles src without the parser when it lies in the subset described
// above, and reports whether it did.
func (b *shBuilder) quick(src string, depth int) bool {
	// The parser removes escaped newlines before anything else, so they
	// can join any two tokens (0\<newline>>&- is 0>&-): leave them to it.
	if strings.Contains(src, "\\\n") {
		return false
	}
	// Control bytes (NUL, CR, ...) get special treatment from the parser,
	// even inside quotes; so does invalid UTF-8.
	var high byte
	for i := 0; i < len(src); i++ {
		c := src[i]
		if shControl[c] {
			return false
		}
		high |= c
	}
	if high >= 0x80 && !utf8.ValidString(src) {
		return false
	}
	b.reserve(0)
	start := len(b.words)
	var cmdBuf [8]shQuickCmd
	var redirBuf [4]shQuickRedir
	cmds, redirs := cmdBuf[:0], redirBuf[:0]
	var buf []byte
	fail := func() bool {
		b.words = b.words[:start]
		return false
	}

	n := len(src)
	i := 0
	needCmd := false // after && || |, a command must follow
	hdoc := ""       // delimiter of a here-document whose body is due
	hdocQuoted := false
	cur := shQuickCmd{w0: start}
	named := false // cur has its command word
	for {
		i = shSkipBlanks(src, i)
		if i < n && src[i] == '#' {
			// A comment; the parser lets a backslash at its end continue
			// it onto the next line, so those are left to the parser.
			for i < n && src[i] != '\n' {
				if src[i] == '\\' {
					return fail()
				}
				i++
			}
		}

		// A separator ends the current command.
		var sep byte
		if i >= n {
			sep = 'E'
		} else {
			switch src[i] {
			case ';':
				if i+1 < n && (src[i+1] == ';' || src[i+1] == '&') {
					return fail()
				}
				sep, i = ';', i+1
			case '\n':
				sep, i = '\n', i+1
				if hdoc != "" {
					// The body of a here-document: data, skipped.
					end, ok := shQuickHeredocBody(src, i, hdoc, hdocQuoted)
					if !ok {
						return fail()
					}
					i, hdoc = end, ""
				}
			case '|':
				switch {
				case i+1 < n && src[i+1] == '|':
					sep, i = 'O', i+2
				case i+1 < n && src[i+1] == '&':
					return fail()
				default:
					sep, i = '|', i+1
				}
			case '&':
				switch {
				case i+1 < n && src[i+1] == '&':
					sep, i = 'A', i+2
				case i+1 < n && src[i+1] == '>':
					// &> is a redirection, read below.
				default:
					sep, i = '&', i+1
				}
			}
		}
		if sep == 'E' && hdoc != "" {
			return fail() // never closed
		}
		if sep != 0 {
			if len(b.words) == cur.w0 && len(redirs) == cur.r0 && !cur.assign && !cur.hdoc {
				switch {
				case sep == '\n':
					continue
				case sep == 'E' && !needCmd:
					goto emit
				default:
					return fail()
				}
			}
			cur.w1, cur.r1 = len(b.words), len(redirs)
			cmds = append(cmds, cur)
			if sep == 'E' {
				goto emit
			}
			needCmd = sep == 'A' || sep == 'O' || sep == '|'
			cur = shQuickCmd{w0: len(b.words), r0: len(redirs)}
			named = false
			continue
		}

		// A redirection: [digits]> >> >& < &> &>>.
		j := i
		for j < n && src[j] >= '0' && src[j] <= '9' {
			j++
		}
		fd := j > i && j < n && (src[j] == '>' || src[j] == '<')
		if !fd {
			j = i
		}
		if c := src[j]; c == '>' || c == '<' || c == '&' {
			var op syntax.RedirOperator
			next := byte(0)
			if j+1 < n {
				next = src[j+1]
			}
			if c == '<' && next == '<' {
				// A here-document: <<WORD, <<'WORD' or <<"WORD", one per
				// line; <<- and <<< are left to the parser.
				if fd || hdoc != "" {
					return fail()
				}
				delim, quoted, end, ok := shQuickHeredocWord(src, shSkipBlanks(src, j+2))
				if !ok {
					return fail()
				}
				hdoc, hdocQuoted, cur.hdoc = delim, quoted, true
				i = end
				continue
			}
			switch {
			case c == '>' && next == '>':
				op, j = syntax.AppOut, j+2
			case c == '>' && next == '&':
				op, j = syntax.DplOut, j+2
			case c == '>' && next != '|':
				op, j = syntax.RdrOut, j+1
			case c == '<' && next != '<' && next != '&' && next != '>':
				op, j = syntax.RdrIn, j+1
			case c == '&' && !fd && j+2 < n && src[j+2] == '>':
				op, j = syntax.AppAll, j+3
			case c == '&' && !fd:
				op, j = syntax.RdrAll, j+2
			default:
				return fail()
			}
			j = shSkipBlanks(src, j)
			if j >= n || src[j] == '#' {
				return fail()
			}
			target, _, end, ok := shQuickWord(src, j, &buf)
			if !ok || end == j {
				return fail()
			}
			redirs = append(redirs, shQuickRedir{op: op, fd: fd, target: target})
			i = end
			continue
		}

		// A word.
		w, raw, end, ok := shQuickWord(src, i, &buf)
		if !ok || end == i || w == "{" || w == "}" {
			return fail()
		}
		if raw[0] == '{' && end < n && (src[end] == '>' || src[end] == '<') {
			return fail() // {fd}>file
		}
		i = end
		if !named {
			// The parser reads a [ in a leading word as an array index
			// (a[1]=x), sometimes oddly (it takes time-x=1a[1]=y for an
			// assignment): leave such words to it. A lone [ is test.
			if raw != "[" && strings.IndexByte(raw, '[') >= 0 {
				return fail()
			}
			// Likewise a backslash (A\=1): leave it to the parser.
			if strings.IndexByte(raw, '\\') >= 0 {
				return fail()
			}
			if shIsAssign(raw) {
				cur.assign = true
				continue
			}
			if shReserved[w] || w == "[[" || w == "]]" || raw[0] == '{' || raw[0] == '}' {
				return fail()
			}
			named = true
		}
		b.words = append(b.words, w)
	}

emit:
	b.reserveCommands(len(cmds))
	for _, c := range cmds {
		if c.w1 > c.w0 || c.assign {
			b.call(b.words[c.w0:c.w1:c.w1], depth)
		}
		for _, r := range redirs[c.r0:c.r1] {
			switch r.op {
			case syntax.RdrIn:
				b.addInput(r.target)
			case syntax.RdrOut, syntax.AppOut, syntax.RdrAll, syntax.AppAll:
				b.addSink(r.target)
			case syntax.DplOut:
				if !r.fd && !shIsFD(r.target) {
					b.addSink(r.target)
				}
			}
		}
	}
	return true
}

// shSkipBlanks returns the index of the first byte from i on that is not a
// space or a tab.
func shSkipBlanks(src string, i int) int {
	for i < len(src) && (src[i] == ' ' || src[i] == '\t') {
		i++
	}
	return i
}

// shQuickHeredocWord reads the delimiter of a here-document at src[i]: a
// word of letters, digits and underscores, bare or wholly in single or
// double quotes, that must end there. It returns the delimiter, whether it
// was quoted and the index after it.
func shQuickHeredocWord(src string, i int) (delim string, quoted bool, end int, ok bool) {
	n := len(src)
	j := i
	if j < n && (src[j] == '\'' || src[j] == '"') {
		quoted = true
		j++
	}
	k := j
	for k < n && shIsNameByte(src[k]) {
		k++
	}
	delim = src[j:k]
	if quoted {
		if k >= n || src[k] != src[i] {
			return "", false, 0, false
		}
		k++
	}
	if delim == "" || (k < n && !strings.ContainsRune(" \t\n;|&<>", rune(src[k]))) {
		return "", false, 0, false
	}
	return delim, quoted, k, true
}

// shQuickHeredocBody skips the body of a here-document that starts at
// src[i], up to and including the line that is exactly delim. An unquoted
// delimiter lets the body hold expansions, which the parser would read: such
// bodies are left to it, as are bodies that never end.
func shQuickHeredocBody(src string, i int, delim string, quoted bool) (int, bool) {
	for i < len(src) {
		e := strings.IndexByte(src[i:], '\n')
		if e < 0 {
			e = len(src)
		} else {
			e += i
		}
		line := src[i:e]
		if line == delim {
			if e < len(src) {
				e++
			}
			return e, true
		}
		if !quoted && strings.ContainsAny(line, "$`\\") {
			return 0, false
		}
		i = e + 1
	}
	return 0, false
}

// shQuickWord lexes the word starting at src[i] for quick: unquoted bytes
// (with backslash escapes), '...' and "..." without expansions or escapes.
// It returns the rendered word, its raw text, the index after it, and false
// if the word holds anything quick does not handle. buf is scratch space.
func shQuickWord(src string, i int, buf *[]byte) (word, raw string, end int, ok bool) {
	n := len(src)
	start := i
	plain := true // no quotes or escapes so far: the word is src[start:i]
	*buf = (*buf)[:0]
	for i < n {
		c := src[i]
		switch {
		case c == ' ' || c == '\t' || c == '\n' || c == ';' || c == '|' || c == '&' || c == '<' || c == '>':
			goto done
		case c == '\'':
			j := strings.IndexByte(src[i+1:], '\'')
			if j < 0 {
				return "", "", 0, false
			}
			if plain {
				*buf, plain = append(*buf, src[start:i]...), false
			}
			*buf = append(*buf, src[i+1:i+1+j]...)
			i += j + 2
		case c == '"':
			j := i + 1
			for j < n && src[j] != '"' {
				if d := src[j]; d == '$' || d == '`' || d == '\\' {
					return "", "", 0, false
				}
				j++
			}
			if j >= n {
				return "", "", 0, false
			}
			if plain {
				*buf, plain = append(*buf, src[start:i]...), false
			}
			*buf = append(*buf, src[i+1:j]...)
			i = j + 1
		case c == '\\':
			if i+1 >= n {
				return "", "", 0, false
			}
			if plain {
				*buf, plain = append(*buf, src[start:i]...), false
			}
			*buf = append(*buf, src[i+1])
			i += 2
		case shQuickWordByte[c]:
			if !plain {
				*buf = append(*buf, c)
			}
			i++
		default:
			return "", "", 0, false
		}
	}
done:
	raw = src[start:i]
	if plain {
		return raw, raw, i, true
	}
	return string(*buf), raw, i, true
}

// shIsAssign reports whether w is a NAME=value (or NAME+=value) word.
func shIsAssign(w string) bool {
	for i := 0; i < len(w); i++ {
		c := w[i]
		switch {
		case c == '_' || (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z'):
		case c >= '0' && c <= '9':
			if i == 0 {
				return false
			}
		case c == '=':
			return i > 0
		case c == '+':
			return i > 0 && i+1 < len(w) && w[i+1] == '='
		default:
			return false
		}
	}
	return false
}

// shBase is the last element of a command word: "/usr/bin/curl" gives
// "curl", "./run.sh" gives "run.sh", "/" gives "".
func shBase(w string) string {
	for len(w) > 0 && w[len(w)-1] == '/' {
		w = w[:len(w)-1]
	}
	if i := strings.LastIndexByte(w, '/'); i >= 0 {
		return w[i+1:]
	}
	return w
}

// shVerb is the verb of a command word: its base name, where only slashes
// outside expansions count ("$VENV/bin/python" gives "python"). When the
// name left still holds a slash inside an expansion, as in
// "$(curl https://x/install.sh)", the verb is a placeholder for the kind of
// expansion ("$(…)", "`…`" or "${…}"): a verb never contains a slash.
func shVerb(w string) string {
	if strings.IndexByte(w, '$') < 0 && strings.IndexByte(w, '`') < 0 {
		return shBase(w)
	}
	for len(w) > 0 && w[len(w)-1] == '/' {
		w = w[:len(w)-1]
	}
	depth, quoted, last := 0, false, -1
	for i := 0; i < len(w); i++ {
		switch w[i] {
		case '`':
			quoted = !quoted
		case '(', '{':
			if depth > 0 || (i > 0 && w[i-1] == '$') {
				depth++
			}
		case ')', '}':
			if depth > 0 {
				depth--
			}
		case '/':
			if depth == 0 && !quoted {
				last = i
			}
		}
	}
	base := w[last+1:]
	if strings.IndexByte(base, '/') < 0 {
		return base
	}
	switch {
	case strings.Contains(base, "$("):
		return "$(…)"
	case strings.IndexByte(base, '`') >= 0:
		return "`…`"
	default:
		return "${…}"
	}
}

// call adds the simple command made of words (assignments already removed):
// it strips wrappers, parses a shell's -c payload in place of the shell, and
// records the files the command writes. It reports whether words were
// replaced by a parsed payload.
func (b *shBuilder) call(words []string, depth int) bool {
	if b.full() {
		return false
	}
	if len(words) == 0 {
		b.addCommand("", nil)
		return false
	}
	words = shUnwrap(words)
	verb := shVerb(words[0])
	args := words[1:]
	if shShells[verb] && !b.noReparse && depth < shellMaxPayloadDepth {
		if payload, ok := shShellPayload(args); ok {
			b.text(payload, depth+1)
			return true
		}
	}
	b.addCommand(verb, args)
	b.wordSinks(verb, args)
	return false
}

// shShells are the shells whose -c payload is bash-like enough to parse.
var shShells = map[string]bool{"bash": true, "sh": true, "zsh": true, "dash": true, "ksh": true, "ash": true}

// shShellPayload finds the command string of `bash [options] -c STRING`:
// -c may be grouped with other letters (-lc, -ec, -xec) and come before
// other options (-c -e); -o and -O take a value (-euo pipefail), as do
// --rcfile and --init-file.
func shShellPayload(args []string) (string, bool) {
	c := false
	for i := 0; i < len(args); i++ {
		w := args[i]
		if w == "--" || w == "-" {
			if c && i+1 < len(args) {
				return args[i+1], true
			}
			return "", false
		}
		if len(w) > 1 && (w[0] == '-' || w[0] == '+') {
			if strings.HasPrefix(w, "--") {
				if w == "--rcfile" || w == "--init-file" {
					i++
				}
				continue
			}
			for j := 1; j < len(w); j++ {
				switch w[j] {
				case 'c':
					c = w[0] == '-'
				case 'o', 'O':
					if j == len(w)-1 {
						i++
					}
				}
			}
			continue
		}
		if c {
			return w, true
		}
		return "", false
	}
	return "", false
}

// shWrapper describes a command that runs another command given after its
// own options.
type shWrapper struct {
	opts *optTable
	// assigns: NAME=value words may come between the options and the
	// command (env, sudo).
	assigns bool
	// loneDash: a "-" operand is an option (env's old spelling of -i).
	loneDash bool
	// operands is the number of words the wrapper itself takes after its
	// options (timeout's duration).
	operands int
	// notRunning lists options with which the wrapper runs nothing (command
	// -v looks a name up; sudo -l lists rights).
	notRunning map[string]bool
}

func shSet(names string) map[string]bool {
	m := map[string]bool{}
	for _, n := range strings.Fields(names) {
		m[n] = true
	}
	return m
}

var shWrappers = map[string]*shWrapper{
	"sudo": {
		opts: newOpts(false,
			"-u= --user= -g= --group= -p= --prompt= -C= --close-from= -r= --role= -t= --type=",
			"-U= --other-user= -D= --chdir= -R= --chroot= -T= --command-timeout= --host=",
			"--preserve-env[=]").stopping(),
		assigns:    true,
		notRunning: shSet("-l --list -e --edit -v --validate -V --version -K --remove-timestamp -h --help"),
	},
	"env": {
		opts: newOpts(false,
			"-u= --unset= -C= --chdir= -S= --split-string= --default-signal[=] --ignore-signal[=]",
			"--block-signal[=]").stopping(),
		assigns:    true,
		loneDash:   true,
		notRunning: shSet("--help --version --list-signal-handling"),
	},
	"timeout": {opts: newOpts(false, "-s= --signal= -k= --kill-after=").stopping(), operands: 1},
	"nohup":   {opts: newOpts(false).stopping()},
	"nice":    {opts: newOpts(false, "-n= --adjustment=").stopping()},
	"ionice": {
		opts:       newOpts(false, "-c= --class= -n= --classdata= -p= --pid= -P= --pgid= -u= --uid=").stopping(),
		notRunning: shSet("-p --pid -P --pgid -u --uid"),
	},
	"time":    {opts: newOpts(false, "-f= --format= -o= --output=").stopping()},
	"command": {opts: newOpts(false).stopping(), notRunning: shSet("-v -V")},
	"exec":    {opts: newOpts(false, "-a=").stopping()},
	"stdbuf":  {opts: newOpts(false, "-i= --input= -o= --output= -e= --error=").stopping()},
}

// shUnwrap removes wrappers from the front of words, however they stack
// (sudo timeout 5 nice -n 10 cmd), up to 16 of them. A wrapper with nothing
// to run (a bare `sudo -i`, `env`, `exec` with only redirections) is itself
// the command.
func shUnwrap(words []string) []string {
	for range 16 {
		if len(words) < 2 {
			return words
		}
		wr := shWrappers[shBase(words[0])]
		if wr == nil {
			return words
		}
		rest, ok := wr.strip(words[1:])
		if !ok || len(rest) == 0 {
			return words
		}
		words = rest
	}
	return words
}

// strip returns the command that w runs, given the words after w's name.
func (w *shWrapper) strip(args []string) ([]string, bool) {
	running := true
	var split string // env -S STRING
	i := scanOpts(w.opts, args, func(name, value string) bool {
		if w.notRunning[name] {
			running = false
			return false
		}
		if name == "-S" || name == "--split-string" {
			split = value
		}
		return true
	}, nil)
	if !running {
		return nil, false
	}
	if w.loneDash && i < len(args) && args[i] == "-" {
		i++
	}
	if w.assigns {
		for i < len(args) && shIsAssign(args[i]) {
			i++
		}
	}
	i += w.operands
	if i > len(args) {
		return nil, false
	}
	rest := args[i:]
	if split != "" {
		f := strings.Fields(split)
		rest = append(f[:len(f):len(f)], rest...)
	}
	return rest, true
}

var teeOpts = newOpts(false, "--output-error[=]")

// wordSinks records the output files named by a command's own options or
// operands.
func (b *shBuilder) wordSinks(verb string, args []string) {
	switch verb {
	case "tee":
		scanOpts(teeOpts, args, nil, func(i int) bool {
			b.addSink(args[i])
			return true
		})
	case "curl":
		scanOpts(curlSpec.opts, args, func(name, value string) bool {
			if name == "-o" || name == "--output" {
				b.addSink(value)
			}
			return true
		}, nil)
	case "wget":
		scanOpts(wgetSpec.opts, args, func(name, value string) bool {
			if name == "-O" || name == "--output-document" {
				b.addSink(value)
			}
			return true
		}, nil)
	}
}

// shWalker walks one parsed text.
type shWalker struct {
	b     *shBuilder
	src   string // the text the positions point into
	depth int    // shell -c payload depth of src
}

func (w *shWalker) stmts(list []*syntax.Stmt, nest int) {
	for _, s := range list {
		if w.b.full() {
			return
		}
		w.stmt(s, nest)
	}
}

func (w *shWalker) stmt(s *syntax.Stmt, nest int) {
	if s == nil || nest > shellMaxNesting || w.b.full() {
		return
	}
	if s.Cmd != nil {
		w.command(s.Cmd, nest)
	}
	for _, r := range s.Redirs {
		w.redirect(r, nest)
	}
}

func (w *shWalker) command(cmd syntax.Command, nest int) {
	b := w.b
	switch c := cmd.(type) {
	case *syntax.CallExpr:
		w.call(c, nest)
	case *syntax.BinaryCmd:
		w.binary(c, nest)
	case *syntax.Subshell:
		w.stmts(c.Stmts, nest+1)
	case *syntax.Block:
		w.stmts(c.Stmts, nest+1)
	case *syntax.IfClause:
		for ic := c; ic != nil; ic = ic.Else {
			w.stmts(ic.Cond, nest+1)
			w.stmts(ic.Then, nest+1)
		}
	case *syntax.WhileClause:
		w.stmts(c.Cond, nest+1)
		w.stmts(c.Do, nest+1)
	case *syntax.ForClause:
		if wi, ok := c.Loop.(*syntax.WordIter); ok {
			for _, it := range wi.Items {
				w.substs(it, nest+1)
			}
		}
		w.stmts(c.Do, nest+1)
	case *syntax.CaseClause:
		w.substs(c.Word, nest+1)
		for _, it := range c.Items {
			w.stmts(it.Stmts, nest+1)
		}
	case *syntax.FuncDecl:
		w.stmt(c.Body, nest+1)
	case *syntax.TimeClause:
		if c.Stmt == nil {
			b.addCommand("time", nil)
			return
		}
		w.stmt(c.Stmt, nest+1)
	case *syntax.CoprocClause:
		w.stmt(c.Stmt, nest+1)
	case *syntax.DeclClause:
		w.decl(c, nest)
	case *syntax.LetClause:
		start := len(b.words)
		for _, e := range c.Exprs {
			if s, ok := shSource(w.src, e); ok {
				b.words = append(b.words, s)
			}
		}
		b.addCommand("let", b.words[start:len(b.words):len(b.words)])
	case *syntax.TestClause:
		start := len(b.words)
		w.testWords(c.X, 0)
		b.addCommand("[[", b.words[start:len(b.words):len(b.words)])
		w.testSubsts(c.X, nest+1, 0)
	case *syntax.ArithmCmd:
		var args []string
		if s, ok := shSource(w.src, c.X); ok {
			args = []string{s}
		}
		b.addCommand("((", args)
	case *syntax.TestDecl:
		w.stmt(c.Body, nest+1)
	}
}

// binary walks a chain of && || | operators. The parser nests them to the
// left (a | b | c is (a | b) | c), so the chain is followed in a loop rather
// than by recursion: a pipeline of ten thousand commands costs no stack.
func (w *shWalker) binary(c *syntax.BinaryCmd, nest int) {
	var buf [8]*syntax.BinaryCmd
	spine := append(buf[:0], c)
	for {
		x := spine[len(spine)-1].X
		if x == nil || len(x.Redirs) > 0 || x.Negated {
			break
		}
		left, ok := x.Cmd.(*syntax.BinaryCmd)
		if !ok {
			break
		}
		spine = append(spine, left)
	}
	w.stmt(spine[len(spine)-1].X, nest+1)
	for i := len(spine) - 1; i >= 0; i-- {
		w.stmt(spine[i].Y, nest+1)
	}
}

// call handles a simple command: it renders the words, then walks the
// commands inside them ($( ) in assignments first, as they run first; those
// in arguments after the command itself).
func (w *shWalker) call(c *syntax.CallExpr, nest int) {
	b := w.b
	for _, a := range c.Assigns {
		w.assignSubsts(a, nest)
	}
	start := len(b.words)
	for _, a := range c.Args {
		b.words = append(b.words, shRender(w.src, a))
	}
	words := b.words[start:len(b.words):len(b.words)]
	if b.call(words, w.depth) {
		// A shell -c payload was parsed; its substitutions were walked
		// with it.
		return
	}
	for _, a := range c.Args {
		w.substs(a, nest)
	}
}

// decl turns export/declare/local/readonly/typeset into a command whose
// arguments are the rendered assignments (NAME=value) and options.
func (w *shWalker) decl(c *syntax.DeclClause, nest int) {
	b := w.b
	for _, a := range c.Args {
		w.assignSubsts(a, nest)
	}
	start := len(b.words)
	for _, a := range c.Args {
		switch {
		case a.Name == nil:
			b.words = append(b.words, shRender(w.src, a.Value))
		case a.Naked:
			b.words = append(b.words, a.Name.Value)
		case a.Value != nil && a.Index == nil:
			op := "="
			if a.Append {
				op = "+="
			}
			b.words = append(b.words, a.Name.Value+op+shRender(w.src, a.Value))
		default:
			// NAME=, NAME=(a b), NAME[i]=v: the source text is as good as
			// any rendering.
			s, ok := shSource(w.src, a)
			if !ok {
				s = a.Name.Value + "="
			}
			b.words = append(b.words, s)
		}
	}
	verb := ""
	if c.Variant != nil {
		verb = c.Variant.Value
	}
	b.addCommand(verb, b.words[start:len(b.words):len(b.words)])
}

// testWords flattens a [[ ]] expression into words.
func (w *shWalker) testWords(x syntax.TestExpr, level int) {
	b := w.b
	if level > shellMaxNesting {
		return
	}
	switch t := x.(type) {
	case *syntax.Word:
		b.words = append(b.words, shRender(w.src, t))
	case *syntax.UnaryTest:
		b.words = append(b.words, t.Op.String())
		w.testWords(t.X, level+1)
	case *syntax.BinaryTest:
		w.testWords(t.X, level+1)
		b.words = append(b.words, t.Op.String())
		w.testWords(t.Y, level+1)
	case *syntax.ParenTest:
		b.words = append(b.words, "(")
		w.testWords(t.X, level+1)
		b.words = append(b.words, ")")
	}
}

// testSubsts walks the commands inside the words of a [[ ]] expression.
func (w *shWalker) testSubsts(x syntax.TestExpr, nest, level int) {
	if level > shellMaxNesting {
		return
	}
	switch t := x.(type) {
	case *syntax.Word:
		w.substs(t, nest)
	case *syntax.UnaryTest:
		w.testSubsts(t.X, nest, level+1)
	case *syntax.BinaryTest:
		w.testSubsts(t.X, nest, level+1)
		w.testSubsts(t.Y, nest, level+1)
	case *syntax.ParenTest:
		w.testSubsts(t.X, nest, level+1)
	}
}

func (w *shWalker) assignSubsts(a *syntax.Assign, nest int) {
	if a == nil {
		return
	}
	w.substs(a.Value, nest)
	if a.Array != nil {
		for _, e := range a.Array.Elems {
			w.substs(e.Value, nest)
		}
	}
}

// substs walks the commands that a word runs: $( ), backquotes, <( ) and
// >( ), also inside double quotes and ${X:-$(cmd)}.
func (w *shWalker) substs(word *syntax.Word, nest int) {
	if word == nil {
		return
	}
	for _, p := range word.Parts {
		w.substPart(p, nest)
	}
}

func (w *shWalker) substPart(part syntax.WordPart, nest int) {
	if nest > shellMaxNesting || w.b.full() {
		return
	}
	switch p := part.(type) {
	case *syntax.CmdSubst:
		w.stmts(p.Stmts, nest+1)
	case *syntax.ProcSubst:
		w.stmts(p.Stmts, nest+1)
	case *syntax.DblQuoted:
		for _, q := range p.Parts {
			w.substPart(q, nest+1)
		}
	case *syntax.ParamExp:
		if p.Exp != nil {
			w.substs(p.Exp.Word, nest+1)
		}
		if p.Repl != nil {
			w.substs(p.Repl.Orig, nest+1)
			w.substs(p.Repl.With, nest+1)
		}
	}
}

// redirect records the file an output redirection writes, and walks the
// commands in its target word. A here-document's body is data, never
// walked.
func (w *shWalker) redirect(r *syntax.Redirect, nest int) {
	if r == nil || r.Word == nil {
		return
	}
	switch r.Op {
	case syntax.RdrIn:
		w.b.addInput(shRender(w.src, r.Word))
	case syntax.RdrOut, syntax.AppOut, syntax.RdrClob, syntax.AppClob,
		syntax.RdrAll, syntax.RdrAllClob, syntax.AppAll, syntax.AppAllClob:
		w.b.addSink(shRender(w.src, r.Word))
	case syntax.DplOut:
		// >&2 and 2>&1 duplicate descriptors; bash reads >&FILE (no
		// number before it) as &>FILE.
		if t := shRender(w.src, r.Word); r.N == nil && !shIsFD(t) {
			w.b.addSink(t)
		}
	}
	w.substs(r.Word, nest)
}

// shIsFD reports whether a >& target names a descriptor (digits, "-", or an
// expansion that may hold one) rather than a file.
func shIsFD(t string) bool {
	if t == "-" || strings.ContainsAny(t, "$`") {
		return true
	}
	for i := 0; i < len(t); i++ {
		if t[i] < '0' || t[i] > '9' {
			return false
		}
	}
	return true
}

// plain splits src the way ParsePlain describes and adds its commands.
func (b *shBuilder) plain(src string, depth int) {
	b.reserve(0)
	p := shPlain{b: b, src: src, depth: depth, segStart: len(b.words), wordStart: -1}
	p.run()
}

// shPlain is the state of one plain split.
type shPlain struct {
	b     *shBuilder
	src   string
	depth int

	segStart  int             // index in b.words of the current command's first word
	wordStart int             // start of the current word in src, or -1 between words
	quoted    bool            // the current word had quotes, so it is built in buf
	buf       strings.Builder // the current word, once quotes were removed
	sink      bool            // the next word is a redirection target
	input     bool            // the next word is an input file
	skip      bool            // the next word is a here-document's delimiter, dropped
}

func (p *shPlain) run() {
	src := p.src
	for i := 0; i < len(src); i++ {
		c := src[i]
		switch c {
		case ' ', '\t', '\n', '\r', '\v', '\f':
			p.endWord(i)
		case '\'', '"':
			p.beginQuoted(i)
			j := strings.IndexByte(src[i+1:], c)
			if j < 0 {
				p.buf.WriteString(src[i+1:])
				i = len(src)
				continue
			}
			p.buf.WriteString(src[i+1 : i+1+j])
			i += j + 1
		case ';':
			p.endCommand(i)
		case '|':
			p.endCommand(i)
			if i+1 < len(src) && src[i+1] == '|' {
				i++
			}
		case '&':
			switch {
			case i+1 < len(src) && src[i+1] == '&':
				p.endCommand(i)
				i++
			case i+1 < len(src) && src[i+1] == '>' && p.wordStart < 0:
				i = p.redirect(i, i+1)
			case p.wordStart < 0 && (i+1 == len(src) || shIsSpace(src[i+1])):
				// A lone &: PowerShell's call operator at the start of a
				// command, bash's background operator elsewhere.
				if len(p.b.words) > p.segStart {
					p.endCommand(i)
				}
			default:
				p.char(i)
			}
		case '>':
			p.endWord(i)
			i = p.redirect(i, i)
		case '<':
			p.endWord(i)
			if i+1 < len(src) && src[i+1] == '<' {
				p.skip = true // a here-document's delimiter
			} else {
				p.input = true
			}
			for i+1 < len(src) && src[i+1] == '<' {
				i++
			}
		default:
			if p.wordStart < 0 && (c == '*' || (c >= '0' && c <= '9')) {
				j := i
				for j < len(src) && src[j] >= '0' && src[j] <= '9' {
					j++
				}
				if c == '*' {
					j = i + 1
				}
				if j < len(src) && src[j] == '>' {
					i = p.redirect(i, j)
					continue
				}
			}
			p.char(i)
		}
	}
	p.endCommand(len(src))
}

func shIsSpace(c byte) bool {
	return c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\v' || c == '\f'
}

// char adds src[i] to the current word.
func (p *shPlain) char(i int) {
	if p.wordStart < 0 {
		p.wordStart = i
	}
	if p.quoted {
		p.buf.WriteByte(p.src[i])
	}
}

// beginQuoted switches the current word to being built in buf.
func (p *shPlain) beginQuoted(i int) {
	if p.wordStart < 0 {
		p.wordStart = i
	}
	if !p.quoted {
		p.quoted = true
		p.buf.Reset()
		p.buf.WriteString(p.src[p.wordStart:i])
	}
}

// redirect reads the operator that starts at i with its '>' at gt (2>,
// &>, *>, >>, >|, 2>&1) and returns the index of its last byte.
func (p *shPlain) redirect(i, gt int) int {
	p.endWord(i)
	src := p.src
	j := gt + 1
	if j < len(src) && (src[j] == '>' || src[j] == '|') {
		j++
	}
	if j < len(src) && src[j] == '&' {
		// A duplication such as 2>&1: skip its target descriptor.
		j++
		for j < len(src) && !shIsSpace(src[j]) && !strings.ContainsRune(";|&<>", rune(src[j])) {
			j++
		}
		return j - 1
	}
	p.sink = true
	return j - 1
}

// endWord finishes the current word, if any, ending before src[i].
func (p *shPlain) endWord(i int) {
	if p.wordStart < 0 {
		return
	}
	var w string
	if p.quoted {
		w = p.buf.String()
		p.buf = strings.Builder{}
	} else {
		w = p.src[p.wordStart:i]
	}
	p.wordStart, p.quoted = -1, false
	switch {
	case p.sink:
		p.sink = false
		p.b.addSink(w)
	case p.input:
		p.input = false
		p.b.addInput(w)
	case p.skip:
		p.skip = false
	default:
		p.b.words = append(p.b.words, w)
	}
}

// endCommand finishes the current word and command.
func (p *shPlain) endCommand(i int) {
	p.endWord(i)
	p.sink, p.skip = false, false
	b := p.b
	if len(b.words) == p.segStart {
		return
	}
	words := b.words[p.segStart:len(b.words):len(b.words)]
	if words[0] == "&" {
		words = words[1:]
	}
	k := 0
	for k < len(words) && shIsAssign(words[k]) {
		k++
	}
	if len(words) > 0 {
		b.call(words[k:], p.depth)
	}
	// After the call: a shell -c payload parsed by it adds words of its
	// own, which are no part of the next command.
	p.segStart = len(b.words)
}
