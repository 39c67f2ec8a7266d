package loopbreaker

import (
	"encoding/json"
	"testing"

	"github.com/stretchr/testify/require"
)

func TestParseCall(t *testing.T) {
	c, err := ParseCall("bash", []byte(`{"command":"ls","n":10000000000000001}`))
	require.NoError(t, err)
	require.Equal(t, "bash", c.Tool)
	require.Equal(t, "ls", c.Args["command"])
	require.Equal(t, json.Number("10000000000000001"), c.Args["n"])

	for _, in := range []string{"", "  ", "null"} {
		c, err := ParseCall("t", []byte(in))
		require.NoError(t, err, "input %q", in)
		require.Nil(t, c.Args)
	}
	for _, in := range []string{"[1]", `"x"`, "{", `{"a":1} {}`, "{} x"} {
		_, err := ParseCall("t", []byte(in))
		require.Error(t, err, "input %q", in)
		require.Contains(t, err.Error(), `loopbreaker: arguments of tool "t"`)
	}
}

func TestVerdictText(t *testing.T) {
	for _, v := range []Verdict{Allow, Deny, Ask, Stop} {
		text, err := v.MarshalText()
		require.NoError(t, err)
		require.Equal(t, v.String(), string(text))
		var back Verdict
		require.NoError(t, back.UnmarshalText(text))
		require.Equal(t, v, back)
	}
	require.Equal(t, "allow", Verdict(0).String())
	_, err := Verdict(9).MarshalText()
	require.Error(t, err)
	var v Verdict
	require.ErrorContains(t, v.UnmarshalText([]byte("block")), "unknown name")
}

func TestHitString(t *testing.T) {
	require.Equal(t, "net:example.com/x 5/5", Hit{Fingerprint: "net:example.com/x", Count: 5, Limit: 5}.String())
	require.Equal(t, " 12/-1", Hit{Count: 12, Limit: Off}.String())
}
