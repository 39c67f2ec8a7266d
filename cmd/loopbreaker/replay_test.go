package main

import (
	"bytes"
	"encoding/json"
	"flag"
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"regexp"
	"sort"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"
)

// update makes TestGoldenTraces rewrite the golden files.
var update = flag.Bool("update", false, "rewrite the golden files of testdata/traces")

// traceFiles returns the traces of testdata/traces, sorted.
func traceFiles(t *testing.T) []string {
	t.Helper()
	files, err := filepath.Glob(filepath.Join(tracesDir, "*.jsonl"))
	require.NoError(t, err)
	require.NotEmpty(t, files)
	sort.Strings(files)
	return files
}

// goldenPath is the golden file of a trace: NAME.golden beside NAME.jsonl.
func goldenPath(trace string) string { return strings.TrimSuffix(trace, ".jsonl") + ".golden" }

// TestGoldenTraces compares the -json output of every trace with its golden
// file.
func TestGoldenTraces(t *testing.T) {
	for _, trace := range traceFiles(t) {
		t.Run(filepath.Base(trace), func(t *testing.T) {
			r := runCmd(t, "replay", "-json", trace)
			require.Equal(t, exitOK, r.code, r.stderr)
			require.Empty(t, r.stderr)
			golden := goldenPath(trace)
			if *update {
				require.NoError(t, os.WriteFile(golden, []byte(r.stdout), 0o644))
				return
			}
			want, err := os.ReadFile(golden)
			require.NoError(t, err, "run go test ./cmd/loopbreaker -update to create it")
			require.Equal(t, string(want), r.stdout)
		})
	}
}

// interruptions replays a trace with -json and returns the verdict of
// every call that was not allowed, by line.
func interruptions(t *testing.T, args ...string) map[int]string {
	t.Helper()
	r := runCmd(t, append([]string{"replay", "-json"}, args...)...)
	require.Equal(t, exitOK, r.code, r.stderr)
	got := map[int]string{}
	for _, d := range decodeDecisions(t, r.stdout) {
		if d.Verdict != "allow" {
			got[d.Line] = d.Verdict
		}
	}
	return got
}

// TestTraceBehaviour states, independently of the golden files, where each
// trace must be interrupted (see testdata/traces/README.md).
func TestTraceBehaviour(t *testing.T) {
	for _, c := range []struct {
		trace string
		flags []string
		want  map[int]string
	}{
		{trace: "canada-pingpong.jsonl", want: map[int]string{6: "deny", 7: "deny"}},
		{trace: "description-decoys.jsonl", want: map[int]string{6: "deny", 7: "deny"}},
		{trace: "curl-wget-cycle.jsonl", want: map[int]string{7: "deny", 8: "deny"}},
		{trace: "pagination.jsonl", want: map[int]string{}},
		{trace: "local-ask.jsonl", want: map[int]string{6: "ask", 7: "deny"}},
		{trace: "local-ask.jsonl", flags: []string{"-approve"}, want: map[int]string{6: "ask"}},
		{trace: "mswe-java__sweagent-deepseek-chat-v2__fasterxml__jackson-dataformat-xml-590.jsonl", want: map[int]string{11: "deny", 12: "deny", 13: "deny", 14: "deny", 15: "deny"}},
		{trace: "openhands-c35sonnet__django__django-11333.jsonl", want: map[int]string{}},
		{trace: "mini-gemini3pro__sympy__sympy-24539.jsonl", want: map[int]string{}},
	} {
		t.Run(c.trace+strings.Join(c.flags, ""), func(t *testing.T) {
			got := interruptions(t, append(c.flags, filepath.Join(tracesDir, c.trace))...)
			require.Equal(t, c.want, got)
		})
	}
}

// jsonDecision mirrors one -json line.
type jsonDecision struct {
	Trace   string   `json:"trace"`
	Line    int      `json:"line"`
	Agent   string   `json:"agent"`
	Tool    string   `json:"tool"`
	Verdict string   `json:"verdict"`
	Hits    []string `json:"hits"`
}

