package trace

import (
	"strings"
	"testing"

	"github.com/loopbreaker/loopbreaker"
	"github.com/stretchr/testify/require"
)

func TestReadAndReplay(t *testing.T) {
	in := strings.Join([]string{
		`{"event":"user"}`,
		`{"agent":"main","tool":"bash","args":{"command":"ls"},"result":"a b","is_error":false,"exit_code":0}`,
		``,
		`not json`,
		`{"agent":"subagent:1","tool":"read","args":{"file_path":"/x"},"result":{"k":1}}`,
		`{"no":"tool"}`,
		`{"tool":"bash","args":[1]}`,
		`{"event":"compact"}`,
		`{"tool":"bash","args":{"command":"ls"},"exit_code":2}`,
	}, "\n")
	events, bad, err := Read(strings.NewReader(in))
	require.NoError(t, err)
	require.Len(t, bad, 3)
	require.Equal(t, 3, bad[0].Line)
	require.Contains(t, bad[0].Error(), "line 4:")
	require.Len(t, events, 4)
	require.True(t, events[0].User)
	require.Equal(t, "main", events[0].Agent)
	require.Equal(t, "a b", events[1].Result.Text)
	require.Equal(t, `{"k":1}`, events[2].Result.Text)
	require.Equal(t, "subagent:1", events[2].Agent)
	require.Equal(t, 2, *events[3].Result.ExitCode)
	require.Equal(t, 8, events[3].Line)

	b, err := loopbreaker.New(loopbreaker.Config{Limits: map[string]int{"exact": 2}})
	require.NoError(t, err)
	var verdicts []string
	Replay(b, events, false, func(ev Event, d loopbreaker.Decision) {
		verdicts = append(verdicts, d.Verdict.String())
	})
	require.Equal(t, []string{"allow", "allow", "deny"}, verdicts)
}
