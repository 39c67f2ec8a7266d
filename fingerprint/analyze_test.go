package fingerprint

import (
	"strings"
	"testing"
	"unsafe"

	"github.com/stretchr/testify/require"
)

func testAnalyzer(opts Options) *Analyzer {
	if opts.ShellTools == nil {
		opts.ShellTools = []string{"bash", "execute_bash", "exec_command", "pwsh", "Bash"}
	}
	if opts.IgnoreArgs == nil {
		opts.IgnoreArgs = map[string][]string{"*": {"description", "justification"}, "bash": {"timeout"}}
	}
	if opts.ChangeTools == nil {
		opts.ChangeTools = []string{"edit", "write", "str_replace_editor"}
	}
	return New(opts)
}

// prints returns the texts of a call's fingerprints, the exact: one written
// out.
func prints(a *Analyzer, tool string, args map[string]any) []string {
	var out []string
	for _, p := range a.Analyze(tool, args).Prints {
		out = append(out, p.Text)
	}
	out[0] = a.ExactText(tool, args, 0)
	return out
}

func TestShellFingerprints(t *testing.T) {
	a := testAnalyzer(Options{HostAliases: map[string]string{"open-data.canada.ca": "open.canada.ca"}})
	check := func(t *testing.T, tool string, args map[string]any, want ...string) {
		t.Helper()
		require.Equal(t, want, prints(a, tool, args))
	}
	check(t, "bash", map[string]any{"command": "ls -la", "description": "list"},
		`exact:bash:{"command":"ls -la"}`, "cmd:ls -la", "verb:ls")
	check(t, "Bash", map[string]any{"command": "sudo timeout 5 curl -sSL https://open-data.canada.ca/x -o out.bin", "timeout": 5},
		`exact:Bash:{"command":"sudo timeout 5 curl -sSL https://open-data.canada.ca/x -o out.bin"}`,
		"cmd:curl https://open-data.canada.ca/x -o out.bin", "net:open.canada.ca/x", "site:canada.ca",
		"sink:out.bin", "family:http-fetch", "verb:curl")
	// argv form, as Codex sends it.
	check(t, "exec_command", map[string]any{"cmd": []any{"bash", "-lc", "git status"}},
		`exact:exec_command:{"cmd":["bash","-lc","git status"]}`, "cmd:git status", "verb:git")
	// A here-document's body is part of the action.
	one := prints(a, "bash", map[string]any{"command": "cat > a.py <<'EOF'\nprint(1)\nEOF"})
	two := prints(a, "bash", map[string]any{"command": "cat > a.py <<'EOF'\nprint(2)\nEOF"})
	require.NotEqual(t, one[1], two[1])
	require.True(t, strings.HasPrefix(one[1], "cmd:cat >a.py <<#"), one[1])
	// Sinks count only for fetches (unless SinkAlways).
	require.NotContains(t, strings.Join(one, " "), "sink:")
	require.Contains(t, prints(testAnalyzer(Options{SinkAlways: true}), "bash", map[string]any{"command": "python x.py > out.txt"}), "sink:out.txt")
	// A URL that only configures a tool is not a resource.
	pip := prints(a, "bash", map[string]any{"command": "pip install --index-url https://pypi.example.com/simple numpy"})
	require.NotContains(t, strings.Join(pip, " "), "net:")
	strict := prints(testAnalyzer(Options{SinkAlways: true}), "bash", map[string]any{"command": "pip install --index-url https://pypi.example.com/simple numpy"})
	require.Contains(t, strict, "net:pypi.example.com/simple")
}

func TestURLToolFingerprints(t *testing.T) {
	a := testAnalyzer(Options{})
	require.Equal(t, []string{
		`exact:web_fetch:{"url":"https://WWW.Example.com/a/#x"}`, "net:example.com/a", "site:example.com", "family:http-fetch",
	}, prints(a, "web_fetch", map[string]any{"url": "https://WWW.Example.com/a/#x"}))
	an := a.Analyze("WebFetch", map[string]any{"url": "http://localhost:3000/", "prompt": "p"})
	require.Equal(t, URLTool, an.Class)
	require.True(t, an.Local)
	require.True(t, an.Fetch)
}

