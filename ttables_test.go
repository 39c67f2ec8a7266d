package loopbreaker

import (
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/loopbreaker/loopbreaker/normalize"
	"github.com/stretchr/testify/require"
)

// The acceptance tables T1–T22: one test (or group) per row. Each runs in the
// default mode and in Strict mode, since both must keep these behaviours.

// modes runs fn once per counting mode, with cfg adjusted.
func modes(t *testing.T, cfg Config, fn func(t *testing.T, b *Breaker)) {
	t.Helper()
	for _, strict := range []bool{false, true} {
		name := "default"
		if strict {
			name = "strict"
		}
		t.Run(name, func(t *testing.T) {
			c := cfg
			c.Strict = strict
			b, err := New(c)
			require.NoError(t, err)
			fn(t, b)
		})
	}
}

// bash is the T-tables' standard call: a bash command with decoys.
func bash(command, description string, timeoutMs int) Call {
	return Call{Tool: "bash", Args: map[string]any{"command": command, "description": description, "timeoutMs": timeoutMs}}
}

func cmd(command string) Call { return bash(command, "fetch data", 60000) }

// capOf returns the effective limit of a fingerprint kind.
func capOf(b *Breaker, kind string) int { return b.cfg.Limits[kind] }

// step is one call and the verdict it must get.
type step struct {
	call Call
	want Verdict
}

// run checks each step in order for agent "A" and returns the last decision.
func run(t *testing.T, b *Breaker, steps ...step) Decision {
	t.Helper()
	var d Decision
	for i, s := range steps {
		d = b.Check("A", s.call)
		require.Equal(t, s.want, d.Verdict, "step %d (%s %v): hits %v", i+1, s.call.Tool, s.call.Args, d.Hits)
	}
	return d
}

// repeat returns n steps of call, all allowed but the last, which gets last.
func repeat(call Call, n int, last Verdict) []step {
	steps := make([]step, n)
	for i := range steps {
		steps[i] = step{call, Allow}
	}
	steps[n-1].want = last
	return steps
}

func hitNames(d Decision) []string {
	var out []string
	for _, h := range d.Hits {
		out = append(out, h.Fingerprint)
	}
	return out
}

func exactOf(t *testing.T, b *Breaker, c Call) string {
	t.Helper()
	fps := b.Fingerprints(c)
	require.NotEmpty(t, fps)
	require.True(t, strings.HasPrefix(fps[0], "exact:"))
	return fps[0]
}

func TestT1PingPong(t *testing.T) {
	modes(t, Config{}, func(t *testing.T, b *Breaker) {
		a := bash("curl -s https://open-data.canada.ca/x --max-time 60 -o /workspace/od.bin", "1st", 60000)
		c := bash("curl -s https://open.canada.ca/x --max-time 30 -o /workspace/od.bin", "2nd", 60000)
		require.NotEqual(t, exactOf(t, b, a), exactOf(t, b, c))
		limit := capOf(b, "net")
		var d Decision
		for round := 1; round <= limit; round++ {
			call := a
			if round%2 == 0 {
				call = c
			}
			d = b.Check("A", call)
			if round < limit {
				require.Equal(t, Allow, d.Verdict, "round %d", round)
			}
		}
		require.Equal(t, Deny, d.Verdict)
		require.Contains(t, hitNames(d), "net:open.canada.ca/x")
		require.Contains(t, hitNames(d), "sink:/workspace/od.bin")
	})
}

func TestT1bURLFolding(t *testing.T) {
	aliases := DefaultConfig().HostAliases
	u1, ok1 := normalize.NormalizeURL("open-data.canada.ca/x", aliases)
	u2, ok2 := normalize.NormalizeURL("https://open.canada.ca/x/", aliases)
	require.True(t, ok1 && ok2)
	require.Equal(t, u2.Identity(), u1.Identity())
	require.Equal(t, "open.canada.ca/x", u1.Identity())
	u3, ok := normalize.NormalizeURL("www.open-data.canada.ca", aliases)
	require.True(t, ok)
	require.Equal(t, "canada.ca", u3.Site)
}

