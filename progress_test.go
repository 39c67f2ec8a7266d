package loopbreaker

import (
	"fmt"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"
)

// The default mode's behaviour beyond the reference: progress awareness,
// failure awareness, advice and the Stop ceiling.

func exitCode(n int) *int { return &n }

func editCall(i int) Call {
	return Call{Tool: "str_replace_editor", Args: map[string]any{
		"command": "str_replace", "path": "/w/app.py",
		"old_str": fmt.Sprintf("v = %d", i), "new_str": fmt.Sprintf("v = %d", i+1)}}
}

func TestEditAndRerunIsNotALoop(t *testing.T) {
	b, err := New(Config{})
	require.NoError(t, err)
	run := cmd("python reproduce_issue.py")
	for i := range 12 {
		require.Equal(t, Allow, b.Check("A", run).Verdict, "run %d", i+1)
		b.Record("A", run, Result{Text: fmt.Sprintf("AssertionError: %d failures", 12-i), ExitCode: exitCode(1)})
		require.Equal(t, Allow, b.Check("A", editCall(i)).Verdict, "edit %d", i+1)
		b.Record("A", editCall(i), Result{Text: "The file /w/app.py has been edited."})
	}
}

func TestStrictModeCountsTheRerunCycle(t *testing.T) {
	b, err := New(Config{Strict: true, FailLimit: Off})
	require.NoError(t, err)
	run := cmd("python reproduce_issue.py")
	var last Verdict
	for i := range capOf(b, "exact") {
		last = b.Check("A", run).Verdict
		b.Record("A", run, Result{Text: fmt.Sprint(i)})
		b.Check("A", editCall(i))
		b.Record("A", editCall(i), Result{Text: "edited"})
	}
	require.Equal(t, Deny, last)
}

func TestFailedChangeIsNotProgress(t *testing.T) {
	b, err := New(Config{FailLimit: Off})
	require.NoError(t, err)
	run := cmd("python reproduce_issue.py")
	bad := editCall(0)
	for i := range capOf(b, "exact") - 1 {
		require.Equal(t, Allow, b.Check("A", run).Verdict)
		b.Record("A", run, Result{Text: fmt.Sprint(i)})
		b.Check("A", bad)
		b.Record("A", bad, Result{Text: "ERROR: No replacement was performed", IsError: true})
	}
	require.Equal(t, Deny, b.Check("A", run).Verdict)
}

func TestOwnChangeRepeatedIsStillALoop(t *testing.T) {
	b, err := New(Config{})
	require.NoError(t, err)
	write := cmd("cat > notes.txt <<'EOF'\nsame text\nEOF")
	limit := capOf(b, "exact")
	for i := range limit {
		d := b.Check("A", write)
		if i < limit-1 {
			require.Equal(t, Allow, d.Verdict)
			b.Record("A", write, Result{})
		} else {
			require.Equal(t, Deny, d.Verdict)
		}
	}
}

func TestFetchLoopsSurviveProgress(t *testing.T) {
	b, err := New(Config{})
	require.NoError(t, err)
	fetch := cmd("curl -s https://example.com/api/items")
	limit := capOf(b, "net")
	for i := range limit - 1 {
		require.Equal(t, Allow, b.Check("A", fetch).Verdict)
		b.Record("A", fetch, Result{Text: fmt.Sprint("items ", i)})
		b.Check("A", editCall(i))
		b.Record("A", editCall(i), Result{Text: "edited"})
	}
	d := b.Check("A", fetch)
	require.Equal(t, Deny, d.Verdict)
	require.Contains(t, hitNames(d), "net:example.com/api/items")
}

func TestSinkCountsOnlyForFetches(t *testing.T) {
	b, err := New(Config{})
	require.NoError(t, err)
	require.NotContains(t, strings.Join(b.Fingerprints(cmd("python gen.py > out.txt")), " "), "sink:")
	require.Contains(t, b.Fingerprints(cmd("curl -s https://a.example.com/x > out.txt")), "sink:out.txt")
	strict, err := New(Config{Strict: true})
	require.NoError(t, err)
	require.Contains(t, strict.Fingerprints(cmd("python gen.py > out.txt")), "sink:out.txt")
}

