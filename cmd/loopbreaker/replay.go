package main

import (
	"bufio"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"text/tabwriter"
	"time"
	"unicode/utf8"

	"github.com/loopbreaker/loopbreaker"
	"github.com/loopbreaker/loopbreaker/internal/trace"
)

// replayUsage is the help text of replay.
const replayUsage = `Usage: loopbreaker replay [-config FILE] [-json] [-approve] TRACE.jsonl|DIR...

Replays recorded traces through the breaker, each through a fresh Breaker,
as a host would: a {"event":"user"} line starts a new turn, every call is
checked, and the recorded result of an allowed call is handed to Record.
An Ask is answered "declined" unless -approve is given. A directory stands
for every *.jsonl file in it, in name order.

Without -json it prints, for every trace with an interrupted call (deny,
ask or stop), those calls, then a summary of all traces. With -json it
prints one JSON object a line for every call:

  {"trace":"NAME.jsonl","line":7,"agent":"main","tool":"bash",
   "verdict":"deny","hits":["net:open.canada.ca/x 5/5"]}

trace is the file's base name, line its 0-based line number (as the corpus
scorer counts), verdict what Check returned ("allow", "deny", "ask" or
"stop"; an Ask is reported as "ask" whatever the answer), and hits the
fingerprints that reached their limit, each "FINGERPRINT COUNT/LIMIT"
(empty on allow). Calls of excluded tools are listed as allowed.

Malformed trace lines are reported on standard error as FILE:N (1-based,
as an editor counts) and skipped; the exit status is then 1.

Flags:
  -config FILE  a JSON configuration (see check-config); default: the
                library's defaults
  -json         print one JSON decision a line instead of the report
  -approve      answer every Ask "approved" instead of "declined"
`

// Progress is shown on a terminal only for inputs at least this large.
const (
	progressMinFiles = 64
	progressMinBytes = 8 << 20
	progressEvery    = 100 * time.Millisecond // between two updates
)

// humanHitChars bounds a fingerprint quoted in the human report; -json
// gives it as the breaker reported it (cut to Config.PreviewChars).
const humanHitChars = 120

// decision is one decided call, in the form -json writes.
type decision struct {
	Trace   string              `json:"trace"`
	Line    int                 `json:"line"`
	Agent   string              `json:"agent"`
	Tool    string              `json:"tool"`
	Verdict loopbreaker.Verdict `json:"verdict"`
	Hits    []string            `json:"hits"`
}

// traceReport is what replaying one trace found.
type traceReport struct {
	name        string
	calls       int
	verdicts    [4]int     // by loopbreaker.Verdict
	first       int        // line of the first interrupted call, or -1
	interrupted []decision // the calls that were not allowed
}

// replayer replays traces and writes their decisions.
type replayer struct {
	cfg     loopbreaker.Config
	approve bool
	json    bool
	out     *bufio.Writer
	enc     *json.Encoder // on out, for -json; made on first use
	stderr  io.Writer
	failed  bool // an error was reported: the exit status is 1
}

// runReplay is the replay command.
func runReplay(args []string, stdout, stderr io.Writer) int {
	fs := newFlagSet("replay", replayUsage, stderr)
	configPath := fs.String("config", "", "JSON configuration `FILE`")
	asJSON := fs.Bool("json", false, "print one JSON decision a line")
	approve := fs.Bool("approve", false, "approve every Ask")
	if code, done := parseFlags(fs, replayUsage, args, stdout); done {
		return code
	}
	if fs.NArg() == 0 {
		return usageError(stderr, "replay", replayUsage, "no trace given")
	}
	cfg, ok := loadConfig(*configPath, stderr)
	if !ok {
		return exitError
	}
	if _, err := loopbreaker.New(cfg); err != nil {
		printErrors(stderr, *configPath, err)
		return exitError
	}
	files, size, errs := expandInputs(fs.Args())
	if len(errs) > 0 {
		for _, err := range errs {
			printErrors(stderr, "", err)
		}
		return exitError
	}

	r := &replayer{cfg: cfg, approve: *approve, json: *asJSON, out: bufio.NewWriter(stdout), stderr: stderr}
	progress := isTerminal(stderr) && (len(files) >= progressMinFiles || size >= progressMinBytes)
	var reports []traceReport
	var shown time.Time
	for i, path := range files {
		if progress && time.Since(shown) >= progressEvery {
			fmt.Fprintf(stderr, "\rloopbreaker: replay: %d/%d traces", i, len(files))
			shown = time.Now()
		}
		if rep, ok := r.replayFile(path); ok {
			reports = append(reports, rep)
		}
	}
	if progress {
		fmt.Fprint(stderr, "\r\x1b[K")
	}
	if !r.json {
		writeSummary(r.out, reports)
	}
	if err := r.out.Flush(); err != nil {
		printErrors(stderr, "", fmt.Errorf("writing output: %w", err))
		return exitError
	}
	if r.failed {
		return exitError
	}
	return exitOK
}