func TestLocalAllowDropsTargets(t *testing.T) {
	a := testAnalyzer(Options{LocalAllow: true})
	got := prints(a, "bash", map[string]any{"command": "curl -o x.json http://127.0.0.1:8080/api"})
	require.Len(t, got, 2)
	require.True(t, strings.HasPrefix(got[0], "exact:"))
	require.True(t, strings.HasPrefix(got[1], "cmd:"))
	mixed := prints(a, "bash", map[string]any{"command": "curl http://127.0.0.1:8080/api https://example.com/"})
	require.Contains(t, mixed, "net:example.com")
}

func TestClassesAndWrites(t *testing.T) {
	a := testAnalyzer(Options{})
	cases := []struct {
		tool   string
		args   map[string]any
		class  Class
		writes bool
		verb   string
	}{
		{"bash", map[string]any{"command": "cd /w && sed -i 's/a/b/' f.go"}, Shell, true, "sed"},
		{"bash", map[string]any{"command": "git commit -am x"}, Shell, true, "git"},
		{"bash", map[string]any{"command": "git status"}, Shell, false, "git"},
		{"bash", map[string]any{"command": "python gen.py > out.txt"}, Shell, true, "python"},
		{"bash", map[string]any{"command": "edit 10:12\nfoo\nend_of_edit"}, Shell, true, "edit"},
		{"str_replace_editor", map[string]any{"command": "view", "path": "/a"}, Other, false, "str_replace_editor"},
		{"str_replace_editor", map[string]any{"command": "str_replace", "path": "/a"}, Other, true, "str_replace_editor"},
		{"EDIT", map[string]any{"file_path": "/a"}, Other, true, "EDIT"},
		{"read", map[string]any{"file_path": "/a"}, Other, false, "read"},
		{"", nil, Other, false, ""},
	}
	for _, c := range cases {
		an := a.Analyze(c.tool, c.args)
		require.Equal(t, c.class, an.Class, "%s %v", c.tool, c.args)
		require.Equal(t, c.writes, an.Writes, "%s %v", c.tool, c.args)
		require.Equal(t, c.verb, an.Verb, "%s %v", c.tool, c.args)
	}
}

func TestObservationKeys(t *testing.T) {
	a := testAnalyzer(Options{})
	obs := func(tool string, args map[string]any) uint64 { return a.Analyze(tool, args).Observe }
	sh := func(c string) uint64 { return obs("bash", map[string]any{"command": c}) }
	require.Equal(t, sh("mvn -q test -pl core -Dtest=T"), sh("cd /repo && mvn test -pl core -Dtest=T"))
	require.Equal(t, sh("find . -name '*.proto'"), sh(`find ./ -name "*.proto" 2>/dev/null | sort`))
	require.NotEqual(t, sh("grep -rn foo ."), sh("grep -rn bar ."))
	read := func(args map[string]any) uint64 { args["file_path"] = "/w/a.py"; return obs("Read", args) }
	require.Equal(t, read(map[string]any{}), read(map[string]any{"offset": 1, "limit": 200, "description": "again"}))
	require.NotEqual(t, read(map[string]any{}), obs("Read", map[string]any{"file_path": "/w/b.py"}))
}

func TestHashIsStable(t *testing.T) {
	// These values are part of the snapshot format: changing the hash
	// function breaks restoring snapshots written by earlier versions.
	require.Equal(t, uint64(0x45fbe14b9432f98e), Hash("net:example.com/x"))
	require.Equal(t, uint64(0xac6c9f2550353a57), Hash(""))
	// Every length below eight bytes takes its own path.
	for s, want := range map[string]uint64{
		"a":            0x54093fa897f73e2e,
		"ab":           0xa7998c4022f1a999,
		"abc":          0xa5ccd5ff46dbb6f6,
		"abcd":         0xcd96394b4ff5ca24,
		"abcde":        0x84ca1b120617695f,
		"abcdef":       0x4b758b8fa8b26440,
		"verb:ls":      0x1909d72eb2062797,
		"\xff\x00\x7f": 0xeb7faa4a96f265aa,
	} {
		require.Equal(t, want, Hash(s), "%q", s)
	}
	require.Equal(t, Hash("abc"), Hash("abc"))
	require.NotEqual(t, Hash("abc"), Hash("abd"))
	require.NotEqual(t, Hash(""), Hash("\x00"))
	require.NotEqual(t, Hash("12345678"), Hash("123456789"))
}

