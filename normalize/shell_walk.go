package normalize

import (
	"strings"

	"mvdan.cc/sh/v3/syntax"
)

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