func TestT2DescriptionDecoys(t *testing.T) {
	modes(t, Config{}, func(t *testing.T, b *Breaker) {
		limit := capOf(b, "exact")
		descs := []string{"1st", "2nd", "3rd", "4th", "5th", "6th", "7th"}
		for i := range limit {
			call := bash("curl -s https://example.com/data.json", descs[i], 60001+i)
			for _, fp := range b.Fingerprints(call) {
				require.NotContains(t, fp, descs[i])
				require.NotContains(t, fp, fmt.Sprint(60001+i))
			}
			want := Allow
			if i == limit-1 {
				want = Deny
			}
			run(t, b, step{call, want})
		}
	})
}

func TestT2bEditRetry(t *testing.T) {
	modes(t, Config{}, func(t *testing.T, b *Breaker) {
		edit := Call{Tool: "edit", Args: map[string]any{"file_path": "/w/a.go", "old_string": "x := 1", "new_string": "x := 2"}}
		run(t, b, repeat(edit, capOf(b, "exact"), Deny)...)
	})
}

func TestT3SameCommandSameExact(t *testing.T) {
	modes(t, Config{}, func(t *testing.T, b *Breaker) {
		a := bash("ls -la /workspace", "list it", 1000)
		c := bash("ls -la /workspace", "list it again", 99999)
		require.Equal(t, exactOf(t, b, a), exactOf(t, b, c))
	})
}

func TestT4UnrelatedCalls(t *testing.T) {
	modes(t, Config{}, func(t *testing.T, b *Breaker) {
		run(t, b, step{cmd("ls /workspace"), Allow}, step{cmd("curl -s https://other.example.org/"), Allow})
	})
}

func TestT4bFileToolsOnOnePath(t *testing.T) {
	modes(t, Config{}, func(t *testing.T, b *Breaker) {
		run(t, b,
			step{Call{Tool: "read", Args: map[string]any{"file_path": "/w/a.go"}}, Allow},
			step{Call{Tool: "write", Args: map[string]any{"file_path": "/w/a.go", "content": "package a"}}, Allow},
			step{Call{Tool: "edit", Args: map[string]any{"file_path": "/w/a.go", "old_string": "a", "new_string": "b"}}, Allow},
		)
	})
}

func TestT4cEditsAndReadsByPosition(t *testing.T) {
	modes(t, Config{}, func(t *testing.T, b *Breaker) {
		var steps []step
		for i := range 8 {
			steps = append(steps, step{Call{Tool: "edit", Args: map[string]any{
				"file_path": "/w/a.go", "old_string": fmt.Sprintf("v%d", i), "new_string": fmt.Sprintf("v%d", i+1)}}, Allow})
		}
		for _, off := range []int{0, 200, 400, 600} {
			steps = append(steps, step{Call{Tool: "read", Args: map[string]any{"file_path": "/w/a.go", "offset": off}}, Allow})
		}
		run(t, b, steps...)
		again := Call{Tool: "edit", Args: map[string]any{"file_path": "/w/a.go", "old_string": "v9", "new_string": "v10"}}
		d := run(t, b, repeat(again, capOf(b, "exact"), Deny)...)
		require.Len(t, d.Hits, 1)
		require.True(t, strings.HasPrefix(d.Hits[0].Fingerprint, "exact:edit:"))
	})
}

func TestT5CurlWgetCycle(t *testing.T) {
	modes(t, Config{}, func(t *testing.T, b *Breaker) {
		cycle := []Call{
			cmd("curl -s https://x.example.com/f --max-time 20 -o out.bin"),
			cmd("wget -O out.bin https://x.example.com/f"),
			cmd("curl -s -o out.bin https://x.example.com/f"),
		}
		require.Contains(t, b.Fingerprints(cycle[1]), "family:http-fetch")
		limit := capOf(b, "net")
		var d Decision
		for i := range limit {
			d = b.Check("A", cycle[i%len(cycle)])
			if i < limit-1 {
				require.Equal(t, Allow, d.Verdict, "call %d", i+1)
			}
		}
		require.Equal(t, Deny, d.Verdict)
		require.Contains(t, hitNames(d), "net:x.example.com/f")
		require.Contains(t, hitNames(d), "sink:out.bin")
	})
}

