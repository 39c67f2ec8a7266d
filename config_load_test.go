package loopbreaker

import (
	"errors"
	"io"
	"strings"
	"testing"
	"testing/iotest"
	"time"

	"github.com/stretchr/testify/require"
)

func load(t *testing.T, in string) (Config, error) {
	t.Helper()
	return LoadConfig(strings.NewReader(in))
}

// loadErr loads in, requires it to fail, checks that every joined error has
// the package's prefix, and returns the messages.
func loadErr(t *testing.T, in string) []string {
	t.Helper()
	c, err := load(t, in)
	require.Error(t, err, "input %s", in)
	require.Equal(t, Config{}, c, "a failed load returns the zero Config")
	var msgs []string
	for _, e := range splitErrors(err) {
		require.True(t, strings.HasPrefix(e.Error(), "loopbreaker: config: "), e.Error())
		msgs = append(msgs, e.Error())
	}
	return msgs
}

// requireLoadErr requires loading in to fail with one message holding every
// substring of want.
func requireLoadErr(t *testing.T, in string, want ...string) {
	t.Helper()
	msgs := loadErr(t, in)
	for _, m := range msgs {
		ok := true
		for _, w := range want {
			ok = ok && strings.Contains(m, w)
		}
		if ok {
			return
		}
	}
	t.Fatalf("input %s: no error holds %q; got:\n%s", in, want, strings.Join(msgs, "\n"))
}

func TestT12cFailLoud(t *testing.T) {
	t.Run("window 3", func(t *testing.T) {
		err := Config{Window: 3}.Validate()
		require.ErrorContains(t, err, "Window")
		requireLoadErr(t, `{"window": 3}`, "config: window: ", "(got 3)")
	})
	t.Run("limit 1", func(t *testing.T) {
		err := Config{Limits: map[string]int{"verb:curl": 1}}.Validate()
		require.ErrorContains(t, err, `Limits["verb:curl"]`)
		require.ErrorContains(t, err, "deny the first call")
		requireLoadErr(t, `{"limits": {"exact": 1}}`, "limits.exact", "deny the first call")
	})
	t.Run("off disables", func(t *testing.T) {
		require.NoError(t, Config{Limits: map[string]int{"exact": Off}}.Validate())
		c, err := load(t, `{"limits": {"exact": null, "net": -1}}`)
		require.NoError(t, err)
		require.Equal(t, map[string]int{"exact": Off, "net": Off}, c.Limits)
	})
	t.Run("removed keys", func(t *testing.T) {
		for key, want := range map[string]string{
			"denyAfter":            "use limits (e.g. limits.exact)",
			"warnAfter":            "use warnMargin",
			"registerAdvisory":     "advice is built in (warnMargin); remove it",
			"maxSamePath":          "exact: fingerprints; remove it",
			"readTools":            "use include/exclude",
			"matchReadBySubstring": "file reads are matched by exact: fingerprints",
		} {
			requireLoadErr(t, `{"`+key+`": 3}`, "config: "+key+": ", want)
		}
	})
	t.Run("unknown key", func(t *testing.T) {
		requireLoadErr(t, `{"colour": "blue"}`, "config: colour: unknown key")
		requireLoadErr(t, `{"windw": 12}`, `windw: unknown key; did you mean "window"?`)
	})
	t.Run("pathAliases ignored", func(t *testing.T) {
		c, err := load(t, `{"pathAliases": {"/a": "/b"}, "window": 6}`)
		require.NoError(t, err)
		require.Equal(t, Config{Window: 6}, c)
	})
	t.Run("errors.As finds FieldError", func(t *testing.T) {
		var fe *FieldError
		require.True(t, errors.As(Config{Window: 3}.Validate(), &fe))
		require.Equal(t, "Window", fe.Field)

		_, err := load(t, `{"limits": {"net": 0}}`)
		require.True(t, errors.As(err, &fe))
		require.Equal(t, `Limits["net"]`, fe.Field)
		require.Equal(t, 0, fe.Value)

		// JSON-level problems have no Config value to report.
		_, err = load(t, `{"window": "12"}`)
		require.False(t, errors.As(err, &fe))
	})
	t.Run("every problem", func(t *testing.T) {
		msgs := loadErr(t, `{
			"window": 3,
			"limits": {"exact": 1, "bogus": 3, "net": "5"},
			"denyAfter": 4,
			"sttrict": true,
			"previewChars": -1,
			"exclude": [""]
		}`)
		require.Len(t, msgs, 8, strings.Join(msgs, "\n"))
		all := strings.Join(msgs, "\n")
		for _, path := range []string{"window:", "limits.exact:", "limits.bogus:", "limits.net:", "denyAfter:", "sttrict:", "previewChars:", "exclude[0]:"} {
			require.Contains(t, all, "config: "+path)
		}
	})
}

