package main

import (
	"strings"
	"testing"
)

// The example shows what the README promises: four attempts run, the fifth
// is denied before it runs, with the breaker's message.
func TestDispatchDeniesTheFifthAttempt(t *testing.T) {
	var out strings.Builder
	if err := run(&out); err != nil {
		t.Fatal(err)
	}
	text := out.String()
	for i, want := range []string{"allow", "allow", "allow", "allow", "deny"} {
		line := "call " + string(rune('1'+i)) + ": "
		at := strings.Index(text, line)
		if at < 0 {
			t.Fatalf("no %q in:\n%s", line, text)
		}
		if got := text[at:]; !strings.Contains(strings.SplitN(got, "\n", 3)[1], "-> "+want) {
			t.Fatalf("%s: want %s in:\n%s", line, want, got)
		}
	}
	if !strings.Contains(text, "REPEAT_TOOL_BLOCKED") {
		t.Fatalf("no denial message in:\n%s", text)
	}
}
