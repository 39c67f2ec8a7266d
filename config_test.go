package loopbreaker

import (
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/require"
)

// effective is c with the defaults applied and the funcs zeroed, so that two
// configurations can be compared with require.Equal.
func effective(c Config) Config {
	e := c.withDefaults()
	e.OnFault, e.OnDecision = nil, nil
	return e
}

// fieldErrors returns the FieldErrors inside err, in order.
func fieldErrors(t *testing.T, err error) []*FieldError {
	t.Helper()
	var out []*FieldError
	for _, e := range splitErrors(err) {
		var fe *FieldError
		require.True(t, errors.As(e, &fe), "not a *FieldError: %v", e)
		out = append(out, fe)
	}
	return out
}

// splitErrors undoes errors.Join; a single error is returned alone.
func splitErrors(err error) []error {
	if err == nil {
		return nil
	}
	if j, ok := err.(interface{ Unwrap() []error }); ok {
		return j.Unwrap()
	}
	return []error{err}
}

func TestT14Defaults(t *testing.T) {
	d := DefaultConfig()
	require.Equal(t, 12, d.Window)
	for _, k := range []string{"exact", "cmd", "net", "sink"} {
		require.Equal(t, 5, d.Limits[k], k)
	}
	for _, k := range []string{"site", "family:http-fetch", "verb:curl", "verb:wget"} {
		require.Equal(t, Off, d.Limits[k], k)
	}
	require.Len(t, d.Limits, 8)
	require.Equal(t, LocalAsk, d.LocalHosts)
	require.Equal(t, []string{"todo_write"}, d.Exclude)
	require.NotNil(t, d.Include)
	require.Empty(t, d.Include)
	require.Equal(t, 400, d.PreviewChars)
	require.Equal(t, 800, d.ResultPreviewChars)

	require.Equal(t, 10_000, d.MaxAgents)
	require.Equal(t, time.Hour, d.IdleTimeout)
	require.False(t, d.Strict)
	require.Equal(t, 3, d.FailLimit)
	require.Equal(t, 1, d.WarnMargin)
	require.Equal(t, 8, d.MaxDenials)
	require.Nil(t, d.OnFault)
	require.Nil(t, d.OnDecision)
	require.Contains(t, d.IgnoreArgs["*"], "max_output_tokens")
	require.Contains(t, d.IgnoreArgs["bash"], "timeout")
	require.Equal(t, "open.canada.ca", d.HostAliases["open-data.canada.ca"])
	require.NotContains(t, d.HostAliases, "raw.githubusercontent.com")
	require.Contains(t, d.ShellTools, "container.exec")
	require.Contains(t, d.ChangeTools, "str_replace_based_edit_tool")

	require.NoError(t, d.Validate())
	require.Equal(t, d, effective(Config{}))
	// The defaults are a fixed point.
	require.Equal(t, d, effective(d))
}

