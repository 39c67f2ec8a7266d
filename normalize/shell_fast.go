package normalize

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

// shIsReserved reports whether bash reads w as grammar, not as a command
// name, in command position. Fast-path text starting with such a word goes
// to the parser.
func shIsReserved(w string) bool {
	switch w {
	case "if", "then", "elif", "else", "fi", "do", "done", "case", "esac", "while", "until", "for", "in",
		"select", "function", "time", "coproc", "declare", "local", "export", "readonly", "typeset",
		"nameref", "let":
		return true
	}
	return false
}

// fast handles src without the parser when it qualifies, and reports whether
// it did.
func (b *shBuilder) fast(src string, depth int) bool {
	// One pass checks the bytes and splits the words; a byte outside the
	// set undoes the words taken so far.
	b.reserve(0)
	start := len(b.words)
	word := -1 // the start of the current word, or -1 between words
	for i := 0; i < len(src); i++ {
		c := src[i]
		switch {
		case c == ' ':
			if word >= 0 {
				b.words = append(b.words, src[word:i])
				word = -1
			}
		case !shFastBytes[c]:
			b.words = b.words[:start]
			return false
		case word < 0:
			word = i
		}
	}
	if word >= 0 {
		b.words = append(b.words, src[word:])
	}
	words := b.words[start:len(b.words):len(b.words)]
	if len(words) == 0 {
		return true
	}
	k := 0
	for k < len(words) && shIsAssign(words[k]) {
		k++
	}
	if shIsReserved(words[0]) || (k < len(words) && shIsReserved(words[k])) {
		b.words = b.words[:start]
		return false
	}
	b.reserveCommands(1)
	b.call(words[k:], depth)
	return true
}