func TestLoadConfigValues(t *testing.T) {
	c, err := load(t, `{
		"window": 20,
		"limits": {"net": 8, "family:http-fetch": 4, "site": null},
		"localHosts": "deny",
		"ignoreArgs": {"bash": ["env"], "*": []},
		"hostAliases": {"docs.example.com": "example.com"},
		"exclude": ["plan", "notes*"],
		"include": [],
		"shellTools": ["sh"],
		"changeTools": ["edit"],
		"previewChars": 100,
		"resultPreviewChars": 200,
		"maxAgents": 50,
		"idleTimeout": "30m",
		"strict": true,
		"failLimit": 2,
		"warnMargin": null,
		"maxDenials": 4
	}`)
	require.NoError(t, err)
	require.Equal(t, Config{
		Window:             20,
		Limits:             map[string]int{"net": 8, "family:http-fetch": 4, "site": Off},
		LocalHosts:         LocalDeny,
		IgnoreArgs:         map[string][]string{"bash": {"env"}, "*": {}},
		HostAliases:        map[string]string{"docs.example.com": "example.com"},
		Exclude:            []string{"plan", "notes*"},
		Include:            []string{},
		ShellTools:         []string{"sh"},
		ChangeTools:        []string{"edit"},
		PreviewChars:       100,
		ResultPreviewChars: 200,
		MaxAgents:          50,
		IdleTimeout:        30 * time.Minute,
		Strict:             true,
		FailLimit:          2,
		WarnMargin:         Off,
		MaxDenials:         4,
	}, c)
}

func TestLoadConfigOnlyWhatIsSet(t *testing.T) {
	c, err := load(t, `{}`)
	require.NoError(t, err)
	require.Equal(t, Config{}, c)

	// null for a map or a list is the same as leaving the key out.
	c, err = load(t, `{"limits": null, "ignoreArgs": null, "hostAliases": null, "exclude": null, "include": null, "shellTools": null, "changeTools": null}`)
	require.NoError(t, err)
	require.Equal(t, Config{}, c)

	c, err = load(t, `{"ignoreArgs": {"bash": null, "*": []}}`)
	require.NoError(t, err)
	require.Empty(t, effective(c).IgnoreArgs["bash"])
	require.Empty(t, effective(c).IgnoreArgs["*"])

	c, err = load(t, ` {"limits": {}} `)
	require.NoError(t, err)
	require.Equal(t, DefaultConfig().Limits, effective(c).Limits)

	c, err = load(t, "\uFEFF{\"window\": 0, \"strict\": false}\n")
	require.NoError(t, err, "a byte order mark is skipped")
	require.Equal(t, Config{}, c)
}

