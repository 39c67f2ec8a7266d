package fingerprint

import (
	"path"
	"slices"
	"strings"

	"github.com/loopbreaker/loopbreaker/normalize"
)

// isFilter reports whether a program only reshapes another command's
// output; after the first command of a line it says nothing about what was
// asked.
func isFilter(verb string) bool {
	switch verb {
	case "sort", "head", "tail", "wc", "uniq", "cut", "tr", "less", "more", "nl", "column", "tee", "cat":
		return true
	}
	return false
}

// positionArgs are the arguments of file tools that only choose which part of
// a file to show; the observation key of a file tool ignores them.
var positionArgs = map[string]bool{
	"offset": true, "limit": true, "view_range": true, "start_line": true, "end_line": true,
	"line": true, "lines": true, "max_lines": true,
}

// observeShell returns the observation key of a parsed command line: the
// hash of the question it asks, whatever the spelling. Each command that is
// not navigation, and not a filter after the first, contributes its verb and
// its arguments with volatile flags removed, paths cleaned and the order
// sorted, so that reordered flags, "./x" against "x" and "cd X &&" prefixes
// fold together.
func observeShell(sh normalize.Shell, stripped [][]string) uint64 {
	var h hasher
	h.init(seedA^0x6f6273, seedB)
	kept := 0
	var buf [16]string
	for ci, c := range sh.Commands {
		if isNavigation(c.Verb) || (kept > 0 && isFilter(c.Verb)) {
			continue
		}
		kept++
		h.word(tagArray)
		h.str(c.Verb)
		args := append(buf[:0], stripped[ci]...)
		for i, w := range args {
			args[i] = cleanPathWord(w)
		}
		slices.Sort(args)
		for _, w := range slices.Compact(args) {
			h.str(w)
		}
	}
	for _, in := range sh.Inputs {
		h.str(in)
	}
	return h.sum().a
}

// subject returns the hash of a program and the operands it works on: its
// arguments that are neither options nor plain numbers, cleaned as paths and
// sorted. "tail -n 3 job.log" and "tail -3 ./job.log" have one subject;
// "head -1 a.py" and "head -1 b.py" do not.
func subject(verb string, args []string) uint64 {
	var h hasher
	h.init(seedA^0x7375626a, seedB)
	h.str(verb)
	var buf [16]string
	ops := buf[:0]
	for _, w := range args {
		if w == "" || w[0] == '-' || isNumber(w) {
			continue
		}
		ops = append(ops, cleanPathWord(w))
	}
	slices.Sort(ops)
	for _, w := range slices.Compact(ops) {
		h.str(w)
	}
	return h.sum().a
}

func isNumber(w string) bool {
	for i := 0; i < len(w); i++ {
		if w[i] < '0' || w[i] > '9' {
			return false
		}
	}
	return w != ""
}

// cleanPathWord cleans words that look like relative or absolute paths
// ("./a//b/" becomes "a/b", "./" becomes ".").
func cleanPathWord(w string) string {
	if w == "" || w[0] == '-' || !strings.ContainsRune(w, '/') || strings.Contains(w, "://") {
		return w
	}
	return path.Clean(w)
}

// observeOther returns the observation key of a non-shell call: the hash of
// the tool and its arguments without decoys and without the ones that only
// choose a position in a file (offset, limit, view_range, ...).
func observeOther(tool string, args map[string]any, d *decoys) uint64 {
	o := decoys{set: d.set, filter: d.filter, position: true}
	return callKey("obs:"+tool, args, &o).a
}