func TestCallKeyFollowsCanonicalEquality(t *testing.T) {
	a := testAnalyzer(Options{})
	x := a.Analyze("t", map[string]any{"a": 1.0, "b": map[string]any{"c": []any{"x", true}}, "description": "1st"})
	y := a.Analyze("t", map[string]any{"b": map[string]any{"c": []any{"x", true}}, "a": 1, "description": "2nd"})
	require.Same(t, x, y, "equal calls share one memoised analysis")
	z := a.Analyze("t", map[string]any{"a": "1", "b": map[string]any{"c": []any{"x", true}}})
	require.NotEqual(t, x.Prints[0].Hash, z.Prints[0].Hash, "the string \"1\" is not the number 1")
	w := a.Analyze("u", map[string]any{"a": 1.0, "b": map[string]any{"c": []any{"x", true}}})
	require.NotEqual(t, x.Prints[0].Hash, w.Prints[0].Hash, "the tool is part of the key")
}

func TestLongExactTextIsCutButWhole(t *testing.T) {
	a := testAnalyzer(Options{})
	args := map[string]any{"file_path": "/w/big", "content": strings.Repeat("x", 100_000)}
	require.Empty(t, a.Analyze("write", args).Prints[0].Text, "the analysis does not keep it")
	require.Len(t, a.ExactText("write", args, 0), len(`exact:write:{"content":"","file_path":"/w/big"}`)+100_000)
	require.Less(t, len(a.ExactText("write", args, 1000)), 1100)
}

func FuzzAnalyze(f *testing.F) {
	for _, s := range []string{"ls -la", "cd /w && curl -s https://a.com/x -o o | tee l", "cat <<EOF\nx\nEOF", "bash -c 'wget -O f http://[::1]:80/'", "\xff$((", ""} {
		f.Add("bash", s)
	}
	f.Add("web_fetch", "https://EXAMPLE.com:443/a?utm_source=x&b=1#f")
	f.Add("pwsh", `Get-Content C:\x.txt > C:\y.txt`)
	a := testAnalyzer(Options{})
	f.Fuzz(func(t *testing.T, tool, text string) {
		args := map[string]any{"command": text, "url": text, "file_path": text}
		x := a.Analyze(tool, args)
		y := New(Options{ShellTools: []string{"bash", "pwsh"}}).Analyze(tool, args)
		if len(x.Prints) == 0 || x.Prints[0].Kind != Exact {
			t.Fatal("the first fingerprint must be exact:")
		}
		for _, p := range x.Prints[1:] {
			k, ok := KindOf(p.Text)
			if !ok || k != p.Kind {
				t.Fatalf("fingerprint %q has kind %v", p.Text, p.Kind)
			}
			if p.Kind != Exact && p.Hash != Hash(p.Text) {
				t.Fatalf("hash of %q", p.Text)
			}
		}
		if len(y.Prints) == 0 {
			t.Fatal("no fingerprints")
		}
		if !strings.HasPrefix(a.ExactText(tool, args, 100), "exact:"+tool+":") {
			t.Fatal("exact text")
		}
	})
}

func TestBlockHashFoldsWhiteSpace(t *testing.T) {
	require.Equal(t, BlockHash("edit 1:1\nclass A {\n    x = 1\n}\nend_of_edit"), BlockHash("edit 1:1\nclass A {  \n\tx = 1\n}\nend_of_edit\n"))
	require.NotEqual(t, BlockHash("edit 1:1\nx = 1\nend_of_edit"), BlockHash("edit 1:1\nx = 2\nend_of_edit"))
	require.NotEqual(t, BlockHash("ab"), BlockHash("a b"))
}