func TestIdenticalFailuresAreDeniedEarly(t *testing.T) {
	b, err := New(Config{})
	require.NoError(t, err)
	call := cmd("docker compose up -d db")
	limit := b.cfg.FailLimit
	for i := range limit {
		require.Equal(t, Allow, b.Check("A", call).Verdict, "attempt %d", i+1)
		b.Record("A", call, Result{Text: fmt.Sprintf("Error response from daemon: port 5432 in use (pid %d)", 100+i), ExitCode: exitCode(1)})
	}
	d := b.Check("A", call)
	require.Equal(t, Deny, d.Verdict)
	require.Equal(t, fmt.Sprintf("fail:docker %d/%d", limit+1, limit+1), d.Hits[0].String())
	require.Contains(t, d.Message, "port 5432 in use (pid 102)")
	require.True(t, strings.HasPrefix(d.Message, BlockedPrefix))
}

func TestSuccessClearsTheFailureStreak(t *testing.T) {
	// Caps off, so that only the failure evidence can deny.
	b, err := New(Config{Limits: map[string]int{"exact": Off, "cmd": Off}})
	require.NoError(t, err)
	call := cmd("make test")
	fail := Result{Text: "FAIL", ExitCode: exitCode(2)}
	for i := range 9 {
		require.Equal(t, Allow, b.Check("A", call).Verdict, "attempt %d", i+1)
		if i%3 == 2 {
			b.Record("A", call, Result{Text: fmt.Sprint("ok ", i)})
		} else {
			b.Record("A", call, fail)
		}
	}
	// Without a success in between, the third identical failure is the last.
	for range 3 {
		b.Check("A", call)
		b.Record("A", call, fail)
	}
	require.Equal(t, Deny, b.Check("A", call).Verdict)
}

func TestWhatIsNotAFailure(t *testing.T) {
	b, err := New(Config{})
	require.NoError(t, err)
	an := b.analyzer.Analyze("bash", map[string]any{"command": "grep -rn missing ."})
	require.False(t, b.failed(an, Result{ExitCode: exitCode(1)}), "grep's no-match")
	require.True(t, b.failed(an, Result{ExitCode: exitCode(2)}))
	fetch := b.analyzer.Analyze("web_fetch", map[string]any{"url": "https://a.example.com/"})
	require.False(t, b.failed(fetch, Result{Status: 429}), "rate limit")
	require.False(t, b.failed(fetch, Result{Status: 503}), "server error")
	require.True(t, b.failed(fetch, Result{Status: 404}))
	require.True(t, b.failed(fetch, Result{TimedOut: true}))
	sh := b.analyzer.Analyze("bash", map[string]any{"command": "python x.py"})
	for _, text := range []string{"Traceback (most recent call last):\n...", "out\n[exit code: 3]", "curl: (6) Could not resolve host", "urllib.error.HTTPError: HTTP Error 404: Not Found"} {
		require.True(t, b.failed(sh, Result{Text: text}), text)
	}
	require.False(t, b.failed(sh, Result{Text: "HTTP Error 429: Too Many Requests"}))
	require.False(t, b.failed(fetch, Result{Text: "Traceback (most recent call last)"}), "text evidence is for shell tools only")
}

func TestOwnDenialsAreNotFailures(t *testing.T) {
	b, err := New(Config{})
	require.NoError(t, err)
	call := cmd("ls /nope")
	for range 10 {
		d := b.Check("A", call)
		if d.Verdict == Deny {
			b.Record("A", call, Result{Text: d.Message, IsError: true})
		}
	}
	st := b.agents.get("A", b.clock(), false)
	require.Empty(t, st.hist.recs)
}

func TestRateLimitedRetriesAreNotEscalated(t *testing.T) {
	b, err := New(Config{})
	require.NoError(t, err)
	call := Call{Tool: "web_fetch", Args: map[string]any{"url": "https://api.example.com/search?q=x"}}
	for i := range 4 {
		require.Equal(t, Allow, b.Check("A", call).Verdict, "attempt %d", i+1)
		b.Record("A", call, Result{Text: fmt.Sprint("rate limited, retry in ", 60-i), Status: 429})
	}
}

func TestSameAnswerToTheSameQuestion(t *testing.T) {
	b, err := New(Config{})
	require.NoError(t, err)
	read := func(args map[string]any) Call {
		args["file_path"] = "/w/export.py"
		return Call{Tool: "Read", Args: args}
	}
	calls := []Call{read(map[string]any{}), read(map[string]any{"limit": 200}), read(map[string]any{"offset": 1}), read(map[string]any{"limit": 500})}
	for i, c := range calls[:3] {
		require.Equal(t, Allow, b.Check("A", c).Verdict, "read %d", i+1)
		b.Record("A", c, Result{Text: "1  import os\n2  ..."})
	}
	d := b.Check("A", calls[3])
	require.Equal(t, Deny, d.Verdict)
	require.True(t, strings.HasPrefix(d.Hits[0].Fingerprint, "stale:"))
}