func TestT16Merge(t *testing.T) {
	t.Run("limits", func(t *testing.T) {
		e := effective(Config{Limits: map[string]int{"net": 9, "verb:curl": 3}})
		require.Equal(t, 9, e.Limits["net"])
		require.Equal(t, 3, e.Limits["verb:curl"])
		require.Equal(t, 5, e.Limits["exact"])
		require.Equal(t, Off, e.Limits["site"])
		require.Len(t, e.Limits, 8)

		e = effective(Config{Limits: map[string]int{"exact": Off}})
		require.Equal(t, Off, e.Limits["exact"])
		require.Equal(t, 5, e.Limits["cmd"])
	})
	t.Run("ignoreArgs", func(t *testing.T) {
		e := effective(Config{IgnoreArgs: map[string][]string{"bash": {"env"}, "grep": {"why"}}})
		require.Equal(t, []string{"env"}, e.IgnoreArgs["bash"])
		require.Equal(t, []string{"why"}, e.IgnoreArgs["grep"])
		require.Equal(t, DefaultConfig().IgnoreArgs["*"], e.IgnoreArgs["*"])

		// A nil list empties that key; it stays non-nil in the result.
		e = effective(Config{IgnoreArgs: map[string][]string{"*": nil}})
		require.NotNil(t, e.IgnoreArgs["*"])
		require.Empty(t, e.IgnoreArgs["*"])
		require.Equal(t, DefaultConfig().IgnoreArgs["bash"], e.IgnoreArgs["bash"])
	})
	t.Run("hostAliases", func(t *testing.T) {
		e := effective(Config{HostAliases: map[string]string{"Docs.Example.COM": "Example.com"}})
		require.Equal(t, "example.com", e.HostAliases["docs.example.com"])
		require.Equal(t, "open.canada.ca", e.HostAliases["open-data.canada.ca"])
		require.Len(t, e.HostAliases, len(DefaultConfig().HostAliases)+1)

		// A key spelled differently still replaces its default.
		e = effective(Config{HostAliases: map[string]string{"M.YouTube.com": "m.youtube.com"}})
		require.Equal(t, "m.youtube.com", e.HostAliases["m.youtube.com"])
		require.NotContains(t, e.HostAliases, "M.YouTube.com")
	})
	t.Run("lists replace", func(t *testing.T) {
		e := effective(Config{Exclude: []string{"plan", "notes"}, Include: []string{"bash"}})
		require.Equal(t, []string{"plan", "notes"}, e.Exclude)
		require.NotContains(t, e.Exclude, "todo_write")
		require.Equal(t, []string{"bash"}, e.Include)

		e = effective(Config{Exclude: []string{}, ShellTools: []string{}, ChangeTools: []string{"edit"}})
		require.NotNil(t, e.Exclude)
		require.Empty(t, e.Exclude)
		require.Empty(t, e.ShellTools)
		require.Equal(t, []string{"edit"}, e.ChangeTools)

		e = effective(Config{})
		require.Equal(t, []string{"todo_write"}, e.Exclude)
	})
	t.Run("caller's values untouched", func(t *testing.T) {
		c := Config{
			Limits:      map[string]int{"net": 9},
			IgnoreArgs:  map[string][]string{"bash": {"env"}},
			HostAliases: map[string]string{"A.example": "B.example"},
			Exclude:     []string{"plan"},
		}
		e := c.withDefaults()
		require.Equal(t, map[string]int{"net": 9}, c.Limits)
		require.Equal(t, map[string][]string{"bash": {"env"}}, c.IgnoreArgs)
		require.Equal(t, map[string]string{"A.example": "B.example"}, c.HostAliases)

		// The result shares nothing with c.
		e.Limits["net"] = 2
		e.IgnoreArgs["bash"][0] = "changed"
		e.Exclude[0] = "changed"
		e.HostAliases["x"] = "y"
		require.Equal(t, 9, c.Limits["net"])
		require.Equal(t, "env", c.IgnoreArgs["bash"][0])
		require.Equal(t, "plan", c.Exclude[0])
		require.NotContains(t, c.HostAliases, "x")
	})
	t.Run("fresh defaults", func(t *testing.T) {
		a := DefaultConfig()
		a.Limits["exact"] = 99
		a.IgnoreArgs["*"][0] = "changed"
		a.HostAliases["m.youtube.com"] = "changed"
		a.Exclude[0] = "changed"
		a.ShellTools[0] = "changed"
		a.ChangeTools[0] = "changed"
		a.Include = append(a.Include, "changed")

		b := DefaultConfig()
		require.Equal(t, 5, b.Limits["exact"])
		require.Equal(t, "description", b.IgnoreArgs["*"][0])
		require.Equal(t, "youtube.com", b.HostAliases["m.youtube.com"])
		require.Equal(t, "todo_write", b.Exclude[0])
		require.Equal(t, "bash", b.ShellTools[0])
		require.Equal(t, "edit", b.ChangeTools[0])
		require.Empty(t, b.Include)
		require.Equal(t, b, effective(Config{}))
	})
}

func TestWithDefaultsScalars(t *testing.T) {
	c := Config{
		Window: 20, LocalHosts: LocalAllow, PreviewChars: 10, ResultPreviewChars: 20,
		MaxAgents: Off, IdleTimeout: -5 * time.Minute, Strict: true,
		FailLimit: Off, WarnMargin: Off, MaxDenials: 2,
	}
	e := effective(c)
	require.Equal(t, 20, e.Window)
	require.Equal(t, LocalAllow, e.LocalHosts)
	require.Equal(t, 10, e.PreviewChars)
	require.Equal(t, 20, e.ResultPreviewChars)
	require.Equal(t, Off, e.MaxAgents)
	require.Equal(t, time.Duration(Off), e.IdleTimeout, "a negative timeout is Off")
	require.True(t, e.Strict)
	require.Equal(t, Off, e.FailLimit)
	require.Equal(t, Off, e.WarnMargin)
	require.Equal(t, 2, e.MaxDenials)
	require.Equal(t, e, effective(e), "withDefaults is idempotent")

	called := false
	c.OnDecision = func(Event) { called = true }
	c.withDefaults().OnDecision(Event{})
	require.True(t, called, "the callbacks are kept")
}

