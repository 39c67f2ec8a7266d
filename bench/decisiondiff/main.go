// Command decisiondiff compares the decisions of loopbreaker and of the
// JavaScript reference on the same traces, and groups every call on which
// they disagree by its cause. bench/compare-decisions.sh runs it; see
// docs/compat.md for what each group means.
//
//	decisiondiff -traces DIR -go GO.jsonl -ref REF.jsonl [-default DEFAULT.jsonl] [-details FILE]
//
// GO.jsonl and DEFAULT.jsonl are the output of `loopbreaker replay -json`
// (at the comparison settings, and at the library's defaults), REF.jsonl
// that of the reference's replay script. A call interrupted on one side
// (deny, ask or stop) and allowed on the other is a disagreement; a call
// missing on one side counts as allowed there.
package main

import (
	"bufio"
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"regexp"
	"sort"
	"strings"

	"github.com/loopbreaker/loopbreaker/fingerprint"
	"github.com/loopbreaker/loopbreaker/normalize"
)

// main parses the flags and runs the comparison.
func main() {
	traces := flag.String("traces", "", "directory of the traces replayed")
	goPath := flag.String("go", "", "loopbreaker decisions at the comparison settings")
	refPath := flag.String("ref", "", "reference decisions")
	defPath := flag.String("default", "", "loopbreaker decisions at the default settings (optional)")
	details := flag.String("details", "", "file to write every disagreement to (optional)")
	flag.Parse()
	if *traces == "" || *goPath == "" || *refPath == "" || flag.NArg() > 0 {
		flag.Usage()
		os.Exit(2)
	}
	if err := run(*traces, *goPath, *refPath, *defPath, *details, os.Stdout); err != nil {
		fmt.Fprintln(os.Stderr, "loopbreaker: decisiondiff:", err)
		os.Exit(1)
	}
}

// decision is one line of either side's output.
type decision struct {
	Trace   string   `json:"trace"`
	Line    int      `json:"line"`
	Tool    string   `json:"tool"`
	Verdict string   `json:"verdict"`
	Hits    []string `json:"hits"`
}

// key identifies a call: its trace and 0-based line.
type key struct {
	trace string
	line  int
}

// interrupted reports whether d stopped its call.
func (d decision) interrupted() bool { return d.Verdict != "" && d.Verdict != "allow" }

// load reads a decisions file.
func load(path string) (map[key]decision, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	out := map[key]decision{}
	sc := bufio.NewScanner(f)
	sc.Buffer(nil, 16<<20)
	for n := 1; sc.Scan(); n++ {
		var d decision
		if err := json.Unmarshal(sc.Bytes(), &d); err != nil {
			return nil, fmt.Errorf("%s:%d: %w", path, n, err)
		}
		out[key{d.Trace, d.Line}] = d
	}
	return out, sc.Err()
}

// disagreement is one call the two sides decided differently.
type disagreement struct {
	key
	tool       string
	goSide     bool // loopbreaker interrupted it, the reference did not
	hits       []string
	otherHits  []string
	cause      string
	defaultInt bool // interrupted at loopbreaker's default settings too
	command    string
}