// decodeDecisions decodes -json output, refusing unknown or missing keys.
func decodeDecisions(t *testing.T, out string) []jsonDecision {
	t.Helper()
	var ds []jsonDecision
	for _, line := range strings.Split(strings.TrimSuffix(out, "\n"), "\n") {
		if line == "" {
			continue
		}
		var keys map[string]json.RawMessage
		require.NoError(t, json.Unmarshal([]byte(line), &keys), line)
		require.Len(t, keys, 6, line)
		dec := json.NewDecoder(strings.NewReader(line))
		dec.DisallowUnknownFields()
		var d jsonDecision
		require.NoError(t, dec.Decode(&d), line)
		ds = append(ds, d)
	}
	return ds
}

// hitShape is the form of one hit in the JSON output.
var hitShape = regexp.MustCompile(`^[a-z]+:.* \d+/\d+$`)

// TestReplayJSONShape checks the keys and values of the -json lines.
func TestReplayJSONShape(t *testing.T) {
	trace := filepath.Join(tracesDir, "local-ask.jsonl")
	r := runCmd(t, "replay", "-json", trace)
	require.Equal(t, exitOK, r.code)
	ds := decodeDecisions(t, r.stdout)
	require.Len(t, ds, 9) // every call; the two user events are not decisions
	for _, d := range ds {
		require.Equal(t, "local-ask.jsonl", d.Trace)
		require.Equal(t, "main", d.Agent)
		require.Equal(t, "bash", d.Tool)
		require.Contains(t, []string{"allow", "deny", "ask", "stop"}, d.Verdict)
		require.NotNil(t, d.Hits, "hits is [] rather than null")
		if d.Verdict == "allow" {
			require.Empty(t, d.Hits)
		} else {
			require.NotEmpty(t, d.Hits)
		}
		for _, h := range d.Hits {
			require.Regexp(t, hitShape, h)
		}
	}

	require.Equal(t, `{"trace":"local-ask.jsonl","line":6,"agent":"main","tool":"bash","verdict":"ask","hits":["net:localhost:3000/api/health 5/5"]}`,
		strings.Split(r.stdout, "\n")[5])

	// The output is not HTML: '>' stays itself.
	var lines []string
	for i := range 5 {
		lines = append(lines, fmt.Sprintf(`{"tool":"bash","args":{"command":"ls 2>/dev/null"},"result":"file%d"}`, i))
	}
	r = runCmd(t, "replay", "-json", writeFile(t, "redirect.jsonl", strings.Join(lines, "\n")))
	require.Equal(t, exitOK, r.code)
	require.Contains(t, r.stdout, `"hits":["exact:bash:{\"command\":\"ls 2>/dev/null\"} 5/5"`)
}

// TestReplayDirectory checks that a directory stands for its traces.
func TestReplayDirectory(t *testing.T) {
	// The directory gives every trace in name order, and nothing else (the
	// README and the golden files are not traces).
	var want strings.Builder
	for _, trace := range traceFiles(t) {
		r := runCmd(t, "replay", "-json", trace)
		want.WriteString(r.stdout)
	}
	r := runCmd(t, "replay", "-json", tracesDir)
	require.Equal(t, exitOK, r.code, r.stderr)
	require.Equal(t, want.String(), r.stdout)

	// A directory and a file may be mixed.
	dir := t.TempDir()
	for _, name := range []string{"b.jsonl", "a.jsonl"} {
		require.NoError(t, os.WriteFile(filepath.Join(dir, name), []byte(`{"tool":"bash","args":{"command":"ls"}}`+"\n"), 0o644))
	}
	require.NoError(t, os.WriteFile(filepath.Join(dir, "notes.txt"), []byte("not a trace\n"), 0o644))
	require.NoError(t, os.Mkdir(filepath.Join(dir, "sub.jsonl"), 0o755))
	r = runCmd(t, "replay", "-json", dir, filepath.Join(tracesDir, "pagination.jsonl"))
	require.Equal(t, exitOK, r.code, r.stderr)
	var names []string
	for _, d := range decodeDecisions(t, r.stdout) {
		if len(names) == 0 || names[len(names)-1] != d.Trace {
			names = append(names, d.Trace)
		}
	}
	require.Equal(t, []string{"a.jsonl", "b.jsonl", "pagination.jsonl"}, names)

	// A directory without traces is an error naming it.
	empty := t.TempDir()
	checkExit(t, exitCase{args: []string{"replay", empty}, code: exitError, stderr: []string{empty + ": directory holds no *.jsonl trace"}})
}