// checkValidate validates c and requires exactly the FieldErrors named by
// fields, in order.
func checkValidate(t *testing.T, c Config, fields ...string) {
	t.Helper()
	err := c.Validate()
	if len(fields) == 0 {
		require.NoError(t, err)
		return
	}
	require.Error(t, err)
	var got []string
	for _, fe := range fieldErrors(t, err) {
		got = append(got, fe.Field)
		require.True(t, strings.HasPrefix(fe.Error(), "loopbreaker: "+fe.Field+": "), fe.Error())
		require.NotEmpty(t, fe.Reason)
	}
	require.Equal(t, fields, got, "errors: %v", err)
}

func TestValidate(t *testing.T) {
	lim := func(k string, v int) Config { return Config{Limits: map[string]int{k: v}} }
	for _, tc := range []struct {
		name   string
		cfg    Config
		fields []string
	}{
		{"zero", Config{}, nil},
		{"defaults", DefaultConfig(), nil},

		{"window 4", Config{Window: 4}, nil},
		{"window 10000", Config{Window: 10_000}, nil},
		{"window 3", Config{Window: 3}, []string{"Window"}},
		{"window 1", Config{Window: 1}, []string{"Window"}},
		{"window negative", Config{Window: -1}, []string{"Window"}},
		{"window too large", Config{Window: 10_001}, []string{"Window"}},

		{"limit off", lim("exact", Off), nil},
		{"limit 2", lim("net", 2), nil},
		{"limit 0", lim("exact", 0), []string{`Limits["exact"]`}},
		{"limit 1", lim("exact", 1), []string{`Limits["exact"]`}},
		{"limit -2", lim("cmd", -2), []string{`Limits["cmd"]`}},
		{"limit each kind", Config{Limits: map[string]int{"exact": 2, "cmd": 3, "net": 4, "sink": 5, "site": 6}}, nil},
		{"limit fingerprint", lim("family:http-fetch", 3), nil},
		{"limit fingerprint with spaces", lim("cmd:git status", 3), nil},
		{"limit of one exact fingerprint", lim("exact:read /tmp/x", 3), []string{`Limits["exact:read /tmp/x"]`}},
		{"limit empty key", lim("", 3), []string{`Limits[""]`}},
		{"limit unknown kind", lim("bogus", 3), []string{`Limits["bogus"]`}},
		{"limit kinds are lower-case", lim("Exact", 3), []string{`Limits["Exact"]`}},
		{"limit bare family", lim("family", 3), []string{`Limits["family"]`}},
		{"limit bare verb", lim("verb", 3), []string{`Limits["verb"]`}},
		{"limit unknown prefix", lim("host:x", 3), []string{`Limits["host:x"]`}},
		{"limit empty fingerprint", lim("verb:", 3), []string{`Limits["verb:"]`}},
		{"limit bad key and value", lim("bogus", 1), []string{`Limits["bogus"]`, `Limits["bogus"]`}},

		{"local deny", Config{LocalHosts: LocalDeny}, nil},
		{"local allow", Config{LocalHosts: LocalAllow}, nil},
		{"local unknown", Config{LocalHosts: 3}, []string{"LocalHosts"}},

		{"ignore ok", Config{IgnoreArgs: map[string][]string{"bash": {"env"}, "*": {}}}, nil},
		{"ignore empty tool", Config{IgnoreArgs: map[string][]string{"": {"x"}}}, []string{`IgnoreArgs[""]`}},
		{"ignore empty name", Config{IgnoreArgs: map[string][]string{"bash": {"ok", ""}}}, []string{`IgnoreArgs["bash"][1]`}},
		{"ignore blank name", Config{IgnoreArgs: map[string][]string{"*": {" "}}}, []string{`IgnoreArgs["*"][0]`}},

		{"alias ok", Config{HostAliases: map[string]string{"a.example": "b.example"}}, nil},
		{"alias same host twice", Config{HostAliases: map[string]string{"A.example": "b", "a.example": "B"}}, nil},
		{"alias case conflict", Config{HostAliases: map[string]string{"A.example": "b", "a.example": "c"}}, []string{`HostAliases["a.example"]`}},
		{"alias empty key", Config{HostAliases: map[string]string{"": "b"}}, []string{`HostAliases[""]`}},
		{"alias empty value", Config{HostAliases: map[string]string{"a": ""}}, []string{`HostAliases["a"]`}},
		{"alias space", Config{HostAliases: map[string]string{"a b": "c"}}, []string{`HostAliases["a b"]`}},
		{"alias tab in value", Config{HostAliases: map[string]string{"a": "c\t"}}, []string{`HostAliases["a"]`}},
		{"alias slash", Config{HostAliases: map[string]string{"a/x": "c/y"}}, []string{`HostAliases["a/x"]`, `HostAliases["a/x"]`}},

		{"lists ok", Config{Exclude: []string{"a*"}, Include: []string{}, ShellTools: []string{"sh"}, ChangeTools: []string{"edit"}}, nil},
		{"exclude empty entry", Config{Exclude: []string{"a", ""}}, []string{"Exclude[1]"}},
		{"include empty entry", Config{Include: []string{""}}, []string{"Include[0]"}},
		{"shell tools empty entry", Config{ShellTools: []string{"  "}}, []string{"ShellTools[0]"}},
		{"change tools empty entry", Config{ChangeTools: []string{"edit", "write", ""}}, []string{"ChangeTools[2]"}},

		{"previews 1", Config{PreviewChars: 1, ResultPreviewChars: 1}, nil},
		{"previews max", Config{PreviewChars: 1 << 20, ResultPreviewChars: 1 << 20}, nil},
		{"preview negative", Config{PreviewChars: -1}, []string{"PreviewChars"}},
		{"preview off is not special", Config{ResultPreviewChars: Off}, []string{"ResultPreviewChars"}},
		{"previews too large", Config{PreviewChars: 1<<20 + 1, ResultPreviewChars: 1<<20 + 1}, []string{"PreviewChars", "ResultPreviewChars"}},

		{"max agents off", Config{MaxAgents: Off}, nil},
		{"max agents 1", Config{MaxAgents: 1}, nil},
		{"max agents -2", Config{MaxAgents: -2}, []string{"MaxAgents"}},

		{"idle negative", Config{IdleTimeout: -time.Minute}, nil},
		{"idle off", Config{IdleTimeout: Off}, nil},
		{"idle tiny", Config{IdleTimeout: time.Nanosecond}, nil},

		{"counters off", Config{FailLimit: Off, WarnMargin: Off, MaxDenials: Off}, nil},
		{"counters 1", Config{FailLimit: 1, WarnMargin: 1, MaxDenials: 1}, nil},
		{"counters -2", Config{FailLimit: -2, WarnMargin: -3, MaxDenials: -100}, []string{"FailLimit", "WarnMargin", "MaxDenials"}},
	} {
		t.Run(tc.name, func(t *testing.T) { checkValidate(t, tc.cfg, tc.fields...) })
	}
}

