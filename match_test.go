package loopbreaker

import (
	"testing"

	"github.com/stretchr/testify/require"
)

func TestWildcardMatch(t *testing.T) {
	cases := []struct {
		pattern, s string
		want       bool
	}{
		{"read*", "read_file", true},
		{"read*", "read", true},
		{"read*", "xread", false},
		{"*write", "todo_write", true},
		{"*_*", "todo_write", true},
		{"*_*", "bash", false},
		{"a*b*c", "axxbyyc", true},
		{"a*b*c", "axxcyyb", false},
		{"*", "", true},
		{"bash", "bash", true},
		{"bash", "bash2", false},
		{"a*a", "a", false},
	}
	for _, c := range cases {
		require.Equal(t, c.want, wildcardMatch(c.pattern, c.s), "%q ~ %q", c.pattern, c.s)
	}
	require.True(t, compilePatterns([]string{"Read*"}).match("READ_FILE"))
}