// TestReplayMalformedLines checks that bad lines are reported with their
// file and line, skipped, and make the exit status 1.
func TestReplayMalformedLines(t *testing.T) {
	trace := writeFile(t, "broken.jsonl", strings.Join([]string{
		`{"tool":"bash","args":{"command":"ls"}}`,
		`not json at all`,
		`{"tool":"bash","args":{"command":"ls"}}`,
		`{"tool":"bash","args":[1,2]}`,
		``,
		`{"no":"tool"}`,
		`{"tool":"bash","args":{"command":"ls"}}`,
	}, "\n"))
	r := runCmd(t, "replay", "-json", trace)
	require.Equal(t, exitError, r.code)
	// Errors give the file and the 1-based line, one a line.
	lines := strings.Split(strings.TrimSpace(r.stderr), "\n")
	require.Len(t, lines, 3, r.stderr)
	require.True(t, strings.HasPrefix(lines[0], "loopbreaker: "+trace+":2: "), lines[0])
	require.True(t, strings.HasPrefix(lines[1], "loopbreaker: "+trace+":4: "), lines[1])
	require.True(t, strings.HasPrefix(lines[2], "loopbreaker: "+trace+":6: "), lines[2])
	// The good lines are still replayed, with their 0-based lines.
	var got []int
	for _, d := range decodeDecisions(t, r.stdout) {
		got = append(got, d.Line)
	}
	require.Equal(t, []int{0, 2, 6}, got)

	// The report is written too, before the exit status says something
	// was wrong.
	r = runCmd(t, "replay", trace)
	require.Equal(t, exitError, r.code)
	require.Contains(t, r.stdout, "summary")
}

// TestReplayHumanReport checks the report written without -json.
func TestReplayHumanReport(t *testing.T) {
	r := runCmd(t, "replay", filepath.Join(tracesDir, "canada-pingpong.jsonl"), filepath.Join(tracesDir, "local-ask.jsonl"), filepath.Join(tracesDir, "pagination.jsonl"))
	require.Equal(t, exitOK, r.code, r.stderr)
	for _, want := range []string{
		"canada-pingpong.jsonl: 2 of 7 calls interrupted\n",
		"net:open.canada.ca/data/en/dataset/census-2021-profile.json 5/5, sink:data/census.json 5/5",
		"local-ask.jsonl: 2 of 9 calls interrupted\n",
		"ask (declined)",
	} {
		require.Contains(t, r.stdout, want)
	}
	require.NotContains(t, r.stdout, "pagination.jsonl", "a trace with nothing interrupted is left out of the list")
	summary := r.stdout[strings.Index(r.stdout, "summary\n"):]
	for _, row := range []string{
		`traces\s+3\n`, `calls\s+28\n`, `allowed\s+24\n`, `denied\s+3\n`, `asked\s+1\n`, `stopped\s+0\n`,
		`traces interrupted \(deny, ask or stop\)\s+2\n`, `median line of the first interruption\s+6\n`,
	} {
		require.Regexp(t, row, summary)
	}

	r = runCmd(t, "replay", "-approve", filepath.Join(tracesDir, "local-ask.jsonl"))
	require.Contains(t, r.stdout, "ask (approved)")
}

// TestMedian checks the median of the summary.
func TestMedian(t *testing.T) {
	for _, c := range []struct {
		in   []int
		want string
	}{
		{[]int{4}, "4"}, {[]int{9, 1, 5}, "5"}, {[]int{1, 2}, "1.5"}, {[]int{2, 6, 4, 0}, "3"},
	} {
		require.Equal(t, c.want, median(c.in), "%v", c.in)
	}
}