func TestT6ExcludeAndInclude(t *testing.T) {
	modes(t, Config{}, func(t *testing.T, b *Breaker) {
		todo := Call{Tool: "todo_write", Args: map[string]any{"todos": []any{"a"}}}
		ls := cmd("ls")
		limit := capOf(b, "exact")
		for range limit - 1 {
			run(t, b, step{ls, Allow})
		}
		for range 10 {
			run(t, b, step{todo, Allow})
		}
		require.Nil(t, b.Fingerprints(todo))
		// todo_write neither counted nor reset the window: ls is still at its cap.
		run(t, b, step{ls, Deny})
	})
	modes(t, Config{Include: []string{"read*"}, Exclude: []string{}}, func(t *testing.T, b *Breaker) {
		require.Nil(t, b.Fingerprints(cmd("ls")))
		run(t, b, repeat(cmd("ls"), 8, Allow)...)
		read := Call{Tool: "read_file", Args: map[string]any{"file_path": "/w/a"}}
		require.NotEmpty(t, b.Fingerprints(read))
		run(t, b, repeat(read, capOf(b, "exact"), Deny)...)
	})
	modes(t, Config{Exclude: []string{"*_write"}}, func(t *testing.T, b *Breaker) {
		require.Nil(t, b.Fingerprints(Call{Tool: "todo_write"}))
		require.Nil(t, b.Fingerprints(Call{Tool: "file_write"}))
		require.NotNil(t, b.Fingerprints(Call{Tool: "write"}))
	})
}

func TestT7PerAgentIsolation(t *testing.T) {
	modes(t, Config{}, func(t *testing.T, b *Breaker) {
		call := cmd("curl -s https://example.com/")
		run(t, b, repeat(call, capOf(b, "exact"), Deny)...)
		require.Equal(t, Allow, b.Check("B", call).Verdict)
	})
}

func TestT8VolatileFlags(t *testing.T) {
	modes(t, Config{}, func(t *testing.T, b *Breaker) {
		cmdOf := func(command string) []string {
			var out []string
			for _, fp := range b.Fingerprints(cmd(command)) {
				if strings.HasPrefix(fp, "cmd:") {
					out = append(out, fp)
				}
			}
			return out
		}
		a := cmdOf("curl -sS --max-time 60 --retry 3 https://a.example.com/x -o f")
		c := cmdOf("curl --max-time 30 --retry 0 https://a.example.com/x -o f")
		require.Len(t, a, 1)
		require.Equal(t, a, c)
		require.Equal(t, []string{"cmd:curl -o out.bin https://a.com/x"}, cmdOf("timeout 30 curl -s -o out.bin https://a.com/x"))
		fps := b.Fingerprints(cmd("FOO=1 sudo timeout 5 /usr/bin/curl https://a.com"))
		require.Contains(t, fps, "verb:curl")
	})
}

func TestT9NormaliserUnits(t *testing.T) {
	// Decoys removed and nothing else; keys deep-sorted.
	b, err := New(Config{})
	require.NoError(t, err)
	fps := b.Fingerprints(Call{Tool: "read", Args: map[string]any{
		"description": "x", "file_path": "/a", "opts": map[string]any{"z": 1, "a": 2}}})
	require.Equal(t, `exact:read:{"file_path":"/a","opts":{"a":2,"z":1}}`, fps[0])

	u, ok := normalize.NormalizeURL("HTTP://WWW.Example.COM:443/a/?b=2&utm_source=x&a=1#frag", nil)
	require.True(t, ok)
	require.Equal(t, "example.com/a?a=1&b=2", u.Identity())
	u, ok = normalize.NormalizeURL("http://192.168.111.90/x", nil)
	require.True(t, ok)
	require.Equal(t, "192.168.111.90", u.Site)
	_, ok = normalize.NormalizeURL("not a url", nil)
	require.False(t, ok)

	sinks := func(command string) []string { return normalize.ParseShell(command).Sinks }
	require.Equal(t, []string{"out.bin"}, sinks("curl -s -o out.bin https://a.com"))
	require.Equal(t, []string{"/tmp/out.bin"}, sinks("echo x > /tmp/out.bin"))
	require.Equal(t, []string{"/tmp/out.bin"}, sinks("echo x >>/tmp/out.bin"))
	require.Equal(t, []string{"out.bin"}, sinks("cmd 2>/dev/null > out.bin"))
	require.Equal(t, []string{"out.bin"}, sinks("curl https://a.com | tee -a ./out.bin"))
	require.Equal(t, []string{"file.bin"}, sinks("wget -O file.bin https://a.com"))
	require.Empty(t, sinks("curl -O https://a.com/x"))
	require.Empty(t, sinks("ls -la"))

	require.Equal(t, []string{"https://a.com/x", "https://b.com/y"},
		normalize.ExtractURLs("see https://a.com/x. and https://b.com/y, https://a.com/x"))
	require.Equal(t, []string{"a b", "f"}, normalize.ParseShell(`grep "a b" f`).Commands[0].Args)
}