func TestValidateReportsEveryProblem(t *testing.T) {
	c := Config{
		Window:       3,
		Limits:       map[string]int{"exact": 1, "net": 0, "cmd": 5},
		LocalHosts:   9,
		Exclude:      []string{""},
		PreviewChars: -4,
		MaxDenials:   -7,
	}
	checkValidate(t, c, "Window", `Limits["exact"]`, `Limits["net"]`, "LocalHosts", "Exclude[0]", "PreviewChars", "MaxDenials")
	require.Len(t, strings.Split(c.Validate().Error(), "\n"), 7)
}

func TestFieldErrorText(t *testing.T) {
	err := Config{Window: 3}.Validate()
	require.EqualError(t, err, "loopbreaker: Window: must be 0 (default) or >= 4 (got 3)")
	var fe *FieldError
	require.True(t, errors.As(err, &fe))
	require.Equal(t, &FieldError{Field: "Window", Value: 3, Reason: "must be 0 (default) or >= 4"}, fe)

	err = Config{Limits: map[string]int{"exact": 1}}.Validate()
	require.ErrorContains(t, err, `loopbreaker: Limits["exact"]: `)
	require.ErrorContains(t, err, "would deny the first call")
	require.ErrorContains(t, err, "(got 1)")

	err = Config{LocalHosts: 7}.Validate()
	require.ErrorContains(t, err, "(got LocalPolicy(7))")

	// Long values are clipped in the message but kept whole in Value.
	long := strings.Repeat("é", 100) + " x"
	err = Config{HostAliases: map[string]string{"a": long}}.Validate()
	require.ErrorContains(t, err, "…")
	require.Less(t, len(err.Error()), 200)
	require.True(t, errors.As(err, &fe))
	require.Equal(t, long, fe.Value)

	require.Equal(t, `loopbreaker: X: bad (got "y")`, (&FieldError{Field: "X", Value: "y", Reason: "bad"}).Error())
}

func TestLocalPolicyString(t *testing.T) {
	require.Equal(t, "ask", LocalAsk.String())
	require.Equal(t, "deny", LocalDeny.String())
	require.Equal(t, "allow", LocalAllow.String())
	require.Equal(t, "LocalPolicy(3)", LocalPolicy(3).String())
}

func TestNewValidates(t *testing.T) {
	_, err := New(Config{Window: 3, Limits: map[string]int{"net": 1}})
	require.Len(t, fieldErrors(t, err), 2)

	_, err = New(Config{Limits: map[string]int{"net": 7}})
	require.NoError(t, err)
}