// TestReplayGarbage feeds the command traces of random bytes, of broken
// JSON, of well-formed JSON of every wrong shape, and of corpus traces with
// bytes flipped: it must report and go on, never panic.
func TestReplayGarbage(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	shapes := []string{
		`null`, `[]`, `"tool"`, `42`, `{}`, `{"tool":null}`, `{"tool":5}`, `{"tool":"bash","args":"ls"}`,
		`{"tool":"bash","args":{"command":{"a":1}}}`, `{"tool":"bash","args":{"command":["curl",1,null,{"x":[]}]}}`,
		`{"tool":"bash","args":{"command":"$((((((((((("}}`, `{"tool":"bash","args":{"command":"cat <<EOF\n"}}`,
		`{"tool":"bash","args":{"command":"curl http://[::1 -o"}}`, `{"tool":"web_fetch","args":{"url":["http://%zz",7,"https://a.b/"]}}`,
		`{"tool":"bash","args":{"command":"ls"},"exit_code":"x"}`, `{"tool":"bash","args":{"command":"ls"},"exit_code":1e400}`,
		`{"event":5}`, `{"event":"user","agent":["x"]}`, `{"agent":"","tool":"","args":null}`,
		`{"tool":"bash","args":{"command":"` + strings.Repeat("a ", 40000) + `"}}`,
		strings.Repeat("[", 20000) + strings.Repeat("]", 20000),
		`{"tool":"bash","args":{"command":"\ud800 \u0000 curl https://x.y/\u2028"}}`,
		`{"tool":"exec_command","args":{"cmd":["bash","-lc","` + strings.Repeat("bash -c ", 30) + `ls"]}}`,
	}
	var files []string
	dir := t.TempDir()
	add := func(name string, data []byte) {
		p := filepath.Join(dir, name)
		require.NoError(t, os.WriteFile(p, data, 0o644))
		files = append(files, p)
	}
	add("shapes.jsonl", []byte(strings.Join(shapes, "\n")))
	for i := range 20 {
		var b bytes.Buffer
		for range 1 + rng.IntN(30) {
			switch rng.IntN(3) {
			case 0:
				raw := make([]byte, rng.IntN(200))
				for k := range raw {
					raw[k] = byte(rng.UintN(256))
				}
				b.Write(raw)
			case 1:
				s := shapes[rng.IntN(len(shapes))]
				b.WriteString(s[:rng.IntN(len(s)+1)])
			default:
				b.WriteString(shapes[rng.IntN(len(shapes))])
			}
			b.WriteByte('\n')
		}
		add(fmt.Sprintf("random-%02d.jsonl", i), b.Bytes())
	}
	for _, trace := range traceFiles(t) {
		data, err := os.ReadFile(trace)
		require.NoError(t, err)
		for k := range 3 {
			mutated := bytes.Clone(data)
			for range 1 + rng.IntN(40) {
				mutated[rng.IntN(len(mutated))] = byte(rng.UintN(256))
			}
			add(fmt.Sprintf("mutated-%d-%s", k, filepath.Base(trace)), mutated)
		}
	}

	for _, args := range [][]string{{"replay", "-json"}, {"replay"}, {"replay", "-approve"}} {
		r := runCmd(t, append(args, files...)...)
		require.Contains(t, []int{exitOK, exitError}, r.code, r.stderr)
	}
	// Every decided call of the garbage still gets a well-formed line.
	r := runCmd(t, append([]string{"replay", "-json"}, files...)...)
	decodeDecisions(t, r.stdout)
}

// TestIsTerminal checks which outputs get progress.
func TestIsTerminal(t *testing.T) {
	// Progress goes only to a character device, such as a terminal; a
	// pipe, a file or a buffer never gets it.
	r, w, err := os.Pipe()
	require.NoError(t, err)
	defer r.Close()
	defer w.Close()
	require.False(t, isTerminal(w))
	require.False(t, isTerminal(&bytes.Buffer{}))
	f, err := os.Create(filepath.Join(t.TempDir(), "stderr"))
	require.NoError(t, err)
	defer f.Close()
	require.False(t, isTerminal(f))
	dev, err := os.OpenFile(os.DevNull, os.O_WRONLY, 0)
	require.NoError(t, err)
	defer dev.Close()
	require.True(t, isTerminal(dev))
}
