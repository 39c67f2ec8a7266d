package main

import (
	"strings"
	"testing"

	"github.com/loopbreaker/loopbreaker"
	"github.com/stretchr/testify/require"
)

// TestCheckConfigPrintsEffectiveConfig checks that a valid file gives its
// effective configuration, which loads back to itself.
func TestCheckConfigPrintsEffectiveConfig(t *testing.T) {
	for _, c := range []struct {
		name, config string
		want         []string
	}{
		{name: "empty object", config: `{}`, want: []string{`"window": 12`, `"exact": 5`, `"site": null`, `"localHosts": "ask"`, `"open-data.canada.ca": "open.canada.ca"`, `"failLimit": 3`}},
		{name: "seed settings", config: `{"localHosts": "deny", "strict": true, "failLimit": null, "limits": {"net": 8}}`,
			want: []string{`"localHosts": "deny"`, `"strict": true`, `"failLimit": null`, `"net": 8`, `"exact": 5`}},
	} {
		t.Run(c.name, func(t *testing.T) {
			path := writeFile(t, "config.json", c.config)
			r := runCmd(t, "check-config", path)
			require.Equal(t, exitOK, r.code, r.stderr)
			require.Empty(t, r.stderr)
			for _, w := range c.want {
				require.Contains(t, r.stdout, w)
			}
			// The output is a configuration with the same effect.
			cfg, err := loopbreaker.LoadConfig(strings.NewReader(c.config))
			require.NoError(t, err)
			want, err := cfg.JSON()
			require.NoError(t, err)
			require.Equal(t, string(want), r.stdout)
			again, err := loopbreaker.LoadConfig(strings.NewReader(r.stdout))
			require.NoError(t, err)
			out, err := again.JSON()
			require.NoError(t, err)
			require.Equal(t, r.stdout, string(out))
		})
	}
}

// TestCheckConfigListsEveryError checks that every problem of a file is
// reported on a line of its own, naming the file.
func TestCheckConfigListsEveryError(t *testing.T) {
	for _, c := range []struct {
		name, config string
		want         []string // one a line, in order
	}{
		{
			name:   "invalid values",
			config: `{"window": 3, "limits": {"exact": 1, "bogus": 5}, "localHosts": "maybe", "denyAfter": 4}`,
			want: []string{
				"config: window: must be 0 (default) or >= 4 (got 3)",
				"config: limits.bogus:",
				"config: limits.exact: must be Off (-1) or at least 2",
				`config: localHosts: must be "ask", "deny" or "allow"`,
				"config: denyAfter:",
			},
		},
		{name: "syntax", config: "{\n  \"window\": 12,\n}", want: []string{"config: invalid JSON at line 3, column 1"}},
		{name: "empty", config: "", want: []string{"config: empty input"}},
	} {
		t.Run(c.name, func(t *testing.T) {
			path := writeFile(t, "config.json", c.config)
			r := runCmd(t, "check-config", path)
			require.Equal(t, exitError, r.code)
			require.Empty(t, r.stdout)
			lines := strings.Split(strings.TrimSuffix(r.stderr, "\n"), "\n")
			require.Len(t, lines, len(c.want), r.stderr)
			for _, line := range lines {
				require.True(t, strings.HasPrefix(line, "loopbreaker: "+path+": config: "), line)
			}
			for _, w := range c.want {
				found := false
				for _, line := range lines {
					found = found || strings.Contains(line, w)
				}
				require.True(t, found, "no line holds %q:\n%s", w, r.stderr)
			}
		})
	}
}
