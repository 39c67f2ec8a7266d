package loopbreaker

import (
	"fmt"
	"testing"

	"github.com/stretchr/testify/require"
)

// Disguised loops must be interrupted by their 5th call, and legitimate
// repetition never, at the default settings. Each shape is a short session
// replayed as a host would: Check, then Record of the result when allowed.

type shapeCall struct {
	call   Call
	result Result
	user   bool // a human message instead of a call
}

func sh(command, result string) shapeCall {
	return shapeCall{call: Call{Tool: "bash", Args: map[string]any{"command": command}}, result: Result{Text: result, ExitCode: exitCode(0)}}
}

func shFail(command, result string) shapeCall {
	c := sh(command, result)
	c.result.ExitCode, c.result.IsError = exitCode(1), true
	return c
}

// firstInterruption replays calls for one agent and returns the 1-based
// number of the first call that is not allowed, or 0.
func firstInterruption(t *testing.T, calls []shapeCall) int {
	t.Helper()
	b, err := New(Config{})
	require.NoError(t, err)
	n := 0
	for _, c := range calls {
		if c.user {
			b.UserTurn("A")
			continue
		}
		n++
		d := b.Check("A", c.call)
		if d.Verdict != Allow {
			return n
		}
		b.Record("A", c.call, c.result)
	}
	return 0
}

func repeatShapes(calls []shapeCall, times int) []shapeCall {
	var out []shapeCall
	for range times {
		out = append(out, calls...)
	}
	return out
}

func TestDisguisedLoopsAreCaughtByTheFifthCall(t *testing.T) {
	fetches := []shapeCall{
		sh("curl -sL https://data.example.org/f.csv -o /tmp/f.csv", "saved"),
		sh(`python3 -c "import urllib.request; urllib.request.urlretrieve('https://data.example.org/f.csv', '/tmp/f.csv')"`, "saved"),
		sh("wget -q -O /tmp/f.csv https://data.example.org/f.csv", "saved"),
		sh("http --download https://data.example.org/f.csv -o /tmp/f.csv", "saved"),
		sh("curl -s --retry 3 https://DATA.example.org/f.csv?utm_source=x -o /tmp/f.csv", "saved"),
		sh("timeout 30 curl -sS https://data.example.org:443/f.csv -o /tmp/f.csv", "saved"),
	}
	var status []shapeCall
	for i, c := range []string{"git status", "git status --short", "git status -sb", "git -c color.ui=never status", "git status --porcelain", "git status -s"} {
		status = append(status, sh(c, []string{"On branch main\nnothing to commit, working tree clean", "## main"}[i%2]))
	}
	cycle := []shapeCall{
		sh("cat config.yaml", "port: 80"),
		sh("grep -n port app.py", "12: port = cfg['port']"),
		shFail("python app.py --check", "Error: port 80 is busy"),
	}
	var argv []shapeCall
	for i := range 10 {
		c := Call{Tool: "exec_command", Args: map[string]any{"cmd": "npm test -- --runInBand", "workdir": "/repo"}}
		if i%2 == 1 {
			c = Call{Tool: "exec_command", Args: map[string]any{"cmd": []any{"bash", "-lc", "npm test -- --runInBand"}, "justification": fmt.Sprint("try ", i)}}
		}
		argv = append(argv, shapeCall{call: c, result: Result{Text: "FAIL src/a.test.js", ExitCode: exitCode(1)}})
	}
	var wiki []shapeCall
	urls := []string{"https://en.m.wikipedia.org/wiki/Go_(programming_language)", "https://en.wikipedia.org/wiki/Go_(programming_language)#History", "http://EN.wikipedia.org/wiki/Go_(programming_language)/"}
	for i := range 10 {
		wiki = append(wiki, shapeCall{call: Call{Tool: "web_fetch", Args: map[string]any{"url": urls[i%3], "timeout": 10 + i, "title": fmt.Sprint("t", i)}}, result: Result{Text: "Go is a programming language"}})
	}
	var reads []shapeCall
	for _, limit := range []any{nil, 200, 500, 2000, 100, nil} {
		args := map[string]any{"file_path": "/w/export.py"}
		if limit != nil {
			args["limit"] = limit
		}
		reads = append(reads, shapeCall{call: Call{Tool: "Read", Args: args}, result: Result{Text: "1 import csv\n2 def export(rows):"}})
	}
	var polls []shapeCall
	for _, c := range []string{"tail -n 3 job.log", "sleep 30 && tail -3 job.log", "tail -n3 job.log", "sleep 60; tail -n 3 ./job.log", "tail --lines=3 job.log", "tail -3 job.log"} {
		polls = append(polls, sh(c, "export: 4180 of 9000 rows\nKilled (out of memory)\nexit status 137"))
	}
	for name, calls := range map[string][]shapeCall{
		"one fetch by four clients":           fetches,
		"git status spellings":                status,
		"an A-B-C cycle":                      repeatShapes(cycle, 4),
		"argv and string commands":            argv,
		"host spellings and decoys":           wiki,
		"a read with churning limits":         reads,
		"a dead job polled in many spellings": polls,
	} {
		n := firstInterruption(t, calls)
		require.NotZero(t, n, name)
		require.LessOrEqual(t, n, 5, name)
	}
}