func TestLoadConfigNullMeansOff(t *testing.T) {
	c, err := load(t, `{"limits": {"exact": null, "verb:curl": null}, "maxAgents": null, "failLimit": null, "warnMargin": null, "maxDenials": null}`)
	require.NoError(t, err)
	require.Equal(t, Config{
		Limits:    map[string]int{"exact": Off, "verb:curl": Off},
		MaxAgents: Off, FailLimit: Off, WarnMargin: Off, MaxDenials: Off,
	}, c)

	// Knobs without an Off do not take null.
	for _, key := range []string{"window", "previewChars", "resultPreviewChars"} {
		requireLoadErr(t, `{"`+key+`": null}`, "config: "+key+": ", "not null")
	}
}

func TestLoadConfigLocalHosts(t *testing.T) {
	for name, want := range map[string]LocalPolicy{"ask": LocalAsk, "deny": LocalDeny, "allow": LocalAllow} {
		c, err := load(t, `{"localHosts": "`+name+`"}`)
		require.NoError(t, err)
		require.Equal(t, want, c.LocalHosts)
	}
	requireLoadErr(t, `{"localHosts": "block"}`, "config: localHosts: ", `"ask", "deny" or "allow"`, `(got "block")`)
	requireLoadErr(t, `{"localHosts": "Ask"}`, "config: localHosts: ")
	requireLoadErr(t, `{"localHosts": 1}`, "config: localHosts: ", "not a number")
	requireLoadErr(t, `{"localHosts": null}`, "config: localHosts: ")
}

func TestLoadConfigIdleTimeout(t *testing.T) {
	for in, want := range map[string]time.Duration{
		`"30m"`:       30 * time.Minute,
		`"1h30m"`:     90 * time.Minute,
		`"250ms"`:     250 * time.Millisecond,
		`"0s"`:        0,
		`" 2h "`:      2 * time.Hour,
		`"off"`:       Off,
		`"OFF"`:       Off,
		`null`:        Off,
		`"-1m"`:       -time.Minute,
		`90`:          90 * time.Second,
		`1.5`:         1500 * time.Millisecond,
		`0`:           0,
		`-3`:          -3 * time.Second,
		`0.000000001`: time.Nanosecond,
	} {
		c, err := load(t, `{"idleTimeout": `+in+`}`)
		require.NoError(t, err, in)
		require.Equal(t, want, c.IdleTimeout, in)
	}
	for _, in := range []string{`"30"`, `"soon"`, `""`, `1e3`, `true`, `[]`, `{}`, `99999999999999999999`} {
		requireLoadErr(t, `{"idleTimeout": `+in+`}`, "config: idleTimeout: ", `"30m"`)
	}
	c, err := load(t, `{"idleTimeout": "off"}`)
	require.NoError(t, err)
	require.Less(t, effective(c).IdleTimeout, time.Duration(0), "off keeps idle agents")
}

func TestLoadConfigTypeErrors(t *testing.T) {
	for _, tc := range []struct{ in, path, want string }{
		{`{"window": "12"}`, "window", "must be an integer, not a string"},
		{`{"window": 2.5}`, "window", "whole number"},
		{`{"window": 12.0}`, "window", "whole number"},
		{`{"window": 1e1}`, "window", "whole number"},
		{`{"window": true}`, "window", "not a boolean"},
		{`{"window": 99999999999999999999}`, "window", "must fit in an int"},
		{`{"previewChars": -99999999999999999999}`, "previewChars", "must fit in an int"},
		{`{"maxAgents": "all"}`, "maxAgents", "an integer or null"},
		{`{"failLimit": 1.5}`, "failLimit", "whole number"},
		{`{"warnMargin": []}`, "warnMargin", "not an array"},
		{`{"maxDenials": {}}`, "maxDenials", "not an object"},
		{`{"limits": []}`, "limits", "must be an object, not an array"},
		{`{"limits": {"exact": "5"}}`, "limits.exact", "not a string"},
		{`{"limits": {"verb:curl": 2.5}}`, "limits.verb:curl", "whole number"},
		{`{"limits": {"m.x": true}}`, `limits["m.x"]`, "not a boolean"},
		{`{"ignoreArgs": ["x"]}`, "ignoreArgs", "must be an object"},
		{`{"ignoreArgs": {"bash": "env"}}`, "ignoreArgs.bash", "a list of strings"},
		{`{"ignoreArgs": {"*": ["ok", 3]}}`, `ignoreArgs["*"][1]`, "must be a string, not a number"},
		{`{"hostAliases": {"a.example": 1}}`, `hostAliases["a.example"]`, "host name string"},
		{`{"hostAliases": "x"}`, "hostAliases", "must be an object"},
		{`{"exclude": "todo_write"}`, "exclude", "a list of strings, not a string"},
		{`{"include": [null]}`, "include[0]", "must be a string, not null"},
		{`{"shellTools": {}}`, "shellTools", "a list of strings"},
		{`{"changeTools": [["edit"]]}`, "changeTools[0]", "not an array"},
		{`{"strict": "yes"}`, "strict", "true or false"},
		{`{"strict": null}`, "strict", "true or false"},
	} {
		requireLoadErr(t, tc.in, "config: "+tc.path+": ", tc.want)
	}
}