// run compares the decision files and writes the summary to w and every
// disagreement to the details file.
func run(traces, goPath, refPath, defPath, details string, w io.Writer) error {
	goDec, err := load(goPath)
	if err != nil {
		return err
	}
	refDec, err := load(refPath)
	if err != nil {
		return err
	}
	var defDec map[key]decision
	if defPath != "" {
		if defDec, err = load(defPath); err != nil {
			return err
		}
	}
	keys := map[key]bool{}
	for k := range goDec {
		keys[k] = true
	}
	for k := range refDec {
		keys[k] = true
	}
	c := &classifier{dir: traces, lines: map[string][]string{}}
	var diffs []disagreement
	goInt, refInt := 0, 0
	for k := range keys {
		g, r := goDec[k], refDec[k]
		if g.interrupted() {
			goInt++
		}
		if r.interrupted() {
			refInt++
		}
		if g.interrupted() == r.interrupted() {
			continue
		}
		d := disagreement{key: k, tool: g.Tool + r.Tool, goSide: g.interrupted(), hits: r.Hits, otherHits: g.Hits}
		if g.Tool != "" {
			d.tool = g.Tool
		}
		if d.goSide {
			d.hits, d.otherHits = g.Hits, r.Hits
		}
		if defDec != nil {
			d.defaultInt = defDec[k].interrupted()
		}
		d.command, d.cause = c.classify(d)
		diffs = append(diffs, d)
	}
	sort.Slice(diffs, func(i, j int) bool {
		a, b := diffs[i], diffs[j]
		if a.cause != b.cause {
			return a.cause < b.cause
		}
		if a.trace != b.trace {
			return a.trace < b.trace
		}
		return a.line < b.line
	})

	fmt.Fprintf(w, "calls compared: %d\n", len(keys))
	fmt.Fprintf(w, "interrupted by loopbreaker: %d, by the reference: %d\n", goInt, refInt)
	fmt.Fprintf(w, "disagreements: %d\n\n", len(diffs))
	groups := map[string][]disagreement{}
	var order []string
	for _, d := range diffs {
		if groups[d.cause] == nil {
			order = append(order, d.cause)
		}
		groups[d.cause] = append(groups[d.cause], d)
	}
	sort.SliceStable(order, func(i, j int) bool { return len(groups[order[i]]) > len(groups[order[j]]) })
	fmt.Fprintf(w, "%5s %5s %8s  %s\n", "calls", "trace", "default", "cause")
	for _, cause := range order {
		g := groups[cause]
		traces, def := map[string]bool{}, 0
		for _, d := range g {
			traces[d.trace] = true
			if d.defaultInt {
				def++
			}
		}
		defText := "-"
		if defDec != nil {
			defText = fmt.Sprint(def)
		}
		fmt.Fprintf(w, "%5d %5d %8s  %s\n", len(g), len(traces), defText, cause)
	}
	fmt.Fprintln(w, "\n(trace: traces involved; default: how many of the calls loopbreaker also interrupts at its default settings)")

	if details == "" {
		return nil
	}
	f, err := os.Create(details)
	if err != nil {
		return err
	}
	bw := bufio.NewWriter(f)
	for _, cause := range order {
		fmt.Fprintf(bw, "## %s (%d)\n\n", cause, len(groups[cause]))
		for _, d := range groups[cause] {
			side := "loopbreaker interrupts, the reference allows"
			if !d.goSide {
				side = "the reference interrupts, loopbreaker allows"
			}
			fmt.Fprintf(bw, "%s line %d (%s): %s\n", d.trace, d.line, d.tool, side)
			fmt.Fprintf(bw, "  hits: %s\n", strings.Join(clipAll(d.hits), " | "))
			fmt.Fprintf(bw, "  command: %s\n\n", clip(strings.ReplaceAll(d.command, "\n", "⏎"), 200))
		}
	}
	if err := bw.Flush(); err != nil {
		f.Close()
		return err
	}
	return f.Close()
}

// classifier finds the cause of a disagreement from the call itself.
type classifier struct {
	dir   string
	lines map[string][]string
}

// event reads one trace line.
func (c *classifier) event(k key) (ev struct {
	Agent string         `json:"agent"`
	Args  map[string]any `json:"args"`
}) {
	lines, ok := c.lines[k.trace]
	if !ok {
		data, err := os.ReadFile(filepath.Join(c.dir, k.trace))
		if err == nil {
			lines = strings.Split(string(data), "\n")
		}
		c.lines[k.trace] = lines
	}
	if k.line < len(lines) {
		json.Unmarshal([]byte(lines[k.line]), &ev)
	}
	return ev
}

// call returns the tool arguments of a trace line.
func (c *classifier) call(k key) map[string]any { return c.event(k).Args }

// agent returns the agent of a trace line.
func (c *classifier) agent(k key) string {
	if a := c.event(k).Agent; a != "" {
		return a
	}
	return "main"
}

// The reference's shell tools: only these three names, matched exactly.
var refShellTools = map[string]bool{"bash": true, "pwsh": true, "shell": true}

// Patterns of the commands the classifier looks for.
var (
	assignment = regexp.MustCompile(`(^|[;&|\n]\s*)[A-Za-z_][A-Za-z0-9_]*=`)
	aciCommand = regexp.MustCompile(`^(edit|create|open|goto|scroll_up|scroll_down|search_file|search_dir|find_file|submit)\b|^\[File:`)
)

// Options the reference strips from every command, whatever the command;
// loopbreaker strips an option only from the commands it belongs to.
var refGlobalVolatile = map[string]bool{"-m": true, "-A": true, "-s": true, "-S": true, "-f": true, "-L": true, "-k": true}

