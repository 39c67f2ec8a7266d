package normalize

import (
	"strings"
	"testing"

	"github.com/stretchr/testify/require"
)

// urlRequirePrintableASCII checks that s holds only printable ASCII other than
// space, so it can never contain whitespace.
func urlRequirePrintableASCII(t *testing.T, s string) {
	t.Helper()
	for i := 0; i < len(s); i++ {
		require.True(t, s[i] > ' ' && s[i] < 0x7f, "byte %#x at %d in %q", s[i], i, s)
	}
}

func FuzzNormalizeURL(f *testing.F) {
	for _, seed := range []string{
		"https://open.canada.ca/x/",
		"open-data.canada.ca/x",
		"HTTP://WWW.Example.COM:443/a/#frag",
		"http://[::1]:3000/",
		"https://example.com/?b=2&a=1&utm_source=x",
		"http://0x7f.1/",
	} {
		f.Add(seed)
	}
	aliases := map[string]string{
		"open-data.canada.ca": "open.canada.ca",
		"example.com":         "[::1]",
		"localhost":           "WWW.B\u00dcCHER.example.",
	}
	f.Fuzz(func(t *testing.T, raw string) {
		u, ok := NormalizeURL(raw, nil)
		again, okAgain := NormalizeURL(raw, nil)
		require.Equal(t, ok, okAgain, "deterministic ok")
		require.Equal(t, u, again, "deterministic result")

		_ = IsLocalHost(raw)
		_ = SiteOf(raw)
		if a, ok := NormalizeURL(raw, aliases); ok {
			urlRequirePrintableASCII(t, a.Identity())
		}

		if !ok {
			require.Equal(t, URL{}, u)
			return
		}
		id := u.Identity()
		require.NotEmpty(t, u.Host)
		urlRequirePrintableASCII(t, id)
		require.Equal(t, SiteOf(u.Host), u.Site)
		require.Equal(t, IsLocalHost(u.Host), u.Local)

		back, ok := NormalizeURL("https://"+id, nil)
		require.True(t, ok, "identity %q of %q does not parse", id, raw)
		require.Equal(t, u, back, "identity %q of %q is not stable", id, raw)
	})
}

func FuzzExtractURLs(f *testing.F) {
	for _, seed := range []string{
		"see https://a.com/x. and (https://b.com/y), https://a.com/x",
		`curl -s "https://x.com/a?b=1" -o f`,
		"wiki https://en.wikipedia.org/wiki/Foo_(bar)",
		"HTTPS://A.COM/))",
	} {
		f.Add(seed)
	}
	f.Fuzz(func(t *testing.T, text string) {
		got := ExtractURLs(text)
		require.Equal(t, got, ExtractURLs(text), "deterministic")
		require.LessOrEqual(t, len(got), urlMaxExtract)
		seen := make(map[string]bool, len(got))
		for _, s := range got {
			require.True(t, strings.Contains(text, s), "%q is not in the input", s)
			lower := strings.ToLower(s[:min(len(s), len("https://"))])
			require.True(t, strings.HasPrefix(lower, "http://") || strings.HasPrefix(lower, "https://"), "%q has no http(s) scheme", s)
			require.NotContains(t, ".,;:!?", s[len(s)-1:], "%q ends in punctuation", s)
			require.False(t, strings.ContainsAny(s, " \t\r\n\"'`<>\\"), "%q contains a terminator", s)
			require.False(t, seen[s], "%q is returned twice", s)
			seen[s] = true
		}
	})
}
