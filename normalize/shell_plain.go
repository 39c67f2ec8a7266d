package normalize

import "strings"

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