func TestT10ReadPositions(t *testing.T) {
	modes(t, Config{}, func(t *testing.T, b *Breaker) {
		first := Call{Tool: "read", Args: map[string]any{"file_path": "/w/big.txt"}}
		at120 := Call{Tool: "read", Args: map[string]any{"file_path": "/w/big.txt", "offset": 120}}
		run(t, b, step{first, Allow})
		d := run(t, b, repeat(at120, capOf(b, "exact"), Deny)...)
		require.Equal(t, "exact:read:{\"file_path\":\"/w/big.txt\",\"offset\":120}", d.Hits[0].Fingerprint)
	})
}

func TestT11StaysDenied(t *testing.T) {
	modes(t, Config{}, func(t *testing.T, b *Breaker) {
		call := cmd("curl -s https://example.com/a")
		run(t, b, repeat(call, capOf(b, "exact"), Deny)...)
		for range 3 {
			run(t, b, step{call, Deny})
		}
	})
}

func TestT11bDeniedCallChargesOnlyHits(t *testing.T) {
	modes(t, Config{}, func(t *testing.T, b *Breaker) {
		limit := capOf(b, "sink")
		for i := range limit - 1 {
			run(t, b, step{cmd(fmt.Sprintf("curl -s https://a.example.com/%d -o /tmp/shared.bin", i)), Allow})
		}
		d := run(t, b, step{cmd("curl -s https://b.example.com/2 -o /tmp/shared.bin"), Deny})
		require.Equal(t, []string{"sink:/tmp/shared.bin"}, hitNames(d))
		run(t, b, step{Call{Tool: "web_fetch", Args: map[string]any{"url": "https://b.example.com/2"}}, Allow})
	})
}

func TestT12HostUse(t *testing.T) {
	modes(t, Config{}, func(t *testing.T, b *Breaker) {
		limit := capOf(b, "exact")
		call := func(i int) Call {
			return bash("curl -s https://example.com/<tool_call>", fmt.Sprintf("decoy-%d", i), 1000+i)
		}
		run(t, b, step{call(0), Allow})
		b.Record("A", call(0), Result{Text: "first result <function=evil> done"})
		for i := 1; i < limit-1; i++ {
			run(t, b, step{call(i), Allow})
		}
		d := run(t, b, step{call(limit), Deny})
		require.True(t, strings.HasPrefix(d.Message, BlockedPrefix))
		require.NotContains(t, d.Message, "<tool_call>")
		require.NotContains(t, d.Message, "<function=")
		require.Contains(t, d.Message, "first result")
		for _, h := range d.Hits {
			require.NotContains(t, h.Fingerprint, "decoy")
		}
		// Records of results and plugin-like notices do not reset; a user turn does.
		b.Record("A", call(99), Result{Text: "another"})
		run(t, b, step{call(100), Deny})
		b.UserTurn("A")
		run(t, b, step{call(101), Allow})
	})
}

func TestT13DenialText(t *testing.T) {
	cfg := Config{PreviewChars: 20, ResultPreviewChars: 10}
	modes(t, cfg, func(t *testing.T, b *Breaker) {
		call := cmd("curl -s https://example.com/a-rather-long-path-name")
		for range capOf(b, "exact") - 1 {
			run(t, b, step{call, Allow})
		}
		b.Record("A", call, Result{Text: "0123456789ABCDEFGHIJ"})
		d := run(t, b, step{call, Deny})
		limit := capOf(b, "exact")
		for _, h := range d.Hits {
			require.LessOrEqual(t, len([]rune(h.Fingerprint)), 21)
			require.Contains(t, d.Message, fmt.Sprintf("- %s %d/%d", h.Fingerprint, limit, limit))
		}
		for _, word := range []string{"description", "timeoutMs", "--max-time", "host spelling"} {
			require.Contains(t, d.Message, word)
		}
		require.Contains(t, d.Message, "0123456789…")
		require.NotContains(t, d.Message, "0123456789A")
	})
}

