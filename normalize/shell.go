package normalize

import (
	"path"
	"strconv"
	"strings"
	"sync"

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
	var p ShellParser
	return p.Parse(cmd)
}

// A ShellParser parses command lines as ParseShell and ParsePlain do, but
// keeps the memory of one result for the next: a Shell it returns shares
// its slices with the parser and is valid only until the parser's next
// call. The strings in it stay valid. A host that parses many command lines
// keeps a parser per goroutine (or in a sync.Pool) and copies whatever it
// keeps.
//
// The zero value is ready to use. A ShellParser is not safe for concurrent
// use.
type ShellParser struct {
	b shBuilder
}

// Parse is ParseShell with the parser's memory.
func (p *ShellParser) Parse(cmd string) Shell {
	if len(cmd) > shellMaxInput {
		return p.ParsePlain(cmd[:shellMaxInput])
	}
	b := p.reset(len(cmd))
	b.sh.Parsed = true
	if !shGuard(func() { b.text(cmd, 0) }) {
		// A bug of ours must not reach the caller either.
		return p.ParsePlain(cmd)
	}
	return b.result()
}

// ParsePlain is ParsePlain with the parser's memory.
func (p *ShellParser) ParsePlain(cmd string) Shell {
	if len(cmd) > shellMaxInput {
		cmd = cmd[:shellMaxInput]
	}
	b := p.reset(len(cmd))
	if !shGuard(func() { b.plain(cmd, 0) }) {
		return Shell{}
	}
	b.sh.Parsed = false
	return b.result()
}

// shKeepWords and shKeepScratch bound the word arena and the scratch bytes
// that a ShellParser keeps between calls, so that one huge command line does
// not pin its memory for good.
const (
	shKeepWords   = 1024
	shKeepScratch = 4096
)

// reset readies p's builder for a text of n bytes, keeping the capacity of
// its slices. The strings they held are not cleared: they are overwritten by
// later calls, and a parser keeps at most shKeepWords of them alive.
func (p *ShellParser) reset(n int) *shBuilder {
	b := &p.b
	if cap(b.words) > shKeepWords {
		b.words = nil
	}
	if cap(b.scratch) > shKeepScratch {
		b.scratch = nil
	}
	b.sh.Commands = b.sh.Commands[:0]
	b.sh.Sinks = b.sh.Sinks[:0]
	b.sh.Inputs = b.sh.Inputs[:0]
	b.sh.Parsed = false
	b.words = b.words[:0]
	b.scratch = b.scratch[:0]
	b.noReparse, b.noFast = false, false
	b.hint = min(n/16+4, 32)
	return b
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
	var p ShellParser
	return p.ParsePlain(cmd)
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

// shBuilder collects the result of one call. ShellParser.reset must reset
// every field.
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
	// scratch is where quick renders quoted words.
	scratch []byte
}

// shNewBuilder returns a builder for a text of n bytes. Its word arena is
// made on first use, sized by the path that uses it.
func shNewBuilder(n int) *shBuilder {
	return &shBuilder{hint: min(n/16+4, 32)}
}

// reserve makes room for k more words in the arena, and for the first use
// of the arena at least the size hint.
func (b *shBuilder) reserve(k int) {
	if cap(b.words) == 0 {
		b.words = make([]string, 0, max(k, b.hint))
		return
	}
	if cap(b.words)-len(b.words) < k {
		b.words = append(make([]string, 0, len(b.words)+max(k, b.hint)), b.words...)
	}
}

// reserveCommands sizes the command list for k commands, if it has none.
func (b *shBuilder) reserveCommands(k int) {
	if cap(b.sh.Commands) == 0 {
		b.sh.Commands = make([]SimpleCommand, 0, min(k, shellMaxCommands))
	}
}

// result is the finished Shell; an empty list is nil, whichever path built
// it and whether or not the builder had memory from an earlier call.
func (b *shBuilder) result() Shell {
	sh := b.sh
	if len(sh.Commands) == 0 {
		sh.Commands = nil
	}
	if len(sh.Sinks) == 0 {
		sh.Sinks = nil
	}
	if len(sh.Inputs) == 0 {
		sh.Inputs = nil
	}
	return sh
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
	if cap(b.sh.Sinks) == 0 {
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
