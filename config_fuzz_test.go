package loopbreaker

import (
	"bytes"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"
)

// FuzzLoadConfig checks that LoadConfig never panics, that every error it
// reports carries the package's prefix, and that whatever it accepts is valid
// and survives a trip through JSON unchanged. The seeds are in
// testdata/fuzz/FuzzLoadConfig.
func FuzzLoadConfig(f *testing.F) {
	f.Fuzz(func(t *testing.T, data []byte) {
		c, err := LoadConfig(bytes.NewReader(data))
		if err != nil {
			require.Equal(t, Config{}, c)
			for _, e := range splitErrors(err) {
				require.True(t, strings.HasPrefix(e.Error(), "loopbreaker: config: "), "%q", e.Error())
			}
			return
		}
		require.NoError(t, c.Validate())

		out, err := c.JSON()
		require.NoError(t, err)
		back, err := LoadConfig(bytes.NewReader(out))
		require.NoError(t, err, "%s", out)
		require.Equal(t, effective(c), effective(back), "%s", out)

		again, err := back.JSON()
		require.NoError(t, err)
		require.Equal(t, string(out), string(again))
	})
}