// classify returns the call's command and the cause of the disagreement d.
func (c *classifier) classify(d disagreement) (string, string) {
	args := c.call(d.key)
	command, _ := args["command"].(string)
	if command == "" {
		command, _ = args["cmd"].(string)
	}
	kinds := kindsOf(d.hits)
	sh := normalize.ParseShell(command)

	if d.goSide {
		switch {
		case !refShellTools[d.tool] && anyKind(kinds, "cmd", "net", "sink"):
			why := "a shell tool only loopbreaker recognises (" + d.tool + ")"
			if assignment.MatchString(command) {
				why += "; NAME=value assignments left out of cmd:"
			}
			return command, "loopbreaker only: " + why
		case kinds["cmd"] && aciCommand.MatchString(command):
			return command, "loopbreaker only: cmd: of agent-tool text (not shell) parsed as shell"
		case kinds["cmd"] && strings.Count(command, "'")%2 == 1:
			return command, "loopbreaker only: cmd: loses the words after an unterminated quote (library bug)"
		case kinds["cmd"] && assignment.MatchString(command):
			return command, "loopbreaker only: NAME=value assignments left out of cmd:"
		case kinds["sink"] && aciCommand.MatchString(command):
			return command, "loopbreaker only: sink: from '>' inside agent-tool text (not shell) parsed as shell"
		case kinds["sink"] && (!firstSinkHit(sh, d.hits) || c.laterSinkBefore(d)):
			return command, "loopbreaker only: sink: counts every output file of a command line, not only the first"
		}
		return command, "loopbreaker only: unexplained (" + strings.Join(sortedKinds(kinds), ",") + ")"
	}
	switch {
	case fingerprint.IsInterfaceEdit(command):
		return command, "reference only: an edit block of an agent-computer interface read as shell words"
	case kinds["cmd"] && hasGlobalVolatile(sh):
		return command, "reference only: cmd: strips curl's options (-m, -s, ...) from every command"
	case kinds["sink"] && !sinkKnown(sh, d.hits):
		return command, "reference only: sink: takes the value of -o of any command as an output file"
	case kinds["cmd"] && strings.ContainsAny(command, `'"`):
		return command, "reference only: cmd: drops quotes, so differently split arguments look alike"
	}
	return command, "reference only: unexplained (" + strings.Join(sortedKinds(kinds), ",") + ")"
}

// laterSinkBefore reports whether one of the sink hits of d was, in one of
// the agent's earlier calls within a window's reach, an output file other
// than the first of its command line, which the reference does not count.
func (c *classifier) laterSinkBefore(d disagreement) bool {
	agent := c.agent(d.key)
	for back, n := 1, 0; d.line-back >= 0 && n < 12; back++ {
		k := key{d.trace, d.line - back}
		if c.agent(k) != agent {
			continue
		}
		n++
		command, _ := c.call(k)["command"].(string)
		sinks := normalize.ParseShell(command).Sinks
		for i := 1; i < len(sinks); i++ {
			for _, h := range d.hits {
				if fp, ok := strings.CutPrefix(h, "sink:"); ok && strings.HasPrefix(fp, sinks[i]+" ") {
					return true
				}
			}
		}
	}
	return false
}

// kindsOf returns the fingerprint kinds of hits.
func kindsOf(hits []string) map[string]bool {
	out := map[string]bool{}
	for _, h := range hits {
		kind, _, _ := strings.Cut(h, ":")
		out[kind] = true
	}
	return out
}

// anyKind reports whether kinds holds any of names.
func anyKind(kinds map[string]bool, names ...string) bool {
	for _, n := range names {
		if kinds[n] {
			return true
		}
	}
	return false
}

// sortedKinds returns the kinds in kinds, sorted.
func sortedKinds(kinds map[string]bool) []string {
	var out []string
	for k := range kinds {
		out = append(out, k)
	}
	sort.Strings(out)
	return out
}

// firstSinkHit reports whether one of the sink hits is the first output
// file of the command line, which is the only one the reference counts.
func firstSinkHit(sh normalize.Shell, hits []string) bool {
	if len(sh.Sinks) == 0 {
		return false
	}
	for _, h := range hits {
		if fp, ok := strings.CutPrefix(h, "sink:"); ok && (fp == sh.Sinks[0] || strings.HasPrefix(fp, sh.Sinks[0]+" ")) {
			return true
		}
	}
	return false
}

// sinkKnown reports whether loopbreaker also finds the output file a sink
// hit names.
func sinkKnown(sh normalize.Shell, hits []string) bool {
	for _, h := range hits {
		fp, ok := strings.CutPrefix(h, "sink:")
		if !ok {
			continue
		}
		for _, s := range sh.Sinks {
			if s == fp {
				return true
			}
		}
	}
	return false
}

// hasGlobalVolatile reports whether a command that is not an HTTP client
// keeps an option that the reference would strip.
func hasGlobalVolatile(sh normalize.Shell) bool {
	for _, c := range sh.Commands {
		if c.Verb == "curl" || c.Verb == "wget" {
			continue
		}
		for _, a := range normalize.StripVolatile(c.Verb, c.Args) {
			if refGlobalVolatile[a] {
				return true
			}
		}
	}
	return false
}

// clipAll shortens each hit for the details file.
func clipAll(hits []string) []string {
	out := make([]string, len(hits))
	for i, h := range hits {
		out[i] = clip(h, 160)
	}
	return out
}

// clip cuts s to n runes, marking the cut.
func clip(s string, n int) string {
	r := []rune(s)
	if len(r) <= n {
		return s
	}
	return string(r[:n]) + "…"
}
