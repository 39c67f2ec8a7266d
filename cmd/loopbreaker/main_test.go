package main

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"
)

// result is what one run of the command printed and returned.
type result struct {
	stdout, stderr string
	code           int
}

// runCmd runs the command line args in-process.
func runCmd(t *testing.T, args ...string) result {
	t.Helper()
	var stdout, stderr bytes.Buffer
	code := run(args, &stdout, &stderr)
	require.NotContains(t, stderr.String(), "internal error", "the command panicked on %q", args)
	return result{stdout.String(), stderr.String(), code}
}

// exitCase is one command line and what it must give: an exit code and
// text that standard output and standard error must contain.
type exitCase struct {
	name   string
	args   []string
	code   int
	stdout []string
	stderr []string
}

// checkExit runs one exitCase.
func checkExit(t *testing.T, c exitCase) {
	t.Helper()
	r := runCmd(t, c.args...)
	require.Equal(t, c.code, r.code, "exit code of %q\nstdout: %s\nstderr: %s", c.args, r.stdout, r.stderr)
	for _, s := range c.stdout {
		require.Contains(t, r.stdout, s, "stdout of %q", c.args)
	}
	for _, s := range c.stderr {
		require.Contains(t, r.stderr, s, "stderr of %q", c.args)
	}
}

// writeFile writes content to name in a new temporary directory and
// returns its path.
func writeFile(t *testing.T, name, content string) string {
	t.Helper()
	p := filepath.Join(t.TempDir(), name)
	require.NoError(t, os.WriteFile(p, []byte(content), 0o644))
	return p
}

// tracesDir is the repository's directory of replay traces.
const tracesDir = "../../testdata/traces"

// TestExitCodes checks the exit status and messages of good and bad
// command lines: 0 for success, 1 for trace and configuration errors, 2 for
// usage errors.
func TestExitCodes(t *testing.T) {
	trace := filepath.Join(tracesDir, "pagination.jsonl")
	missing := filepath.Join(t.TempDir(), "missing.jsonl")
	badConfig := writeFile(t, "bad.json", `{"window": 3, "limits": {"exact": 1}, "maxDenialz": 4}`)

	for _, c := range []exitCase{
		{name: "no arguments", args: nil, code: exitUsage, stderr: []string{"Usage:"}},
		{name: "unknown command", args: []string{"frobnicate"}, code: exitUsage, stderr: []string{`unknown command "frobnicate"`, "Usage:"}},
		{name: "-h", args: []string{"-h"}, code: exitOK, stdout: []string{"loopbreaker replay"}},
		{name: "help", args: []string{"help"}, code: exitOK, stdout: []string{"loopbreaker check-config FILE"}},
		{name: "help replay", args: []string{"help", "replay"}, code: exitOK, stdout: []string{"-approve"}},
		{name: "help unknown", args: []string{"help", "nope"}, code: exitUsage, stderr: []string{`unknown command "nope"`}},
		{name: "help too many", args: []string{"help", "replay", "explain"}, code: exitUsage},
		{name: "version", args: []string{"version"}, code: exitOK, stdout: []string{"loopbreaker "}},
		{name: "version extra", args: []string{"version", "x"}, code: exitUsage},

		{name: "replay -h", args: []string{"replay", "-h"}, code: exitOK, stdout: []string{"Usage: loopbreaker replay"}},
		{name: "replay nothing", args: []string{"replay"}, code: exitUsage, stderr: []string{"no trace given", "loopbreaker help replay"}},
		{name: "replay bad flag", args: []string{"replay", "-bogus", trace}, code: exitUsage, stderr: []string{"-bogus"}},
		{name: "replay missing file", args: []string{"replay", trace, missing}, code: exitError, stderr: []string{"loopbreaker: " + missing + ": no such file"}},
		{name: "replay missing config", args: []string{"replay", "-config", missing, trace}, code: exitError, stderr: []string{missing}},
		{name: "replay bad config", args: []string{"replay", "-config", badConfig, trace}, code: exitError, stderr: []string{"config: window:", "config: limits.exact:", "config: maxDenialz:"}},
		{name: "replay ok", args: []string{"replay", trace}, code: exitOK, stdout: []string{"summary"}},

		{name: "explain nothing", args: []string{"explain"}, code: exitUsage, stderr: []string{"no tool given"}},
		{name: "explain bad JSON", args: []string{"explain", "bash", `{"command":`}, code: exitUsage, stderr: []string{`arguments of tool "bash"`}},
		{name: "explain array", args: []string{"explain", "bash", `[1]`}, code: exitUsage, stderr: []string{"must be a JSON object"}},
		{name: "explain too many", args: []string{"explain", "bash", `{}`, "x"}, code: exitUsage},
		{name: "explain bad config", args: []string{"explain", "-config", badConfig, "bash", `{}`}, code: exitError, stderr: []string{badConfig + ": config: window:"}},
		{name: "explain ok", args: []string{"explain", "bash", `{"command":"ls"}`}, code: exitOK, stdout: []string{"cmd:ls"}},

		{name: "check-config nothing", args: []string{"check-config"}, code: exitUsage, stderr: []string{"no configuration file given"}},
		{name: "check-config two", args: []string{"check-config", badConfig, badConfig}, code: exitUsage},
		{name: "check-config missing", args: []string{"check-config", missing}, code: exitError, stderr: []string{missing + ": no such file"}},
		{name: "check-config bad", args: []string{"check-config", badConfig}, code: exitError, stderr: []string{"config: window:"}},
	} {
		t.Run(c.name, func(t *testing.T) { checkExit(t, c) })
	}
}

// TestErrorsStartWithLoopbreaker checks the prefix of error messages.
func TestErrorsStartWithLoopbreaker(t *testing.T) {
	badConfig := writeFile(t, "bad.json", `{"window": 3, "limits": {"exact": 1}}`)
	garbage := writeFile(t, "garbage.jsonl", "not json\n{\"tool\":\"bash\",\"args\":[1]}\n")
	for _, args := range [][]string{
		{"replay", "-config", badConfig, garbage},
		{"replay", garbage},
		{"check-config", badConfig},
		{"explain", "bash", "[1]"},
		{"replay"},
	} {
		r := runCmd(t, args...)
		require.NotZero(t, r.code)
		first, _, _ := strings.Cut(r.stderr, "\n")
		require.True(t, strings.HasPrefix(first, "loopbreaker: "), "stderr of %q: %q", args, r.stderr)
	}
}

// corpusDir returns the shared corpus of recorded sessions, which lives
// beside the repository, or skips the test when it is absent.
func corpusDir(tb testing.TB) string {
	tb.Helper()
	dir := filepath.Join("..", "..", "..", "shared", "corpus", "sessions")
	if fi, err := os.Stat(dir); err != nil || !fi.IsDir() {
		tb.Skip("the shared corpus (../shared/corpus/sessions from the repository root) is absent")
	}
	return dir
}