// expandInputs turns the command's arguments into the trace files to read:
// a file stands for itself, a directory for its *.jsonl files in name
// order. It returns their total size and an error for every argument that
// names nothing readable or a directory without traces.
func expandInputs(args []string) (files []string, size int64, errs []error) {
	for _, arg := range args {
		fi, err := os.Stat(arg)
		if err != nil {
			errs = append(errs, pathError(err))
			continue
		}
		if !fi.IsDir() {
			files = append(files, arg)
			size += fi.Size()
			continue
		}
		entries, err := os.ReadDir(arg)
		if err != nil {
			errs = append(errs, pathError(err))
			continue
		}
		n := 0
		for _, e := range entries { // ReadDir sorts by name
			if e.IsDir() || !strings.HasSuffix(e.Name(), ".jsonl") {
				continue
			}
			files = append(files, filepath.Join(arg, e.Name()))
			if info, err := e.Info(); err == nil {
				size += info.Size()
			}
			n++
		}
		if n == 0 {
			errs = append(errs, fmt.Errorf("%s: directory holds no *.jsonl trace", arg))
		}
	}
	return files, size, errs
}

// replayFile reads and replays one trace, writing its -json lines as it
// goes. Malformed lines are reported and skipped; a trace that cannot be
// read at all is reported and gives ok=false.
func (r *replayer) replayFile(path string) (rep traceReport, ok bool) {
	f, err := os.Open(path)
	if err != nil {
		r.fail("", pathError(err))
		return rep, false
	}
	events, bad, err := trace.Read(f)
	f.Close()
	for _, le := range bad {
		r.fail("", fmt.Errorf("%s:%d: %w", path, le.Line+1, le.Err))
	}
	if err != nil {
		// Read stops at the first line it cannot scan (one longer than
		// the trace package accepts); the trace is not replayed in part.
		r.fail("", fmt.Errorf("%s: after line %d: %w", path, lastLine(events)+1, err))
		return rep, false
	}

	b, err := loopbreaker.New(r.cfg)
	if err != nil { // validated by the caller; kept for safety
		r.fail(path, err)
		return rep, false
	}
	rep = traceReport{name: filepath.Base(path), first: -1}
	trace.Replay(b, events, r.approve, func(ev trace.Event, d loopbreaker.Decision) {
		rep.calls++
		rep.verdicts[d.Verdict]++
		if d.Verdict == loopbreaker.Allow && !r.json {
			return
		}
		dec := decision{Trace: rep.name, Line: ev.Line, Agent: ev.Agent, Tool: ev.Call.Tool, Verdict: d.Verdict, Hits: make([]string, len(d.Hits))}
		for i, h := range d.Hits {
			if !r.json {
				h.Fingerprint = clipRunes(h.Fingerprint, humanHitChars)
			}
			dec.Hits[i] = h.String()
		}
		if r.json {
			r.writeJSON(dec)
		}
		if d.Verdict != loopbreaker.Allow {
			if rep.first < 0 {
				rep.first = ev.Line
			}
			if !r.json {
				rep.interrupted = append(rep.interrupted, dec)
			}
		}
	})
	if !r.json {
		r.writeTrace(rep)
	}
	return rep, true
}

// lastLine is the line of the last event read, or -1.
func lastLine(events []trace.Event) int {
	if len(events) == 0 {
		return -1
	}
	return events[len(events)-1].Line
}

