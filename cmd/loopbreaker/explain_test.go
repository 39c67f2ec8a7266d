package main

import (
	"bufio"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/loopbreaker/loopbreaker"
	"github.com/loopbreaker/loopbreaker/internal/trace"
	"github.com/stretchr/testify/require"
)

// explainCase is one call to explain and the lines its explanation must
// hold (each a substring of one output line) or must not hold.
type explainCase struct {
	name    string
	config  string // JSON configuration, or "" for the defaults
	tool    string
	args    string
	want    []string
	notWant []string
}

// listedFingerprints returns the fingerprints an explanation lists: the
// unindented lines after the first blank line, up to the notes.
func listedFingerprints(out string) []string {
	_, body, _ := strings.Cut(out, "\n\n")
	var fps []string
	for _, line := range strings.Split(body, "\n") {
		if line == "" {
			break
		}
		if !strings.HasPrefix(line, " ") {
			fps = append(fps, line)
		}
	}
	return fps
}

// checkExplain runs explain on c and checks its output; the fingerprints it
// lists must be exactly those the breaker counts.
func checkExplain(t *testing.T, c explainCase) {
	t.Helper()
	args := []string{"explain"}
	cfg := loopbreaker.Config{}
	if c.config != "" {
		path := writeFile(t, "config.json", c.config)
		args = append(args, "-config", path)
		var err error
		cfg, err = loopbreaker.LoadConfig(strings.NewReader(c.config))
		require.NoError(t, err)
	}
	r := runCmd(t, append(args, c.tool, c.args)...)
	require.Equal(t, exitOK, r.code, r.stderr)
	for _, w := range c.want {
		require.Contains(t, r.stdout, w)
	}
	for _, w := range c.notWant {
		require.NotContains(t, r.stdout, w)
	}
	require.NotContains(t, r.stdout, "does not reproduce the fingerprint")

	b, err := loopbreaker.New(cfg)
	require.NoError(t, err)
	call, err := loopbreaker.ParseCall(c.tool, []byte(c.args))
	require.NoError(t, err)
	if fps := b.Fingerprints(call); fps != nil {
		require.Equal(t, fps, listedFingerprints(r.stdout), r.stdout)
	}
}

