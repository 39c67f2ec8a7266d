package normalize

import (
	"math/bits"
	"strings"
	"unicode/utf8"

	"mvdan.cc/sh/v3/syntax"
)

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
	// Escaped newlines can join any two tokens (0\<newline>>&- is 0>&-).
	// quick reads one only where it stands after a blank between words,
	// the way agents break long commands, and is then a blank itself;
	// anywhere else it declines.
	// Text nested deeper than the parser is trusted with is split plainly
	// (see text); braces inside words count there too.
	if len(src) > shellMaxBrackets && strings.Count(src, "{") > shellMaxBrackets && shBracketDepth(src) > shellMaxBrackets {
		return false
	}
	// Control bytes (NUL, CR, ...) get special treatment from the parser,
	// even inside quotes; so does invalid UTF-8.
	control, high := shScanBytes(src)
	if control || (high && !utf8.ValidString(src)) {
		return false
	}
	b.reserve(0)
	start := len(b.words)
	var cmdBuf [8]shQuickCmd
	var redirBuf [4]shQuickRedir
	cmds, redirs := cmdBuf[:0], redirBuf[:0]
	fail := func() bool {
		b.words = b.words[:start]
		return false
	}
	// A quote that is never closed, met where quick reads the text just as
	// the parser would, is a syntax error to bash: the text is split
	// plainly, as the parser's failure would have it, without running the
	// parser to find out.
	unclosed := func() bool {
		b.words = b.words[:start]
		b.sh.Parsed = false
		b.plain(src, depth)
		return true
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
		for i+1 < n && src[i] == '\\' && src[i+1] == '\n' && i > 0 && (src[i-1] == ' ' || src[i-1] == '\t') {
			i = shSkipBlanks(src, i+2)
		}
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
			target, _, end, ok := shQuickWord(src, j, &b.scratch)
			if !ok && end < 0 {
				return unclosed()
			}
			if !ok || end == j {
				return fail()
			}
			redirs = append(redirs, shQuickRedir{op: op, fd: fd, target: target})
			i = end
			continue
		}

		// A word.
		w, raw, end, ok := shQuickWord(src, i, &b.scratch)
		if !ok && end < 0 {
			return unclosed()
		}
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
			// Likewise a backslash (A\=1): leave it to the parser.
			if (raw != "[" && shHasByte(raw, '[')) || shHasByte(raw, '\\') {
				return fail()
			}
			if shIsAssign(raw) {
				cur.assign = true
				continue
			}
			if shIsReserved(w) || w == "[[" || w == "]]" || raw[0] == '{' || raw[0] == '}' {
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

// shScanBytes reports whether src holds a byte of shControl, and whether it
// holds a byte of 0x80 or more. It reads eight bytes at a time and looks at
// single bytes only in words that hold a byte below 0x20 or a DEL.
func shScanBytes(src string) (control, high bool) {
	const (
		ones  = 0x0101010101010101
		highs = 0x8080808080808080
	)
	var seen uint64
	i := 0
	for ; i+8 <= len(src); i += 8 {
		x := uint64(src[i]) | uint64(src[i+1])<<8 | uint64(src[i+2])<<16 | uint64(src[i+3])<<24 |
			uint64(src[i+4])<<32 | uint64(src[i+5])<<40 | uint64(src[i+6])<<48 | uint64(src[i+7])<<56
		seen |= x
		// A byte below 0x20 sets its high bit in (x - 0x20..) &^ x, and a
		// DEL is a zero byte of x ^ 0x7f..; no byte is marked when none is.
		// Only the marked bytes need a look (newlines and tabs are
		// marked too, and a borrow may mark a byte above a marked one).
		del := x ^ 0x7f*ones
		for m := ((x-0x20*ones)&^x | (del-ones)&^del) & highs; m != 0; m &= m - 1 {
			if shControl[src[i+bits.TrailingZeros64(m)/8]] {
				return true, false
			}
		}
	}
	for ; i < len(src); i++ {
		if shControl[src[i]] {
			return true, false
		}
		seen |= uint64(src[i])
	}
	return false, seen&highs != 0
}

// shHasByte reports whether s holds c. Command words are short, and a plain
// loop answers sooner than strings.IndexByte's call.
func shHasByte(s string, c byte) bool {
	for i := 0; i < len(s); i++ {
		if s[i] == c {
			return true
		}
	}
	return false
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
// src[i], just after a newline, up to and including the line that is
// exactly delim. An unquoted delimiter lets the body hold expansions, which
// the parser would read: such bodies are left to it, as are bodies that
// never end.
func shQuickHeredocBody(src string, i int, delim string, quoted bool) (int, bool) {
	body := src[i:]
	for from := 0; ; {
		k := strings.Index(body[from:], delim)
		if k < 0 {
			return 0, false
		}
		k += from
		end := k + len(delim)
		if (k == 0 || body[k-1] == '\n') && (end == len(body) || body[end] == '\n') {
			// An unquoted body's expansions are the parser's, and so is an
			// escaped newline in it, which joins lines.
			if !quoted && (strings.ContainsAny(body[:k], "$`") || strings.Contains(body[:k], "\\\n")) {
				return 0, false
			}
			if end < len(body) {
				end++
			}
			return i + end, true
		}
		from = k + 1
	}
}

// shQuickWord lexes the word starting at src[i] for quick: unquoted bytes
// (with backslash escapes), '...', and "..." whose only expansions are plain
// $NAME words. It returns the rendered word, its raw text, the index after
// it, and false if the word holds anything quick does not handle. buf is
// scratch space.
func shQuickWord(src string, i int, buf *[]byte) (word, raw string, end int, ok bool) {
	n := len(src)
	start := i
	plain := true // no quotes or escapes so far: the word is src[start:i]
	*buf = (*buf)[:0]
	for i < n {
		c := src[i]
		if shQuickWordByte[c] {
			// A run of plain bytes, the bulk of most words.
			j := i + 1
			for j < n && shQuickWordByte[src[j]] {
				j++
			}
			if !plain {
				*buf = append(*buf, src[i:j]...)
			}
			i = j
			continue
		}
		switch {
		case c == ' ' || c == '\t' || c == '\n' || c == ';' || c == '|' || c == '&' || c == '<' || c == '>':
			goto done
		case c == '\'':
			j := strings.IndexByte(src[i+1:], '\'')
			if j < 0 {
				return "", "", -1, false
			}
			if plain {
				*buf, plain = append(*buf, src[start:i]...), false
			}
			*buf = append(*buf, src[i+1:i+1+j]...)
			i += j + 2
		case c == '"':
			if plain {
				*buf, plain = append(*buf, src[start:i]...), false
			}
			j := i + 1
			run := j // the start of the text not yet copied to buf
			for j < n && src[j] != '"' {
				switch d := src[j]; {
				case d == '$':
					// A plain $NAME renders as written, and so does a $
					// that ends the quotes or stands before a blank;
					// anything else is the parser's.
					k := shNameEnd(src, j+1)
					if k == j+1 && !shLoneDollar(src, j+1, true) {
						return "", "", 0, false
					}
					j = max(k, j+1)
					continue
				case d == '`':
					return "", "", 0, false
				case d == '\\':
					// Inside double quotes a backslash escapes only $ ` "
					// \ and a newline; before anything else it stands
					// for itself ("a\|b" is a\|b).
					if j+1 >= n || src[j+1] == '\n' {
						return "", "", 0, false
					}
					if shEscapedInDouble(src[j+1]) {
						*buf = append(*buf, src[run:j]...)
						run = j + 1
						j += 2
						continue
					}
				}
				j++
			}
			if j >= n {
				return "", "", -1, false
			}
			*buf = append(*buf, src[run:j]...)
			i = j + 1
		case c == '\\':
			if i+1 >= n || src[i+1] == '\n' {
				return "", "", 0, false
			}
			if plain {
				*buf, plain = append(*buf, src[start:i]...), false
			}
			*buf = append(*buf, src[i+1])
			i += 2
		case c == '$':
			// A plain $NAME (not ${...}, $(...), $1 or $?), or a $ before a
			// blank or at the end, renders as written, so the word stays
			// text.
			k := shNameEnd(src, i+1)
			if k == i+1 {
				if !shLoneDollar(src, i+1, false) {
					return "", "", 0, false
				}
			}
			if !plain {
				*buf = append(*buf, src[i:k]...)
			}
			i = k
		default:
			return "", "", 0, false
		}
	}
done:
	raw = src[start:i]
	if plain {
		return raw, raw, i, true
	}
	if whole := len(raw) - 2; whole == len(*buf) && (raw[0] == '\'' || raw[0] == '"') && raw[len(raw)-1] == raw[0] {
		// One quoted piece and nothing else ("a b", 'x'): what it renders
		// is the text between the quotes, so no copy is needed.
		return raw[1 : len(raw)-1], raw, i, true
	}
	return string(*buf), raw, i, true
}

// shLoneDollar reports whether a $ whose next byte is src[i] stands for
// itself: at the end of the text, before a blank, or, inside double quotes,
// before the closing quote.
func shLoneDollar(src string, i int, quoted bool) bool {
	if i >= len(src) {
		return true
	}
	switch src[i] {
	case ' ', '\t', '\n':
		return true
	case '"':
		return quoted
	}
	return false
}

// shNameEnd returns the end of the shell variable name starting at src[i]
// (a letter or underscore, then letters, digits and underscores), or i when
// none starts there.
func shNameEnd(src string, i int) int {
	if i >= len(src) {
		return i
	}
	if c := src[i]; !(c == '_' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z') {
		return i
	}
	j := i + 1
	for j < len(src) {
		c := src[j]
		if !(c == '_' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9') {
			break
		}
		j++
	}
	return j
}