func TestLegitimateRepetitionIsNotInterrupted(t *testing.T) {
	var polls []shapeCall
	for i := range 4 {
		polls = append(polls, sh(fmt.Sprintf("sleep %d && kubectl get job export -o jsonpath='{.status.succeeded}'", 10*(i+1)), fmt.Sprint(i)))
	}
	batch := []shapeCall{sh("python scripts/check_a.py", "OK"), sh("python scripts/check_b.py", "OK"), sh("python scripts/check_c.py", "OK")}
	var rereads, scratch, audit []shapeCall
	for i := range 6 {
		rereads = append(rereads,
			shapeCall{call: Call{Tool: "Read", Args: map[string]any{"file_path": "/w/app.py"}}, result: Result{Text: fmt.Sprint("v", i)}},
			shapeCall{call: Call{Tool: "Edit", Args: map[string]any{"file_path": "/w/app.py", "old_string": fmt.Sprint("v", i), "new_string": fmt.Sprint("v", i+1)}}, result: Result{Text: "ok"}})
		scratch = append(scratch, sh(fmt.Sprintf("cat > /tmp/scratch.py <<'EOF'\nprint(%d)\nEOF", i), ""), sh("python /tmp/scratch.py", fmt.Sprint(i)))
	}
	for i := range 10 {
		audit = append(audit, sh(fmt.Sprintf("wc -l < src/mod%d.py", i), "120"))
	}
	for i := range 8 {
		audit = append(audit, sh(fmt.Sprintf("head -1 src/mod%d.py", i), "#!/usr/bin/env python3 -- a shared header line"))
	}
	var pages []shapeCall
	for n := 1; n <= 12; n++ {
		pages = append(pages, sh(fmt.Sprintf(`curl -sL "https://api.github.com/repos/o/r/commits?per_page=100&page=%d" -o page%d.json && jq length page%d.json`, n, n, n), "100"))
	}
	user := shapeCall{user: true}
	for name, calls := range map[string][]shapeCall{
		"four polls with progress":        polls,
		"one batch in three turns":        append(append(append(append(batch, user), batch...), user), batch...),
		"re-reading a file after editing": rereads,
		"rewriting one scratch file":      scratch,
		"an audit with alike answers":     audit,
		"twelve pages":                    pages,
		"one retry after a failure": {
			shFail("git fetch origin", "fatal: unable to access: Could not resolve host"),
			sh("git fetch origin", "From github.com:o/r"),
			sh("git log --oneline -3", "a\nb\nc"),
		},
	} {
		require.Zero(t, firstInterruption(t, calls), name)
	}
}