func TestLoadConfigValueErrors(t *testing.T) {
	for _, tc := range []struct{ in, path string }{
		{`{"window": 10001}`, "window"},
		{`{"limits": {"": 3}}`, `limits[""]`},
		{`{"limits": {"verb:": 3}}`, `limits["verb:"]`},
		{`{"limits": {"nope": 3}}`, "limits.nope"},
		{`{"ignoreArgs": {"bash": [""]}}`, "ignoreArgs.bash[0]"},
		{`{"hostAliases": {"a b": "c"}}`, `hostAliases["a b"]`},
		{`{"hostAliases": {"a.example": "b.example/x"}}`, `hostAliases["a.example"]`},
		{`{"include": ["x", ""]}`, "include[1]"},
		{`{"resultPreviewChars": 2000000}`, "resultPreviewChars"},
		{`{"maxAgents": -2}`, "maxAgents"},
	} {
		requireLoadErr(t, tc.in, "config: "+tc.path+": ", "(got ")
	}
}

func TestLoadConfigDocumentErrors(t *testing.T) {
	requireLoadErr(t, ``, "empty input")
	requireLoadErr(t, " \n\t", "empty input")
	requireLoadErr(t, `null`, "want a JSON object, not null")
	requireLoadErr(t, `[{"window": 12}]`, "want a JSON object, not an array")
	requireLoadErr(t, `"window"`, "want a JSON object")
	requireLoadErr(t, `{"window": 12} {"window": 13}`, "unexpected data after the JSON object")
	requireLoadErr(t, `{"window": 12} x`, "unexpected data after the JSON object")
	requireLoadErr(t, `{"window": 12}]`, "unexpected data after the JSON object")
	requireLoadErr(t, `{"window": 12`, "unexpected end of input")
	requireLoadErr(t, "{\n  \"window\": 12,\n  window: 4\n}", "invalid JSON at line 3, column 3")
	requireLoadErr(t, `{"window": 12,}`, "invalid JSON")
	requireLoadErr(t, `{x}`, "invalid JSON at line 1, column 2")

	// Trailing data does not hide the other problems.
	msgs := loadErr(t, `{"window": 3} 1`)
	require.Len(t, msgs, 2)

	_, err := LoadConfig(iotest.ErrReader(io.ErrClosedPipe))
	require.ErrorContains(t, err, "loopbreaker: config: reading: ")
}

func TestLoadConfigDuplicateKeys(t *testing.T) {
	requireLoadErr(t, `{"window": 12, "window": 13}`, "config: window: duplicate key")
	requireLoadErr(t, `{"limits": {"net": 3, "net": 4}}`, "config: limits.net: duplicate key")
	requireLoadErr(t, `{"hostAliases": {"a": "b", "a": "c"}}`, `config: hostAliases.a: duplicate key`)
}

