package fingerprint

import (
	"fmt"
	"sync"
	"testing"

	"github.com/stretchr/testify/require"
)

func TestToolOf(t *testing.T) {
	a := New(Options{
		ShellTools:  []string{"bash"},
		ChangeTools: []string{"edit"},
		IgnoreArgs:  map[string][]string{"*": {"description"}, "Edit": {"reason"}},
	})
	want := func(tool string) toolFacts {
		lower := toLower(tool)
		f := toolFacts{name: tool, lower: lower, decoys: a.decoysOf(lower), change: a.change[lower]}
		switch {
		case a.shellTools[lower]:
			f.class = Shell
		case isURLTool(lower):
			f.class = URLTool
		}
		return f
	}
	tools := []string{"Bash", "bash", "Edit", "web_fetch", "str_replace_editor", "Search"}
	for i := range 10 {
		tools = append(tools, fmt.Sprintf("tool%d", i))
	}
	// More tools than the cache holds, from several goroutines at once: every
	// answer must be the one worked out from scratch.
	var wg sync.WaitGroup
	for g := range 4 {
		wg.Go(func() {
			for i := range 400 {
				tool := tools[(g*7+i*(g+1))%len(tools)]
				if got := *a.toolOf(tool); !assertSameFacts(got, want(tool)) {
					t.Errorf("toolOf(%q) = %+v", tool, got)
					return
				}
			}
		})
	}
	wg.Wait()
	require.Equal(t, Shell, a.toolOf("Bash").class)
	require.True(t, a.toolOf("Edit").change)
	require.True(t, a.toolOf("Edit").decoys.skip("reason"))
	require.False(t, a.toolOf("bash").decoys.skip("reason"))
}

func assertSameFacts(a, b toolFacts) bool {
	return a.name == b.name && a.lower == b.lower && a.class == b.class && a.change == b.change &&
		fmt.Sprint(a.decoys.set) == fmt.Sprint(b.decoys.set) && a.decoys.position == b.decoys.position
}

func TestDecoysFilter(t *testing.T) {
	a := New(Options{IgnoreArgs: map[string][]string{
		"*":    {"description", "timeoutMs", "comment", "", "x"},
		"bash": {"timeout", "Reason"},
	}})
	for _, tool := range []string{"bash", "other"} {
		d := a.decoysOf(tool)
		for _, name := range []string{"description", "timeoutMs", "comment", "", "x", "timeout", "Reason",
			"command", "reason", "descriptio", "y", "timeout_ms", "path", "file_text"} {
			require.Equal(t, d.set[name], d.skip(name), "tool %s, argument %q", tool, name)
		}
	}
}
