package normalize

import (
	"strings"
	"unicode/utf8"

	"mvdan.cc/sh/v3/syntax"
)

// Word rendering: a parsed shell word becomes the string a command would
// receive, as far as that can be told without running anything. Quotes go,
// escapes are resolved, and every expansion stays as stable text: $NAME for a
// plain parameter, the source text for anything more complex (${A:-x},
// $(mktemp), $((1+2)), <(sort f)). Nothing is looked up: no environment, no
// home directories (~ stays ~), no files.

// shRender renders word, whose positions point into src.
func shRender(src string, word *syntax.Word) string {
	if word == nil || len(word.Parts) == 0 {
		return ""
	}
	if len(word.Parts) == 1 {
		if s, ok := shRenderSimple(src, word.Parts[0]); ok {
			return s
		}
	}
	var b strings.Builder
	shRenderParts(&b, src, word.Parts, false)
	return b.String()
}

// shRenderParts renders a sequence of parts. A plain ${NAME} becomes $NAME,
// except when a name character follows it ("a${B}c" must not read $Bc).
func shRenderParts(b *strings.Builder, src string, parts []syntax.WordPart, inDbl bool) {
	for i, p := range parts {
		if pe, ok := p.(*syntax.ParamExp); ok && shSimpleParam(pe) && i+1 < len(parts) {
			if l, ok := parts[i+1].(*syntax.Lit); ok && l.Value != "" && shIsNameByte(l.Value[0]) {
				b.WriteString("${")
				b.WriteString(pe.Param.Value)
				b.WriteByte('}')
				continue
			}
		}
		shRenderPart(b, src, p, inDbl)
	}
}