func TestSuggest(t *testing.T) {
	for in, want := range map[string]string{
		"Window":        "window",
		"WINDOW":        "window",
		"max_agents":    "maxAgents",
		"idle_timeout":  "idleTimeout",
		"limit":         "limits",
		"hostAlias":     "hostAliases",
		"excludes":      "exclude",
		"shelltools":    "shellTools",
		"completelyodd": "",
		"":              "",
	} {
		require.Equal(t, want, suggest(in), in)
	}
	require.Equal(t, 3, editDistance("kitten", "sitting", 5))
	require.Equal(t, 2, editDistance("kitten", "sitting", 2))
	require.Equal(t, 0, editDistance("é", "é", 3))
}

func TestConfigJSONRoundTrip(t *testing.T) {
	for name, c := range map[string]Config{
		"zero":     {},
		"defaults": DefaultConfig(),
		"tuned": {
			Window:      30,
			Limits:      map[string]int{"net": Off, "exact": 2, "verb:curl": 9, "cmd:ls /tmp/a b": 3},
			LocalHosts:  LocalAllow,
			IgnoreArgs:  map[string][]string{"bash": {}, "web_fetch": {"why"}},
			HostAliases: map[string]string{"Docs.Example.com": "Example.COM", "m.youtube.com": "m.youtube.com"},
			Exclude:     []string{}, Include: []string{"bash", "web_*"},
			ShellTools: []string{"sh"}, ChangeTools: []string{},
			PreviewChars: 1, ResultPreviewChars: 1 << 20,
			MaxAgents: Off, IdleTimeout: 90*time.Minute + time.Nanosecond, Strict: true,
			FailLimit: Off, WarnMargin: 2, MaxDenials: Off,
			OnDecision: func(Event) {},
		},
		"idle off":         {IdleTimeout: -time.Minute},
		"html characters":  {Exclude: []string{"<tool>&"}},
		"unicode and keys": {IgnoreArgs: map[string][]string{"outil\u00e9\n": {"x\u2028y"}}},
	} {
		t.Run(name, func(t *testing.T) {
			out, err := c.JSON()
			require.NoError(t, err)
			back, err := LoadConfig(strings.NewReader(string(out)))
			require.NoError(t, err, "%s", out)
			require.Equal(t, effective(c), effective(back))

			// Writing the loaded configuration again gives the same text.
			again, err := back.JSON()
			require.NoError(t, err)
			require.Equal(t, string(out), string(again))
		})
	}
}

func TestConfigJSONForm(t *testing.T) {
	out, err := Config{MaxAgents: Off, IdleTimeout: Off, Exclude: []string{"a<b"}}.JSON()
	require.NoError(t, err)
	s := string(out)
	require.True(t, strings.HasPrefix(s, "{\n  \"window\": 12,\n"), s)
	require.True(t, strings.HasSuffix(s, "}\n"), s)
	require.Contains(t, s, `"site": null`)
	require.Contains(t, s, `"exact": 5`)
	require.Contains(t, s, `"localHosts": "ask"`)
	require.Contains(t, s, `"maxAgents": null`)
	require.Contains(t, s, `"idleTimeout": "off"`)
	require.Contains(t, s, `"include": []`)
	require.Contains(t, s, `"a<b"`)
	require.NotContains(t, s, "onDecision")

	out, err = Config{}.JSON()
	require.NoError(t, err)
	require.Contains(t, string(out), `"idleTimeout": "1h0m0s"`)

	// Keys appear in the documented order.
	last := -1
	for _, k := range configKeys {
		i := strings.Index(string(out), `"`+k+`":`)
		require.Greater(t, i, last, k)
		last = i
	}

	_, err = Config{Window: 3}.JSON()
	var fe *FieldError
	require.True(t, errors.As(err, &fe), "an invalid config is not written")
}