// fail reports an error and marks the run as failed.
func (r *replayer) fail(file string, err error) {
	printErrors(r.stderr, file, err)
	r.failed = true
}

// writeJSON writes one decision as a line of JSON. '<', '>' and '&' are
// written as they are, since the output is not HTML.
func (r *replayer) writeJSON(d decision) {
	if r.enc == nil {
		r.enc = json.NewEncoder(r.out)
		r.enc.SetEscapeHTML(false)
	}
	if err := r.enc.Encode(d); err != nil { // only a Verdict outside the four could fail
		r.fail("", fmt.Errorf("%s:%d: %w", d.Trace, d.Line+1, err))
	}
}

// writeTrace writes the interrupted calls of one trace, if it has any.
func (r *replayer) writeTrace(rep traceReport) {
	if len(rep.interrupted) == 0 {
		return
	}
	fmt.Fprintf(r.out, "%s: %d of %d calls interrupted\n", rep.name, len(rep.interrupted), rep.calls)
	tw := tabwriter.NewWriter(r.out, 0, 4, 2, ' ', 0)
	fmt.Fprintln(tw, "  line\tverdict\tagent\ttool\thits")
	for _, d := range rep.interrupted {
		verdict := d.Verdict.String()
		if d.Verdict == loopbreaker.Ask {
			if r.approve {
				verdict += " (approved)"
			} else {
				verdict += " (declined)"
			}
		}
		fmt.Fprintf(tw, "  %d\t%s\t%s\t%s\t%s\n", d.Line, verdict, d.Agent, d.Tool, strings.Join(d.Hits, ", "))
	}
	tw.Flush()
	fmt.Fprintln(r.out)
}

// writeSummary writes the totals over every trace replayed.
func writeSummary(w io.Writer, reports []traceReport) {
	var calls int
	var verdicts [4]int
	var firsts []int
	for _, rep := range reports {
		calls += rep.calls
		for v, n := range rep.verdicts {
			verdicts[v] += n
		}
		if rep.first >= 0 {
			firsts = append(firsts, rep.first)
		}
	}
	rows := [][2]string{
		{"traces", fmt.Sprint(len(reports))},
		{"calls", fmt.Sprint(calls)},
		{"allowed", fmt.Sprint(verdicts[loopbreaker.Allow])},
		{"denied", fmt.Sprint(verdicts[loopbreaker.Deny])},
		{"asked", fmt.Sprint(verdicts[loopbreaker.Ask])},
		{"stopped", fmt.Sprint(verdicts[loopbreaker.Stop])},
		{"traces interrupted (deny, ask or stop)", fmt.Sprint(len(firsts))},
		{"median line of the first interruption", "-"},
	}
	if len(firsts) > 0 {
		rows[len(rows)-1][1] = median(firsts)
	}
	labelWidth, valueWidth := 0, 0
	for _, r := range rows {
		labelWidth = max(labelWidth, len(r[0]))
		valueWidth = max(valueWidth, len(r[1]))
	}
	fmt.Fprintln(w, "summary")
	for _, r := range rows {
		fmt.Fprintf(w, "  %-*s  %*s\n", labelWidth, r[0], valueWidth, r[1])
	}
}

// median returns the median of xs (the mean of the two middle values when
// there is an even number), formatted without needless decimals.
func median(xs []int) string {
	s := slices.Clone(xs)
	slices.Sort(s)
	n := len(s)
	if n%2 == 1 {
		return fmt.Sprint(s[n/2])
	}
	sum := s[n/2-1] + s[n/2]
	if sum%2 == 0 {
		return fmt.Sprint(sum / 2)
	}
	return fmt.Sprintf("%d.5", sum/2)
}

// clipRunes cuts s to at most n runes, marking the cut with "…".
func clipRunes(s string, n int) string {
	if utf8.RuneCountInString(s) <= n {
		return s
	}
	i := 0
	for k := range s {
		if i == n-1 {
			return s[:k] + "…"
		}
		i++
	}
	return s
}

// isTerminal reports whether w is a character device, such as a terminal.
func isTerminal(w io.Writer) bool {
	f, ok := w.(*os.File)
	if !ok {
		return false
	}
	fi, err := f.Stat()
	return err == nil && fi.Mode()&os.ModeCharDevice != 0
}