// TestExplain checks the explanations of decoys, host folding, flag
// stripping, wrappers, payloads, output files and local calls.
func TestExplain(t *testing.T) {
	for _, c := range []explainCase{
		{
			name: "decoys", tool: "bash",
			args: `{"command":"ls -la src","description":"List the sources","timeoutMs":60000,"justification":"need it"}`,
			want: []string{
				`exact:bash:{"command":"ls -la src"}`,
				"decoys removed: description, justification, timeoutMs (ignoreArgs)",
			},
			notWant: []string{"List the sources", "60000"},
		},
		{
			name: "host fold and flag strip", tool: "bash",
			args: `{"command":"curl -sS --max-time 30 https://WWW.Open-Data.Canada.ca/x/ -o od.bin","description":"2nd"}`,
			want: []string{
				"cmd:curl https://WWW.Open-Data.Canada.ca/x/ -o od.bin\n",
				"volatile flags stripped from curl: -sS --max-time 30\n",
				"net:open.canada.ca/x\n    limit 5\n",
				"URL normalised: https://WWW.Open-Data.Canada.ca/x/ → open.canada.ca/x",
				"host folded: open-data.canada.ca → open.canada.ca (hostAliases)",
				"site:canada.ca\n    not capped",
				"sink:od.bin\n    limit 5\n    output file of curl -o od.bin",
				"family:http-fetch\n    not capped: it never denies a call\n    the command runs an HTTP client (curl)",
			},
		},
		{
			name: "cluster losing letters", tool: "bash",
			args: `{"command":"curl -sSLo page.html https://example.com/a"}`,
			want: []string{"volatile flags stripped from curl: -sSLo → -o", "output file of curl -sSLo page.html"},
		},
		{
			name: "wrappers, assignments and waits", tool: "bash",
			args: `{"command":"cd /repo && FOO=1 sudo timeout 5 /usr/bin/curl https://a.com/x && sleep 3"}`,
			want: []string{
				"cmd:cd /repo ; curl https://a.com/x\n",
				"left out: sleep 3 (waits are not part of cmd:)",
				"wrappers and assignments removed before curl: FOO=1 sudo timeout 5",
			},
		},
		{
			name: "nothing but a wait is kept", tool: "bash",
			args: `{"command":"sleep 30"}`,
			want: []string{"cmd:sleep 30\n"}, notWant: []string{"left out"},
		},
		{
			name: "here-document", tool: "bash",
			args: `{"command":"cat <<'EOF' > setup.py\nprint(1)\nEOF"}`,
			want: []string{
				"cmd:cat >setup.py <<#",
				"output files of redirections added: >setup.py",
				"here-document: the whole command line stands as its hash (indentation and blank lines ignored), <<#",
			},
		},
		{
			name: "shell payload of an argv", tool: "exec_command",
			args: `{"cmd":["bash","-lc","cd /r && go test -count=1 ./..."]}`,
			want: []string{
				"exec_command is a shell tool: its cmd parses into 2 simple command(s): cd, go.",
				"cmd:cd /r ; go test ./...\n",
				"volatile flags stripped from go: -count=1",
				"shell -c payloads parsed in place of their shell: bash -lc",
			},
		},
		{
			name: "redirection and tee", tool: "bash",
			args: `{"command":"curl https://a.example.com/f > raw.json && jq . raw.json | tee -a ./pretty.json"}`,
			want: []string{
				"sink:raw.json\n    limit 5\n    target of an output redirection",
				"sink:pretty.json\n    limit 5\n    file written by tee ./pretty.json",
			},
		},
		{
			name: "unfetched sink is not counted", tool: "bash",
			args: `{"command":"echo hi > out.txt"}`,
			want: []string{"cmd:echo hi >out.txt\n", "note: output file out.txt has no sink: fingerprint: only commands that fetch count their output files"},
		},
		{
			name: "strict counts every sink", config: `{"strict": true}`, tool: "bash",
			args: `{"command":"echo hi > out.txt"}`,
			want: []string{"sink:out.txt\n    limit 5\n    target of an output redirection"},
		},
		{
			name: "a configured alias", config: `{"hostAliases": {"mirror.example.org": "example.org"}, "limits": {"net": 8, "site": 30}}`, tool: "web_fetch",
			args: `{"url":"https://mirror.example.org/docs/?utm_source=x#top"}`,
			want: []string{
				"web_fetch is a URL tool",
				"net:example.org/docs\n    limit 8\n",
				"URL normalised: https://mirror.example.org/docs/?utm_source=x#top → example.org/docs",
				"host folded: mirror.example.org → example.org (hostAliases)",
				"site:example.org\n    limit 30\n",
				"family:http-fetch\n    not capped: it never denies a call\n    web_fetch fetches over HTTP",
			},
		},
		{
			name: "local call", tool: "bash",
			args: `{"command":"curl -s http://localhost:3000/api/health"}`,
			want: []string{`note: every URL is local: a denial caused by its targets alone asks the operator first (localHosts "ask")`},
		},
		{
			name: "local call allowed", config: `{"localHosts": "allow"}`, tool: "bash",
			args:    `{"command":"curl -s http://localhost:3000/api/health -o h.json"}`,
			want:    []string{`with localHosts "allow" its targets are not fingerprinted`, "output file h.json has no sink: fingerprint: the call is local"},
			notWant: []string{"net:"},
		},
		{
			name: "a file tool", tool: "Read",
			args: `{"file_path":"/src/main.go","offset":200,"explanation":"look at main"}`,
			want: []string{"Read is neither a shell tool nor a URL tool", `exact:Read:{"file_path":"/src/main.go","offset":200}`, "decoys removed: explanation"},
		},
		{
			name: "PowerShell is split plainly", tool: "pwsh",
			args: `{"command":"Invoke-WebRequest https://a.com/x -OutFile out.html"}`,
			want: []string{"it was split into words plainly", "net:a.com/x"},
		},
		{
			name: "no command", tool: "bash", args: `{"script":"ls"}`,
			want: []string{"bash is a shell tool, but its call has no \"command\" or \"cmd\" string or list: only exact: is counted.\n\nexact:bash:{\"script\":\"ls\"}\n"},
		},
	} {
		t.Run(c.name, func(t *testing.T) { checkExplain(t, c) })
	}
}

// TestExplainExcludedTool checks untracked tools and calls without
// arguments.
func TestExplainExcludedTool(t *testing.T) {
	r := runCmd(t, "explain", "todo_write", `{"todos":[]}`)
	require.Equal(t, exitOK, r.code)
	require.Equal(t, "todo_write is not tracked (Exclude or Include): its calls are never counted.\n", r.stdout)

	// A tool given without arguments is explained as a call with none.
	r = runCmd(t, "explain", "finish")
	require.Equal(t, exitOK, r.code)
	require.Contains(t, r.stdout, "exact:finish:{}")
}

// TestExplainCorpus explains the shell calls of every third trace of the
// shared corpus (all of them give the same result, more slowly) and checks
// that every account of a cmd: fingerprint reproduces it. It is skipped
// when ../shared is absent.
func TestExplainCorpus(t *testing.T) {
	dir := corpusDir(t)
	files, err := filepath.Glob(filepath.Join(dir, "*.jsonl"))
	require.NoError(t, err)
	var sample []string
	for i := 0; i < len(files); i += 3 {
		sample = append(sample, files[i])
	}
	files = sample
	b, err := loopbreaker.New(loopbreaker.Config{})
	require.NoError(t, err)
	var eff effective
	raw, err := loopbreaker.Config{}.JSON()
	require.NoError(t, err)
	require.NoError(t, json.Unmarshal(raw, &eff))
	explained, mismatched := 0, 0
	for _, f := range files {
		fh, err := os.Open(f)
		require.NoError(t, err)
		events, _, err := trace.Read(bufio.NewReader(fh))
		fh.Close()
		require.NoError(t, err)
		for _, ev := range events {
			if ev.User || !eff.isShell(ev.Call.Tool) {
				continue
			}
			var out strings.Builder
			explain(&out, b, eff, ev.Call)
			explained++
			if strings.Contains(out.String(), "does not reproduce the fingerprint") {
				mismatched++
				t.Errorf("%s line %d: %s", filepath.Base(f), ev.Line, out.String())
				if mismatched > 5 {
					t.FailNow()
				}
			}
		}
	}
	t.Logf("explained %d shell calls", explained)
}