func TestCycleOfUnchangedAnswers(t *testing.T) {
	b, err := New(Config{})
	require.NoError(t, err)
	a, c := cmd("sed -n '40,60p' conn.go"), cmd("go test ./server -run TestPipeline")
	for i, call := range []Call{a, c, a, c} {
		require.Equal(t, Allow, b.Check("A", call).Verdict, "call %d", i+1)
		b.Record("A", call, Result{Text: fmt.Sprintf("answer of %d", i%2)})
	}
	d := b.Check("A", a)
	require.Equal(t, Deny, d.Verdict)
	require.True(t, strings.HasPrefix(d.Hits[0].Fingerprint, "cycle:"))
}

func TestAdviceOneBelowTheLimit(t *testing.T) {
	b, err := New(Config{})
	require.NoError(t, err)
	call := cmd("curl -s https://example.com/x")
	limit := capOf(b, "exact")
	for i := 1; i < limit; i++ {
		d := b.Check("A", call)
		require.Equal(t, Allow, d.Verdict)
		if i == limit-1 {
			require.Contains(t, d.Advice, "repeats an earlier action")
			require.NotContains(t, d.Advice, "<")
		} else {
			require.Empty(t, d.Advice, "call %d", i)
		}
	}
	quiet, err := New(Config{WarnMargin: Off})
	require.NoError(t, err)
	for range limit - 1 {
		require.Empty(t, quiet.Check("A", call).Advice)
	}
}

func TestStopAfterMaxDenials(t *testing.T) {
	b, err := New(Config{MaxDenials: 2})
	require.NoError(t, err)
	call := cmd("curl -s https://example.com/x")
	limit := capOf(b, "exact")
	for range limit - 1 {
		b.Check("A", call)
	}
	require.Equal(t, Deny, b.Check("A", call).Verdict)
	require.Equal(t, Deny, b.Check("A", call).Verdict)
	d := b.Check("A", call)
	require.Equal(t, Stop, d.Verdict)
	require.True(t, strings.HasPrefix(d.Message, BlockedPrefix))
	require.Contains(t, d.Message, "stopped")
	require.EqualValues(t, 1, b.Stats().Stopped)
	b.UserTurn("A")
	require.Equal(t, Allow, b.Check("A", call).Verdict)
}

func TestApprovalsDoNotResetTheDenialCount(t *testing.T) {
	b, err := New(Config{MaxDenials: 1})
	require.NoError(t, err)
	limit := capOf(b, "net")
	for i := range limit - 1 {
		b.Check("A", localCall(i))
	}
	asked := b.Check("A", localCall(100))
	require.Equal(t, Ask, asked.Verdict)
	require.Equal(t, Allow, b.Resolve("A", asked, true).Verdict)
	same := localCall(7)
	verdicts := []Verdict{}
	for range capOf(b, "exact") + 2 {
		verdicts = append(verdicts, b.Check("A", same).Verdict)
	}
	require.Contains(t, verdicts, Stop)
}

func TestShortSameOutputsAreNotEvidence(t *testing.T) {
	// An audit asks many questions whose answers happen to read alike.
	b, err := New(Config{})
	require.NoError(t, err)
	for i := range 12 {
		c := cmd(fmt.Sprintf("stat -c %%a config/file%d.yaml", i))
		require.Equal(t, Allow, b.Check("A", c).Verdict, "file %d", i)
		b.Record("A", c, Result{Text: "644"})
	}
}

func TestPaginationBehindASummary(t *testing.T) {
	b, err := New(Config{})
	require.NoError(t, err)
	for n := 1; n <= 12; n++ {
		page := cmd(fmt.Sprintf(`curl -sL "https://api.github.com/repos/o/r/commits?per_page=100&page=%d" | jq length`, n))
		require.Equal(t, Allow, b.Check("A", page).Verdict, "page %d", n)
		b.Record("A", page, Result{Text: "100"})
	}
}

func TestOneProgramSameOutput(t *testing.T) {
	b, err := New(Config{})
	require.NoError(t, err)
	variants := []string{"tail -n 3 job.log", "tail -3 job.log", "tail -n3 job.log", "tail --lines=3 job.log", "tail -n 3 ./job.log"}
	for i, v := range variants[:4] {
		require.Equal(t, Allow, b.Check("A", cmd(v)).Verdict, "poll %d", i+1)
		b.Record("A", cmd(v), Result{Text: "export: 4180 of 9000 rows\nKilled (out of memory)\nexit status 137"})
	}
	d := b.Check("A", cmd(variants[4]))
	require.Equal(t, Deny, d.Verdict)
	require.Equal(t, "stale:tail 5/5", d.Hits[0].String())
}