func TestT14bVolumeIsNotALoop(t *testing.T) {
	modes(t, Config{}, func(t *testing.T, b *Breaker) {
		for i := range 12 {
			run(t, b, step{cmd(fmt.Sprintf("curl -s -o /dev/null https://site%d.example.com/", i)), Allow})
		}
		again := cmd("curl -s -o /dev/null https://site11.example.com/")
		run(t, b, repeat(again, capOf(b, "exact")-1, Deny)...)
	})
}

func TestT14cPagination(t *testing.T) {
	modes(t, Config{}, func(t *testing.T, b *Breaker) {
		seen := map[string]bool{}
		for n := 1; n <= 12; n++ {
			call := cmd(fmt.Sprintf(`curl -sL "https://api.github.com/repos/o/r/commits?per_page=100&page=%d"`, n))
			var nets []string
			for _, fp := range b.Fingerprints(call) {
				if strings.HasPrefix(fp, "net:") {
					nets = append(nets, fp)
				}
			}
			require.Len(t, nets, 1)
			require.False(t, seen[nets[0]])
			seen[nets[0]] = true
			run(t, b, step{call, Allow})
		}
		b.UserTurn("A")
		page := cmd(`curl -sL "https://api.github.com/repos/o/r/commits?per_page=100&page=3"`)
		run(t, b, repeat(page, capOf(b, "net"), Deny)...)
	})
}

func TestT15GenericSinks(t *testing.T) {
	modes(t, Config{}, func(t *testing.T, b *Breaker) {
		for i := range 4 {
			call := cmd(fmt.Sprintf(`curl -s -o /dev/null -w "%%{http_code}" https://u%d.example.com/`, i))
			for _, fp := range b.Fingerprints(call) {
				require.NotEqual(t, "sink:/dev/null", fp)
			}
			run(t, b, step{call, Allow})
		}
	})
	for _, p := range []string{"/dev/null", "/dev/stdout", "/dev/stderr", "/dev/zero", "/dev/tty", "-"} {
		require.True(t, normalize.IsGenericSink(p), p)
	}
}

func TestT17LocalHostPredicate(t *testing.T) {
	for _, h := range []string{"localhost", "api.localhost", "127.0.0.1", "127.9.9.9", "::1", "10.1.2.3", "192.168.111.90",
		"172.16.0.1", "172.31.255.255", "169.254.1.1", "0.0.0.0", "fd00::1", "fe80::1"} {
		require.True(t, normalize.IsLocalHost(h), h)
	}
	for _, h := range []string{"example.com", "open.canada.ca", "8.8.8.8", "172.32.0.1", "172.15.0.1", "192.169.0.1", "2606:4700::1111"} {
		require.False(t, normalize.IsLocalHost(h), h)
	}
}

func TestT18CallLocality(t *testing.T) {
	b, err := New(Config{})
	require.NoError(t, err)
	local := func(command string) bool {
		return b.analyzer.Analyze("bash", map[string]any{"command": command}).Local
	}
	require.True(t, local("curl http://localhost:8080/health"))
	require.True(t, local("curl http://127.0.0.1:11434/api && curl http://10.0.0.5/x"))
	require.False(t, local("curl http://localhost:8080/ https://example.com/"))
	require.False(t, local("ls -la"))

	// A non-local call is never asked about.
	call := cmd("curl -s https://example.com/ping")
	run(t, b, repeat(call, capOf(b, "exact"), Deny)...)
}

// localCall varies its command text so that only the target fingerprints
// repeat.
func localCall(i int) Call {
	return cmd(fmt.Sprintf("curl -s http://localhost:8080/health -H 'X-Try: %d'", i))
}

func TestT19LocalDeny(t *testing.T) {
	modes(t, Config{LocalHosts: LocalDeny}, func(t *testing.T, b *Breaker) {
		limit := capOf(b, "net")
		for i := range limit - 1 {
			run(t, b, step{localCall(i), Allow})
		}
		d := run(t, b, step{localCall(limit), Deny})
		require.Contains(t, hitNames(d), "net:localhost:8080/health")
		require.Contains(t, d.Message, "LocalHosts")
	})
}

func TestT20LocalAllow(t *testing.T) {
	modes(t, Config{LocalHosts: LocalAllow}, func(t *testing.T, b *Breaker) {
		fps := b.Fingerprints(cmd("curl -s -o out.json http://localhost:8080/health"))
		var kinds []string
		for _, fp := range fps {
			kinds = append(kinds, fp[:strings.IndexByte(fp, ':')])
		}
		require.ElementsMatch(t, []string{"exact", "cmd"}, slices.Compact(slices.Sorted(slices.Values(kinds))))
		for i := range 12 {
			run(t, b, step{localCall(i), Allow})
		}
	})
}