func shIsNameByte(c byte) bool {
	return c == '_' || (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9')
}

// shRenderSimple renders the common one-part words without building a new
// string.
func shRenderSimple(src string, part syntax.WordPart) (string, bool) {
	switch p := part.(type) {
	case *syntax.Lit:
		if strings.IndexByte(p.Value, '\\') < 0 {
			return p.Value, true
		}
	case *syntax.SglQuoted:
		if !p.Dollar {
			return p.Value, true
		}
	case *syntax.DblQuoted:
		switch len(p.Parts) {
		case 0:
			return "", true
		case 1:
			if l, ok := p.Parts[0].(*syntax.Lit); ok && strings.IndexByte(l.Value, '\\') < 0 {
				return l.Value, true
			}
		}
	case *syntax.CmdSubst, *syntax.ArithmExp, *syntax.ProcSubst:
		if s, ok := shSource(src, part); ok {
			return s, true
		}
	}
	return "", false
}

// shRenderPart appends the rendering of one word part to b. inDbl tells
// whether the part sits inside double quotes, which changes how backslashes
// in literal text are read.
func shRenderPart(b *strings.Builder, src string, part syntax.WordPart, inDbl bool) {
	switch p := part.(type) {
	case *syntax.Lit:
		if inDbl {
			shUnescapeDouble(b, p.Value)
		} else {
			shUnescapeBare(b, p.Value)
		}
	case *syntax.SglQuoted:
		if p.Dollar {
			shUnescapeANSIC(b, p.Value)
		} else {
			b.WriteString(p.Value)
		}
	case *syntax.DblQuoted:
		shRenderParts(b, src, p.Parts, true)
	case *syntax.ParamExp:
		if shSimpleParam(p) {
			b.WriteByte('$')
			b.WriteString(p.Param.Value)
		} else {
			shWriteSource(b, src, p, "${…}")
		}
	case *syntax.CmdSubst:
		shWriteSource(b, src, p, "$(…)")
	case *syntax.ArithmExp:
		shWriteSource(b, src, p, "$((…))")
	case *syntax.ProcSubst:
		if p.Op == syntax.CmdOut {
			shWriteSource(b, src, p, ">(…)")
		} else {
			shWriteSource(b, src, p, "<(…)")
		}
	case *syntax.ExtGlob:
		b.WriteString(p.Op.String())
		if p.Pattern != nil {
			b.WriteString(p.Pattern.Value)
		}
		b.WriteByte(')')
	default:
		shWriteSource(b, src, part, "…")
	}
}

// shSimpleParam reports whether p is a bare $NAME or ${NAME}.
func shSimpleParam(p *syntax.ParamExp) bool {
	return p.Param != nil && p.Flags == nil && !p.Excl && !p.Length && !p.Width && !p.IsSet &&
		p.Split == syntax.OptUnset && p.GlobSubst == syntax.OptUnset && p.RcExpand == syntax.OptUnset &&
		p.NestedParam == nil && p.Index == nil && len(p.Modifiers) == 0 && p.Slice == nil &&
		p.Repl == nil && p.Names == 0 && p.Exp == nil
}

// shSource returns the source text of node, if its positions are usable.
func shSource(src string, node syntax.Node) (string, bool) {
	start, end := node.Pos(), node.End()
	if !start.IsValid() || !end.IsValid() {
		return "", false
	}
	s, e := start.Offset(), end.Offset()
	if s >= e || e > uint(len(src)) {
		return "", false
	}
	return src[s:e], true
}

// shWriteSource writes node's source text, or placeholder when the parser
// could not place it (recovered from a syntax error).
func shWriteSource(b *strings.Builder, src string, node syntax.Node, placeholder string) {
	if s, ok := shSource(src, node); ok {
		b.WriteString(s)
		return
	}
	b.WriteString(placeholder)
}

// shUnescapeBare resolves backslashes outside quotes: each escapes the next
// character, and an escaped newline disappears.
func shUnescapeBare(b *strings.Builder, s string) {
	for i := 0; i < len(s); i++ {
		c := s[i]
		if c != '\\' || i+1 == len(s) {
			b.WriteByte(c)
			continue
		}
		i++
		if s[i] != '\n' {
			b.WriteByte(s[i])
		}
	}
}

// shUnescapeDouble resolves backslashes inside double quotes, where only
// $, `, ", \ and newline can be escaped; other backslashes stay.
func shUnescapeDouble(b *strings.Builder, s string) {
	for i := 0; i < len(s); i++ {
		c := s[i]
		if c != '\\' || i+1 == len(s) {
			b.WriteByte(c)
			continue
		}
		switch next := s[i+1]; {
		case shEscapedInDouble(next):
			i++
			b.WriteByte(next)
		case next == '\n':
			i++
		default:
			b.WriteByte(c)
		}
	}
}

// shEscapedInDouble reports whether a backslash before c, inside double
// quotes, escapes it (the newline, which it removes, aside).
func shEscapedInDouble(c byte) bool {
	return c == '$' || c == '`' || c == '"' || c == '\\'
}

// shUnescapeANSIC decodes the body of a $'...' string: \n, \t, \xHH, \uHHHH,
// octal \NNN and the like. Unknown escapes are kept as written.
func shUnescapeANSIC(b *strings.Builder, s string) {
	for i := 0; i < len(s); i++ {
		c := s[i]
		if c != '\\' || i+1 == len(s) {
			b.WriteByte(c)
			continue
		}
		i++
		switch e := s[i]; e {
		case 'a':
			b.WriteByte('\a')
		case 'b':
			b.WriteByte('\b')
		case 'e', 'E':
			b.WriteByte(0x1b)
		case 'f':
			b.WriteByte('\f')
		case 'n':
			b.WriteByte('\n')
		case 'r':
			b.WriteByte('\r')
		case 't':
			b.WriteByte('\t')
		case 'v':
			b.WriteByte('\v')
		case '\\', '\'', '"', '?':
			b.WriteByte(e)
		case 'x', 'u', 'U':
			width := 2
			switch e {
			case 'u':
				width = 4
			case 'U':
				width = 8
			}
			v, n := shHexPrefix(s[i+1:], width)
			if n == 0 {
				b.WriteByte('\\')
				b.WriteByte(e)
				continue
			}
			i += n
			if e == 'x' {
				b.WriteByte(byte(v))
			} else if utf8.ValidRune(rune(v)) {
				b.WriteRune(rune(v))
			} else {
				b.WriteRune(utf8.RuneError)
			}
		case '0', '1', '2', '3', '4', '5', '6', '7':
			v, n := 0, 0
			for n < 3 && i+n < len(s) && s[i+n] >= '0' && s[i+n] <= '7' {
				v = v*8 + int(s[i+n]-'0')
				n++
			}
			i += n - 1
			b.WriteByte(byte(v))
		default:
			b.WriteByte('\\')
			b.WriteByte(e)
		}
	}
}

// shHexPrefix reads up to width hex digits from the start of s.
func shHexPrefix(s string, width int) (v uint32, n int) {
	for n < width && n < len(s) {
		c := s[n]
		var d byte
		switch {
		case c >= '0' && c <= '9':
			d = c - '0'
		case c >= 'a' && c <= 'f':
			d = c - 'a' + 10
		case c >= 'A' && c <= 'F':
			d = c - 'A' + 10
		default:
			return v, n
		}
		v = v<<4 | uint32(d)
		n++
	}
	return v, n
}
