package normalize

import (
	"reflect"
	"slices"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"
)

// sameShell fails t when a and b differ, naming the first difference only:
// require.Equal's full diff of two large results can take minutes.
func sameShell(t *testing.T, a, b Shell, what string) {
	t.Helper()
	if reflect.DeepEqual(a, b) {
		return
	}
	if a.Parsed != b.Parsed {
		t.Fatalf("%s: Parsed %v vs %v", what, a.Parsed, b.Parsed)
	}
	if !slices.Equal(a.Sinks, b.Sinks) {
		t.Fatalf("%s: sinks %q vs %q", what, a.Sinks, b.Sinks)
	}
	for i := range min(len(a.Commands), len(b.Commands)) {
		if !reflect.DeepEqual(a.Commands[i], b.Commands[i]) {
			t.Fatalf("%s: command %d: %q vs %q", what, i, a.Commands[i], b.Commands[i])
		}
	}
	t.Fatalf("%s: %d vs %d commands", what, len(a.Commands), len(b.Commands))
}

// checkShellInvariants holds for every result of ParseShell and ParsePlain.
func checkShellInvariants(t *testing.T, sh Shell) {
	t.Helper()
	require.LessOrEqual(t, len(sh.Commands), shellMaxCommands)
	require.LessOrEqual(t, len(sh.Sinks), shellMaxSinks)
	for _, c := range sh.Commands {
		require.NotContains(t, c.Verb, "/", "verb %q", c.Verb)
	}
	for i, s := range sh.Sinks {
		require.NotEmpty(t, s)
		require.False(t, IsGenericSink(s), "generic sink %q", s)
		require.NotContains(t, sh.Sinks[:i], s, "repeated sink %q", s)
	}
}

func FuzzParseShell(f *testing.F) {
	for _, c := range fastPathInputs {
		f.Add(c)
	}
	for _, c := range quickPathInputs {
		f.Add(c)
	}
	f.Fuzz(func(t *testing.T, cmd string) {
		sh := ParseShell(cmd)
		checkShellInvariants(t, sh)
		sameShell(t, sh, ParseShell(cmd), "not deterministic")
		// The fast and quick paths must give exactly what the parser gives.
		sameShell(t, parseSlow(cmd), sh, "parser vs fast/quick path")
		// A parser that read another line first gives the same result.
		var p ShellParser
		p.Parse("cat > a <<'EOF'\nx\nEOF\ncurl -o b 'https://x' | tee c < d; ls \"$HOME\"")
		sameShell(t, sh, p.Parse(cmd), "reused parser")
	})
}

func FuzzParsePlain(f *testing.F) {
	f.Add(`C:\Users\me\x.txt`)
	f.Fuzz(func(t *testing.T, cmd string) {
		sh := ParsePlain(cmd)
		checkShellInvariants(t, sh)
		require.False(t, sh.Parsed)
		sameShell(t, sh, ParsePlain(cmd), "not deterministic")
	})
}

// FuzzStripVolatile takes a verb and its arguments separated by single
// spaces (empty arguments included).
func FuzzStripVolatile(f *testing.F) {
	f.Add("curl", "-sS --max-time 60 --retry 3 https://a.example.com/x -o f")
	f.Fuzz(func(t *testing.T, verb, joined string) {
		args := strings.Split(joined, " ")
		orig := slices.Clone(args)
		out := StripVolatile(verb, args)
		require.LessOrEqual(t, len(out), len(args))
		require.Equal(t, orig, args, "input modified")
		require.Equal(t, out, StripVolatile(verb, args), "not deterministic")
		require.Equal(t, out, StripVolatile(verb, out), "not idempotent")
		// The buffer form keeps what dst held and appends the same words.
		dst, ok := AppendStripVolatile([]string{"kept"}, verb, args)
		require.Equal(t, HasVolatileFlags(verb), ok)
		if ok {
			require.Equal(t, append([]string{"kept"}, out...), dst)
		} else {
			require.Equal(t, []string{"kept"}, dst)
			require.Equal(t, args, out)
		}
	})
}