func TestT21LocalAsk(t *testing.T) {
	modes(t, Config{}, func(t *testing.T, b *Breaker) {
		limit := capOf(b, "net")
		for i := range limit - 1 {
			run(t, b, step{localCall(i), Allow})
		}
		asked := run(t, b, step{localCall(limit), Ask})
		require.NotEmpty(t, asked.Prompt)
		require.Empty(t, asked.Message)
		d := b.Resolve("A", asked, true)
		require.Equal(t, Allow, d.Verdict)
		// Local targets stop blocking for the rest of the turn.
		for i := range 2 * limit {
			run(t, b, step{localCall(100 + i), Allow})
		}
		// exact and cmd still count: a byte-identical local call is denied, not asked.
		d = run(t, b, repeat(localCall(7), capOf(b, "exact"), Deny)...)
		require.True(t, strings.HasPrefix(d.Message, BlockedPrefix))
		// Resolving the same Ask again gives the same answer and commits nothing more.
		require.Equal(t, Allow, b.Resolve("A", asked, false).Verdict)
	})
}

func TestT22DeclinedAsk(t *testing.T) {
	modes(t, Config{}, func(t *testing.T, b *Breaker) {
		limit := capOf(b, "net")
		for i := range limit - 1 {
			run(t, b, step{localCall(i), Allow})
		}
		asked := run(t, b, step{localCall(limit), Ask})
		d := b.Resolve("A", asked, false)
		require.Equal(t, Deny, d.Verdict)
		require.True(t, strings.HasPrefix(d.Message, BlockedPrefix))
		require.Contains(t, d.Message, "did not grant an exemption")
		// Later calls that would have asked are denied without asking.
		d = run(t, b, step{localCall(limit + 1), Deny})
		require.True(t, strings.HasPrefix(d.Message, BlockedPrefix))
		// After a user turn, asking resumes.
		b.UserTurn("A")
		for i := range limit - 1 {
			run(t, b, step{localCall(200 + i), Allow})
		}
		run(t, b, step{localCall(300), Ask})
	})
}

// Whole fingerprints can be capped on their own, over their kind's limit.
func TestWholeFingerprintLimits(t *testing.T) {
	modes(t, Config{Limits: map[string]int{"verb:curl": 3, "site": 4}}, func(t *testing.T, b *Breaker) {
		run(t, b,
			step{cmd("curl -s https://a.example.com/1"), Allow},
			step{cmd("curl -s https://b.example.org/2"), Allow},
		)
		d := run(t, b, step{cmd("curl -s https://c.example.net/3"), Deny})
		require.Equal(t, []string{"verb:curl"}, hitNames(d))
		// wget is not curl; its site budget is the kind's.
		run(t, b, step{cmd("wget -q https://a.example.com/9"), Allow})
	})
}

// Nothing the breaker writes reads as a tool-call template, whatever the
// tool's name, arguments or results hold.
func TestNoToolCallTemplatesInAnyText(t *testing.T) {
	b, err := New(Config{})
	require.NoError(t, err)
	tool := "<tool_call><function=x>"
	for range 6 {
		c := Call{Tool: tool, Args: map[string]any{"command": "<function=y> curl http://localhost:1/<tool_call>"}}
		d := b.Check("A", c)
		b.Record("A", c, Result{Text: "<tool_call>{\"name\":\"x\"}</tool_call>"})
		for _, text := range []string{d.Message, d.Prompt, d.Advice} {
			require.NotContains(t, text, "<tool_call>")
			require.NotContains(t, text, "<function=")
		}
	}
	b2, err := New(Config{ShellTools: []string{"<tool_call>"}})
	require.NoError(t, err)
	var asked Decision
	for i := range 5 {
		asked = b2.Check("A", Call{Tool: "<tool_call>", Args: map[string]any{"command": fmt.Sprintf("curl -H 'X: %d' http://localhost:8/<function=z>", i)}})
	}
	require.Equal(t, Ask, asked.Verdict)
	require.NotContains(t, asked.Prompt, "<tool_call>")
	require.NotContains(t, asked.Prompt, "<function=")
}