func TestURLInsideCodeIsAResource(t *testing.T) {
	a := testAnalyzer(Options{})
	got := prints(a, "bash", map[string]any{"command": `python3 -c "import urllib.request; urllib.request.urlretrieve('https://data.example.org/f.csv', '/tmp/f.csv')"`})
	require.Contains(t, got, "net:data.example.org/f.csv")
	got = prints(a, "bash", map[string]any{"command": "npm install --registry=https://registry.example.com/ left-pad"})
	require.NotContains(t, strings.Join(got, " "), "net:")
}

func TestInputRedirectionsArePartOfTheCall(t *testing.T) {
	a := testAnalyzer(Options{})
	x := a.Analyze("bash", map[string]any{"command": "wc -l < src/a.py"})
	y := a.Analyze("bash", map[string]any{"command": "wc -l < src/b.py"})
	require.NotEqual(t, x.Observe, y.Observe)
	require.Equal(t, "cmd:wc -l <src/a.py", x.Prints[1].Text)
	require.NotEqual(t, x.Prints[1].Hash, y.Prints[1].Hash)
}

func TestIsURLWord(t *testing.T) {
	for w, want := range map[string]bool{
		"https://pypi.org/simple": true,
		"HTTP://Example.com":      true,
		"http://":                 true,
		"hTtPs://x":               true,
		"http:/x":                 false,
		"https:x":                 false,
		"ftp://x":                 false,
		"":                        false,
		"h":                       false,
		"https://a b":             false,
		"https://x'":              false,
		"xhttps://x":              false,
	} {
		require.Equal(t, want, isURLWord(w), "%q", w)
	}
}

func TestCommandText(t *testing.T) {
	for _, c := range []struct{ cmd, want string }{
		{"curl -sS --max-time 60 https://x.org/a -o out.json", "curl https://x.org/a -o out.json"},
		{"sleep 5 && grep -n \"it's here\" f.py", `grep -n 'it'\''s here' f.py`},
		{"echo '' a*b > log.txt", "echo '' 'a*b' >log.txt"},
		{"wc -l < in.txt", "wc -l <in.txt"},
		{"sleep 3", "sleep 3"},
	} {
		sh, raw, ok := ParseCommand("bash", c.cmd)
		require.True(t, ok)
		require.Equal(t, c.want, CommandText(sh, raw), "%q", c.cmd)
	}
	sh, raw, _ := ParseCommand("bash", "cat > f.py <<'EOF'\nx = 1\nEOF")
	text := CommandText(sh, raw)
	require.Regexp(t, `^cat >f\.py <<#[0-9a-f]+$`, text)
}

func TestExactTextOf(t *testing.T) {
	a := New(Options{IgnoreArgs: map[string][]string{"*": {"description"}}})
	args := map[string]any{"path": "/w/a.py", "description": "one"}
	an := a.Analyze("read", args)
	first := a.ExactTextOf(an, "read", args, 0)
	require.Equal(t, a.ExactText("read", args, 0), first)
	// The same analysis, reached by a call that differs only in a decoy,
	// keeps its text.
	again := map[string]any{"path": "/w/a.py", "description": "two"}
	require.Same(t, an, a.Analyze("read", again))
	require.Same(t, unsafe.StringData(first), unsafe.StringData(a.ExactTextOf(an, "read", again, 0)))
	// Another limit writes the text again.
	short := a.ExactTextOf(an, "read", args, 12)
	require.Equal(t, a.ExactText("read", args, 12), short)
	require.NotEqual(t, first, short)
}

func TestIsInterfaceEdit(t *testing.T) {
	for c, want := range map[string]bool{
		"edit 10:12\n    x = 1\nend_of_edit": true,
		"insert 5\nimport os\nend_of_insert": true,
		"append \nline\nend_of_append":       true,
		"edit 10:12":                         false,
		"editor x\ny":                        false,
		"append\nx":                          false,
		"cat <<EOF\nedit 1:2\nEOF":           false,
		"":                                   false,
	} {
		require.Equal(t, want, IsInterfaceEdit(c), "%q", c)
	}
}
