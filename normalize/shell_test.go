package normalize

import (
	"bufio"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/stretchr/testify/require"
)

// checkShell parses cmd and compares its distinct verbs and its sinks.
func checkShell(t *testing.T, cmd string, wantVerbs, wantSinks []string) Shell {
	t.Helper()
	sh := ParseShell(cmd)
	if wantVerbs == nil {
		wantVerbs = []string{}
	}
	require.Equal(t, wantVerbs, sh.Verbs(), "verbs of %q", cmd)
	require.Equal(t, wantSinks, sh.Sinks, "sinks of %q", cmd)
	return sh
}

// checkCommands parses cmd and compares every command with its arguments,
// written as "verb arg arg" with words separated by single spaces.
func checkCommands(t *testing.T, cmd string, want ...string) {
	t.Helper()
	sh := ParseShell(cmd)
	got := make([]string, 0, len(sh.Commands))
	for _, c := range sh.Commands {
		got = append(got, strings.Join(append([]string{c.Verb}, c.Args...), " "))
	}
	if want == nil {
		want = []string{}
	}
	require.Equal(t, want, got, "commands of %q", cmd)
}

// parseSlow parses cmd like ParseShell but never takes the fast path.
func parseSlow(cmd string) Shell {
	b := shNewBuilder(len(cmd))
	b.noFast = true
	b.sh.Parsed = true
	b.text(cmd, 0)
	return b.result()
}

func TestParseShellSinks(t *testing.T) {
	cases := []struct {
		cmd   string
		sinks []string
	}{
		// The project's acceptance table.
		{"curl -s -o out.bin https://a.com", []string{"out.bin"}},
		{"echo x > /tmp/out.bin", []string{"/tmp/out.bin"}},
		{"echo x >>/tmp/out.bin", []string{"/tmp/out.bin"}},
		{"cmd 2>/dev/null > out.bin", []string{"out.bin"}},
		{"curl https://a.com | tee -a ./out.bin", []string{"out.bin"}},
		{"wget -O file.bin https://a.com", []string{"file.bin"}},
		{"curl -O https://a.com/x", nil},
		{"ls -la", nil},
		{`curl -s -o /dev/null -w "%{http_code}" https://a.com`, nil},

		// Redirection operators.
		{"echo x >| clobber.txt", []string{"clobber.txt"}},
		{"make &> build.log", []string{"build.log"}},
		{"make &>> build.log", []string{"build.log"}},
		{"make 1> out.txt 2> err.txt", []string{"out.txt", "err.txt"}},
		{"make 2>>err.txt", []string{"err.txt"}},
		{"make >&out.txt", []string{"out.txt"}},
		{"make > out.txt 2>&1", []string{"out.txt"}},
		{"echo oops >&2", nil},
		{"exec 3>&-", nil},
		{"sort < in.txt", nil},
		{"wc -l <<< 'a b'", nil},
		{"cat > f.py <<'EOF'\nimport os\nprint('> not.a.sink')\nEOF", []string{"f.py"}},
		{"cat <<EOF > conf.ini\n[a]\nb=$(echo c)\nEOF", []string{"conf.ini"}},

		// tee, curl and wget options.
		{"ls | tee a.txt b.txt", []string{"a.txt", "b.txt"}},
		{"ls | tee --append -- -weird", []string{"-weird"}},
		{"ls | tee -", nil},
		{"ls | sudo tee /etc/hosts > /dev/null", []string{"/etc/hosts"}},
		{"curl -oout.bin https://a.com", []string{"out.bin"}},
		{"curl --output out.bin https://a.com", []string{"out.bin"}},
		{"curl --output=out.bin https://a.com", []string{"out.bin"}},
		{"curl -sSLo out.bin https://a.com", []string{"out.bin"}},
		{"curl -H '-o header.txt' https://a.com", nil},
		{"curl --remote-name https://a.com/x", nil},
		{"curl -o a.bin https://a.com/a -o b.bin https://a.com/b", []string{"a.bin", "b.bin"}},
		{"wget -Ofile.bin https://a.com", []string{"file.bin"}},
		{"wget -qO- https://a.com", nil},
		{"wget --output-document=file.bin https://a.com", []string{"file.bin"}},
		{"wget --output-document file.bin https://a.com", []string{"file.bin"}},

		// Cleaning, de-duplication, generic and dynamic targets.
		{"echo a > ./x.txt; echo b >> x.txt", []string{"x.txt"}},
		{"echo a > /tmp//x", []string{"/tmp/x"}},
		{"echo a > dir/../y", []string{"y"}},
		{"echo a > $(mktemp)", []string{"$(mktemp)"}},
		{"echo a > $OUT", []string{"$OUT"}},
		{`echo a > "$(cd .. && pwd)/f"`, []string{"$(cd .. && pwd)/f"}},
		{"echo a > ~/notes.txt", []string{"~/notes.txt"}},
		{"cmd > /dev/stdout 2> /dev/stderr > /dev/tty > /dev/zero > /dev/fd/3 > -", nil},
		{`echo a > ""`, nil},

		// Sinks anywhere in the line.
		{"(cd a && make) > build.log", []string{"build.log"}},
		{"{ echo a; echo b; } > both.txt", []string{"both.txt"}},
		{"for i in 1 2; do echo $i; done > loop.txt", []string{"loop.txt"}},
		{"if true; then echo a > then.txt; fi", []string{"then.txt"}},
		{"echo $(curl -o inner.bin https://a.com)", []string{"inner.bin"}},
		{"bash -c 'echo a > payload.txt'", []string{"payload.txt"}},
	}
	for _, c := range cases {
		sh := ParseShell(c.cmd)
		require.Equal(t, c.sinks, sh.Sinks, "sinks of %q", c.cmd)
	}
}

func TestParseShellVerbs(t *testing.T) {
	checkShell(t, "cd /w && curl https://x | tee out", []string{"cd", "curl", "tee"}, []string{"out"})
	checkShell(t, "bash -lc 'cd /a && python x.py > log.txt'", []string{"cd", "python"}, []string{"log.txt"})
	checkShell(t, "python3 - <<'EOF'\nimport os\nos.system('rm -rf /')\nEOF", []string{"python3"}, nil)
	checkShell(t, "a; b & c || d && ! e |& f", []string{"a", "b", "c", "d", "e", "f"}, nil)
	checkShell(t, "(a; (b)) && { c; }", []string{"a", "b", "c"}, nil)
	checkShell(t, "if a; then b; elif c; then d; else e; fi", []string{"a", "b", "c", "d", "e"}, nil)
	checkShell(t, "while a; do b; done; until c; do d; done", []string{"a", "b", "c", "d"}, nil)
	checkShell(t, "for f in $(ls *.go); do gofmt -l $f; done", []string{"ls", "gofmt"}, nil)
	checkShell(t, "for ((i=0; i<3; i++)); do echo $i; done", []string{"echo"}, nil)
	checkShell(t, "case $(uname) in Linux) a;; *) b;; esac", []string{"uname", "a", "b"}, nil)
	checkShell(t, "f() { curl x; }; f", []string{"curl", "f"}, nil)
	checkShell(t, "echo $(date) `whoami` \"$(id -u)\"", []string{"echo", "date", "whoami", "id"}, nil)
	checkShell(t, "diff <(sort a) >(cat)", []string{"diff", "sort", "cat"}, nil)
	checkShell(t, "X=$(git rev-parse HEAD) make", []string{"git", "make"}, nil)
	checkShell(t, "echo ${X:-$(hostname)}", []string{"echo", "hostname"}, nil)
	checkShell(t, "time make -j4", []string{"make"}, nil)
	checkShell(t, "coproc cat", []string{"cat"}, nil)
	checkShell(t, "ls; ls; pwd", []string{"ls", "pwd"}, nil)
	checkShell(t, "/usr/bin/env python3 x.py", []string{"python3"}, nil)
	checkShell(t, "./scripts/run.sh --fast", []string{"run.sh"}, nil)
	checkShell(t, "", nil, nil)
	checkShell(t, "   ", nil, nil)
	checkShell(t, "# just a comment", nil, nil)
	checkShell(t, "xargs -I{} curl {}", []string{"xargs"}, nil)
}

func TestParseShellCommands(t *testing.T) {
	checkCommands(t, `grep "a b" f`, "grep a b f")
	require.Equal(t, []string{"a b", "f"}, ParseShell(`grep "a b" f`).Commands[0].Args)
	checkCommands(t, "curl -s -o out.bin https://a.com", "curl -s -o out.bin https://a.com")
	checkCommands(t, "A=1", "")
	checkCommands(t, "A=1 B+=2 make all", "make all")
	checkCommands(t, "A=$(date)", "date", "")
	checkCommands(t, "export A=1 B; local -r C=$(pwd)", "export A=1 B", "pwd", "local -r C=$(pwd)")
	checkCommands(t, "declare -a arr=(1 2)", "declare -a arr=(1 2)")
	checkCommands(t, "let i=i+1 j++", "let i=i+1 j++")
	checkCommands(t, "[[ -f x && $(id -u) == 0 ]]", "[[ -f x && $(id -u) == 0", "id -u")
	checkCommands(t, "((i++))", "(( i++")
	checkCommands(t, "time", "time")
	checkCommands(t, "echo $(date)", "echo $(date)", "date")
	checkCommands(t, `"" arg`, " arg")
	checkCommands(t, "/ x", " x")
	checkCommands(t, `"$VENV/bin/python" -m pytest`, "python -m pytest")
	checkCommands(t, "${PY:-/usr/bin/python3} x.py", "${…} x.py")
	checkCommands(t, "$(which python) x.py", "$(which python) x.py", "which python")
	checkCommands(t, "`echo /bin/ls` -l", "`…` -l", "echo /bin/ls")
	checkCommands(t, "${X:-a/b}/../c/${Y#/}", "${…}")
}

func TestParseShellWrappers(t *testing.T) {
	checkCommands(t, "FOO=1 sudo timeout 5 /usr/bin/curl https://a.com", "curl https://a.com")
	checkCommands(t, "timeout 30 curl -s -o out.bin https://a.com/x", "curl -s -o out.bin https://a.com/x")
	checkCommands(t, "timeout -s KILL -k 5 10s make", "make")
	checkCommands(t, "timeout --signal=TERM --kill-after=5 10 make test", "make test")
	checkCommands(t, "sudo -u bob -E -n -H cmd x", "cmd x")
	checkCommands(t, "sudo -Eu bob cmd", "cmd")
	checkCommands(t, "sudo --user=bob --preserve-env=PATH cmd", "cmd")
	checkCommands(t, "sudo FOO=1 cmd", "cmd")
	checkCommands(t, "sudo -i", "sudo -i")
	checkCommands(t, "sudo -l", "sudo -l")
	checkCommands(t, "sudo -- rm -rf x", "rm -rf x")
	checkCommands(t, "env -i -u HOME FOO=1 BAR=2 python3 x.py", "python3 x.py")
	checkCommands(t, "env - PATH=/bin ls", "ls")
	checkCommands(t, "env --chdir=/tmp ls", "ls")
	checkCommands(t, "env -S 'python3 -u' x.py", "python3 -u x.py")
	checkCommands(t, "env", "env")
	checkCommands(t, "env FOO=1", "env FOO=1")
	checkCommands(t, "nohup ./server --port 80 &", "server --port 80")
	checkCommands(t, "nice -n 10 make", "make")
	checkCommands(t, "nice -10 make", "make")
	checkCommands(t, "ionice -c 3 -n 7 rsync a b", "rsync a b")
	checkCommands(t, "ionice -p 42", "ionice -p 42")
	checkCommands(t, "time -p make", "make")
	checkCommands(t, "/usr/bin/time -v -o t.txt make", "make")
	checkCommands(t, "command ls -l", "ls -l")
	checkCommands(t, "command -v curl", "command -v curl")
	checkCommands(t, "exec python3 app.py", "python3 app.py")
	checkCommands(t, "exec > log 2>&1", "exec")
	checkCommands(t, "stdbuf -oL -eL tail -f x", "tail -f x")
	checkCommands(t, "stdbuf --output=L tail -f x", "tail -f x")
	checkCommands(t, "xargs -n1 echo", "xargs -n1 echo")
	checkCommands(t, "sudo timeout 5", "timeout 5")
	checkCommands(t, "timeout", "timeout")
	checkCommands(t, "nohup sudo -u x env A=1 nice timeout 1 bash -c 'ls -l'", "ls -l")
	// At most 16 wrappers are removed.
	checkCommands(t, strings.Repeat("nohup ", 20)+"ls", "nohup nohup nohup nohup ls")
}

func TestParseShellPayload(t *testing.T) {
	checkCommands(t, "bash -c 'ls -l'", "ls -l")
	checkCommands(t, "sh -c \"cd /x && make\"", "cd /x", "make")
	checkCommands(t, "zsh -c 'echo hi'", "echo hi")
	checkCommands(t, "/bin/bash -c 'echo hi'", "echo hi")
	checkCommands(t, "bash -l -c 'echo hi'", "echo hi")
	checkCommands(t, "bash -e -c 'echo hi'", "echo hi")
	checkCommands(t, "bash -euo pipefail -c 'echo hi'", "echo hi")
	checkCommands(t, "bash -xec 'echo hi' arg0 arg1", "echo hi")
	checkCommands(t, "bash --norc --noprofile -c 'echo hi'", "echo hi")
	checkCommands(t, "bash -c", "bash -c")
	checkCommands(t, "bash script.sh -c x", "bash script.sh -c x")
	checkCommands(t, "bash", "bash")
	checkCommands(t, "bash -s < script.sh", "bash -s")
	checkCommands(t, "bash -c ls", "ls")
	checkCommands(t, `bash -c "$(curl -fsSL https://x/install.sh)"`, "$(…)", "curl -fsSL https://x/install.sh")
	checkCommands(t, "bash -c 'echo \"unterminated'", "echo unterminated")

	// Payloads nest four deep; the fifth shell is kept as a command.
	nest := func(n int) string {
		cmd := "curl -s https://x"
		for range n {
			cmd = "bash -c " + shQuoteForTest(cmd)
		}
		return cmd
	}
	checkCommands(t, nest(4), "curl -s https://x")
	sh := ParseShell(nest(5))
	require.Len(t, sh.Commands, 1)
	require.Equal(t, "bash", sh.Commands[0].Verb)
	require.Equal(t, []string{"-c", "curl -s https://x"}, sh.Commands[0].Args)
}

// shQuoteForTest single-quotes s for bash.
func shQuoteForTest(s string) string {
	return "'" + strings.ReplaceAll(s, "'", `'\''`) + "'"
}

func TestParseArgv(t *testing.T) {
	sh := ParseArgv([]string{"bash", "-lc", "git status"})
	require.Equal(t, []SimpleCommand{{Verb: "git", Args: []string{"status"}}}, sh.Commands)
	require.True(t, sh.Parsed)

	sh = ParseArgv([]string{"curl", "-s", "https://a"})
	require.Equal(t, []SimpleCommand{{Verb: "curl", Args: []string{"-s", "https://a"}}}, sh.Commands)

	sh = ParseArgv([]string{"/bin/sh", "-c", "cd /x && make > log"})
	require.Equal(t, []string{"cd", "make"}, sh.Verbs())
	require.Equal(t, []string{"log"}, sh.Sinks)

	sh = ParseArgv([]string{"sudo", "-u", "bob", "curl", "-o", "out.bin", "https://a"})
	require.Equal(t, "curl", sh.Commands[0].Verb)
	require.Equal(t, []string{"out.bin"}, sh.Sinks)

	// Words are taken as they are: no shell meaning.
	sh = ParseArgv([]string{"echo", "a > b", "$(x)"})
	require.Equal(t, []SimpleCommand{{Verb: "echo", Args: []string{"a > b", "$(x)"}}}, sh.Commands)
	require.Empty(t, sh.Sinks)

	require.Empty(t, ParseArgv(nil).Commands)

	// The result does not share memory with the caller's slice.
	argv := []string{"curl", "-s", "https://a"}
	sh = ParseArgv(argv)
	argv[2] = "changed"
	require.Equal(t, "https://a", sh.Commands[0].Args[1])

	sh = ParseArgv([]string{"bash", "-c", "echo \"abc"})
	require.Equal(t, []string{"echo"}, sh.Verbs())
}

func TestParsePlain(t *testing.T) {
	sh := ParsePlain(`C:\Users\x\a.txt`)
	require.Equal(t, []SimpleCommand{{Verb: `C:\Users\x\a.txt`}}, sh.Commands)
	require.False(t, sh.Parsed)

	sh = ParsePlain(`Get-Content C:\Users\me\x.txt | Select-String "a b" > C:\out\res.txt`)
	require.Equal(t, []SimpleCommand{
		{Verb: "Get-Content", Args: []string{`C:\Users\me\x.txt`}},
		{Verb: "Select-String", Args: []string{"a b"}},
	}, sh.Commands)
	require.Equal(t, []string{`C:\out\res.txt`}, sh.Sinks)

	sh = ParsePlain(`& "C:\Program Files\Git\bin\git.exe" status`)
	require.Equal(t, []SimpleCommand{{Verb: `C:\Program Files\Git\bin\git.exe`, Args: []string{"status"}}}, sh.Commands)

	sh = ParsePlain("a|b&&c||d;e & f")
	require.Equal(t, []string{"a", "b", "c", "d", "e", "f"}, sh.Verbs())

	sh = ParsePlain("a | b && c || d ; e")
	require.Equal(t, []string{"a", "b", "c", "d", "e"}, sh.Verbs())

	sh = ParsePlain(`echo 'x | y' "z ; w"`)
	require.Equal(t, []SimpleCommand{{Verb: "echo", Args: []string{"x | y", "z ; w"}}}, sh.Commands)

	sh = ParsePlain("build 2>&1 >log.txt *> all.txt 2>err.txt < in.txt")
	require.Equal(t, []SimpleCommand{{Verb: "build"}}, sh.Commands)
	require.Equal(t, []string{"log.txt", "all.txt", "err.txt"}, sh.Sinks)

	sh = ParsePlain("FOO=1 sudo curl -s -o out.bin https://a | tee log")
	require.Equal(t, []string{"curl", "tee"}, sh.Verbs())
	require.Equal(t, []string{"out.bin", "log"}, sh.Sinks)

	sh = ParsePlain(`echo "unterminated`)
	require.Equal(t, []SimpleCommand{{Verb: "echo", Args: []string{"unterminated"}}}, sh.Commands)

	// A payload parsed in the middle of the split leaves the next command
	// alone.
	sh = ParsePlain("bash -c x=1 ; ls")
	require.Equal(t, []SimpleCommand{{}, {Verb: "ls"}}, sh.Commands)

	sh = ParsePlain("a=b")
	require.Equal(t, []SimpleCommand{{}}, sh.Commands)

	require.Empty(t, ParsePlain("").Commands)
	require.Empty(t, ParsePlain(" ; | && ").Commands)

	sh = ParsePlain("echo 12 3>x")
	require.Equal(t, []SimpleCommand{{Verb: "echo", Args: []string{"12"}}}, sh.Commands)
	require.Equal(t, []string{"x"}, sh.Sinks)
}

func TestIsGenericSink(t *testing.T) {
	for _, p := range []string{"/dev/null", "/dev/stdout", "/dev/stderr", "/dev/stdin", "/dev/zero",
		"/dev/tty", "/dev/full", "-", "/dev/fd/1", "/dev/fd/63", "/proc/self/fd/2", "/dev//null", "/dev/./null"} {
		require.True(t, IsGenericSink(p), p)
	}
	for _, p := range []string{"", "out.bin", "/dev/sda", "/tmp/null", "dev/null", "--", "/dev/fd", "null"} {
		require.False(t, IsGenericSink(p), p)
	}
}

func TestShellVerbs(t *testing.T) {
	sh := Shell{Commands: []SimpleCommand{{Verb: "a"}, {}, {Verb: "b"}, {Verb: "a"}}}
	require.Equal(t, []string{"a", "b"}, sh.Verbs())
	require.Equal(t, []string{}, Shell{}.Verbs())
}

func TestParseShellRobust(t *testing.T) {
	// Unterminated and broken input still gives something useful.
	sh := ParseShell(`echo "abc`)
	require.Equal(t, []string{"echo"}, sh.Verbs())
	sh = ParseShell(`echo 'abc`)
	require.Equal(t, []string{"echo"}, sh.Verbs())
	sh = ParseShell("curl x |")
	require.Equal(t, []string{"curl"}, sh.Verbs())
	sh = ParseShell("cat <<EOF\nno end")
	require.Equal(t, []string{"cat"}, sh.Verbs())
	// Bash runs a here-document that is never closed, its body reaching
	// the end of the input; so does ParseShell, without splitting the body.
	sh = ParseShell("python - <<'PY' > out.txt\nimport os\nprint(os.getcwd())\nPY && echo done")
	require.True(t, sh.Parsed)
	require.Equal(t, []string{"python"}, sh.Verbs())
	require.Equal(t, []string{"out.txt"}, sh.Sinks)
	sh = ParseShell("cat <<A <<\"B\"\nx\nA")
	require.True(t, sh.Parsed)
	require.Equal(t, []string{"cat"}, sh.Verbs())
	sh = ParseShell("a=(1 2) cmd > out")
	require.False(t, sh.Parsed, "split plainly")
	require.Equal(t, []string{"out"}, sh.Sinks)
	sh = ParseShell("done")
	require.False(t, sh.Parsed)
	require.Equal(t, []string{"done"}, sh.Verbs())

	// Odd bytes.
	for _, cmd := range []string{"\xff\xfe curl \xc3", "echo a\x00b > f\x00", "\x00", "ls \xe2\x80", "'\xff'"} {
		require.NotPanics(t, func() { ParseShell(cmd) }, "%q", cmd)
		require.NotPanics(t, func() { ParsePlain(cmd) }, "%q", cmd)
	}

	// Pathological nesting and size return quickly.
	slow := []string{
		strings.Repeat("(", 60000),
		strings.Repeat("$(echo ", 1000) + strings.Repeat(")", 1000),
		strings.Repeat("$((", 20000),
		strings.Repeat("{ ", 30000),
		strings.Repeat("if true; then ", 4000),
		strings.Repeat("a | ", 16000) + "b",
		strings.Repeat("\"$(", 20000),
		strings.Repeat("bash -c '", 100),
		strings.Repeat("x", 1<<20),
		strings.Repeat("curl -s https://a.example.com/x -o f && ", 30000),
		strings.Repeat("env -S ", 9000) + "ls",
		"env -S '" + strings.Repeat("env -S ", 9000) + "ls'",
		strings.Repeat("sudo ", 13000) + "ls",
	}
	for _, cmd := range slow {
		start := time.Now()
		var sh Shell
		require.NotPanics(t, func() { sh = ParseShell(cmd) })
		require.Less(t, time.Since(start), 3*time.Second, "%.20q... took too long", cmd)
		require.LessOrEqual(t, len(sh.Commands), shellMaxCommands)
	}

	// $(echo $(echo ...)) a thousand deep: the walker stops at its depth
	// limit instead of following every level.
	sh = ParseShell(strings.Repeat("echo $(", 1000) + strings.Repeat(")", 1000))
	require.Less(t, len(sh.Commands), 100)
	require.Equal(t, "echo", sh.Commands[0].Verb)

	// A megabyte command: the first 64 KiB are split plainly.
	big := "echo " + strings.Repeat("a ", 1<<19)
	sh = ParseShell(big)
	require.False(t, sh.Parsed)
	require.Equal(t, []string{"echo"}, sh.Verbs())
}

func TestParseShellLimits(t *testing.T) {
	sh := ParseShell(strings.Repeat("a; ", 300))
	require.Len(t, sh.Commands, shellMaxCommands)
	var b strings.Builder
	for i := range 100 {
		fmt.Fprintf(&b, "echo > f%d; ", i)
	}
	sh = ParseShell(b.String())
	require.Len(t, sh.Sinks, shellMaxSinks)
	require.Equal(t, "f0", sh.Sinks[0])
	// The plain split obeys the same limits.
	sh = ParsePlain(strings.Repeat("a; ", 300) + strings.Repeat("> g ", 10))
	require.Len(t, sh.Commands, shellMaxCommands)
}

func TestParseShellConcurrent(t *testing.T) {
	cmds := []string{
		"cd /w && curl -sS --max-time 60 https://api.github.com/repos/o/r -o out.json | tee log",
		"ls -la /workspace",
		"bash -lc 'cd /a && python x.py > log.txt'",
		"cat > x.py <<'EOF'\nprint(1)\nEOF",
		`echo "abc`,
	}
	want := make([]Shell, len(cmds))
	for i, c := range cmds {
		want[i] = ParseShell(c)
	}
	var wg sync.WaitGroup
	for g := range 8 {
		wg.Go(func() {
			for i := range 200 {
				k := (g + i) % len(cmds)
				if !assertEqualShell(want[k], ParseShell(cmds[k])) {
					t.Errorf("concurrent parse of %q differs", cmds[k])
					return
				}
			}
		})
	}
	wg.Wait()
}

func assertEqualShell(a, b Shell) bool {
	return fmt.Sprintf("%#v", a) == fmt.Sprintf("%#v", b)
}

func TestParseShellNoEnvironment(t *testing.T) {
	t.Setenv("HOME", "/leaked/home")
	t.Setenv("LB_SHELL_TEST", "leaked")
	sh := ParseShell(`cd ~ && echo $LB_SHELL_TEST "${LB_SHELL_TEST}" ~root/x > ~/out.txt`)
	require.Equal(t, []SimpleCommand{
		{Verb: "cd", Args: []string{"~"}},
		{Verb: "echo", Args: []string{"$LB_SHELL_TEST", "$LB_SHELL_TEST", "~root/x"}},
	}, sh.Commands)
	require.Equal(t, []string{"~/out.txt"}, sh.Sinks)
}

var benchCommands = []struct{ name, cmd string }{
	{"simple", "ls -la /workspace"},
	{"pipeline", "cd /w && curl -sS --max-time 60 https://api.github.com/repos/o/r -o out.json | tee log"},
	{"heredoc", "cat > x.py <<'EOF'\n" + strings.Repeat("print('hello, world', 42)  # x\n", 32) + "EOF"},
}

// BenchmarkParseShell measures ParseShell on typical commands; the
// "parser" variants force the bash parser, for comparison with the fast
// and quick paths that ParseShell takes on these commands.
func BenchmarkParseShell(b *testing.B) {
	for _, c := range benchCommands {
		b.Run(c.name, func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				ParseShell(c.cmd)
			}
		})
		b.Run(c.name+"/parser", func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				parseSlow(c.cmd)
			}
		})
	}
}

func BenchmarkStripVolatile(b *testing.B) {
	args := []string{"-sS", "--max-time", "60", "--retry", "3", "https://a.example.com/x", "-o", "f"}
	b.ReportAllocs()
	for b.Loop() {
		StripVolatile("curl", args)
	}
}

// shellTool reports whether a recorded tool name is a shell tool (bash,
// execute_bash, Bash, exec_command, shell) rather than an editor whose
// "command" is a sub-action.
func shellTool(name string) bool {
	n := strings.ToLower(name)
	return strings.Contains(n, "bash") || strings.Contains(n, "shell") || n == "exec_command"
}

// TestShellCorpus runs ParseShell over recorded agent sessions, when
// LOOPBREAKER_SHELL_CORPUS names a directory of JSONL files whose lines look
// like {"tool":"bash","args":{"command":"..."}}. It reports the share of
// commands on the fast path and the mean time per command.
func TestShellCorpus(t *testing.T) {
	dir := os.Getenv("LOOPBREAKER_SHELL_CORPUS")
	if dir == "" {
		t.Skip("set LOOPBREAKER_SHELL_CORPUS to a directory of JSONL session files")
	}
	files, err := filepath.Glob(filepath.Join(dir, "*.jsonl"))
	require.NoError(t, err)
	var cmds []string
	for _, f := range files {
		fh, err := os.Open(f)
		require.NoError(t, err)
		sc := bufio.NewScanner(fh)
		sc.Buffer(make([]byte, 0, 1<<20), 64<<20)
		for sc.Scan() {
			var line struct {
				Tool string          `json:"tool"`
				Args json.RawMessage `json:"args"`
			}
			if json.Unmarshal(sc.Bytes(), &line) != nil || !shellTool(line.Tool) {
				continue
			}
			var args struct {
				Command any `json:"command"`
				Cmd     any `json:"cmd"`
			}
			if json.Unmarshal(line.Args, &args) != nil {
				continue
			}
			for _, c := range []any{args.Command, args.Cmd} {
				switch c := c.(type) {
				case string:
					cmds = append(cmds, c)
				case []any:
					argv := make([]string, 0, len(c))
					for _, a := range c {
						if s, ok := a.(string); ok {
							argv = append(argv, s)
						}
					}
					ParseArgv(argv)
				}
			}
		}
		require.NoError(t, sc.Err())
		fh.Close()
	}
	require.NotEmpty(t, cmds)
	fast, quick, parsed := 0, 0, 0
	for _, c := range cmds {
		switch {
		case shFastEligible(c):
			fast++
		case shNewBuilder(len(c)).quick(c, 0):
			quick++
		}
		if ParseShell(c).Parsed {
			parsed++
		}
	}
	const rounds = 5
	start := time.Now()
	for range rounds {
		for _, c := range cmds {
			ParseShell(c)
		}
	}
	per := time.Since(start) / time.Duration(rounds*len(cmds))
	pct := func(k int) float64 { return 100 * float64(k) / float64(len(cmds)) }
	t.Logf("%d commands: %.1f%% on the fast path, %.1f%% on the quick path, %.1f%% parsed (not split plainly), %v per command on average",
		len(cmds), pct(fast), pct(quick), pct(parsed), per)
	if os.Getenv("LOOPBREAKER_SHELL_CORPUS_VERBOSE") != "" {
		for _, c := range cmds {
			if !ParseShell(c).Parsed {
				t.Logf("split plainly: %.120q", c)
			}
		}
	}
}

func TestUnclosedQuoteKeepsItsWords(t *testing.T) {
	a, b := ParseShell("echo Let's try A"), ParseShell("echo Let's try B")
	require.False(t, a.Parsed)
	require.NotEqual(t, a.Commands[0].Args, b.Commands[0].Args)
	require.Equal(t, "echo", a.Commands[0].Verb)
}

func TestInputRedirections(t *testing.T) {
	for _, c := range []string{"wc -l < ./src/a.py", "wc -l <src/a.py | cat", "(wc -l < src/a.py)"} {
		require.Equal(t, []string{"src/a.py"}, ParseShell(c).Inputs, c)
	}
	require.Equal(t, []string{"in.txt"}, ParsePlain("sort < in.txt > out.txt").Inputs)
	require.Empty(t, ParseShell("cat <<EOF\nx\nEOF").Inputs)
}

func TestShellParserReuse(t *testing.T) {
	inputs := append(append([]string{}, fastPathInputs...), quickPathInputs...)
	inputs = append(inputs,
		"bash -lc 'cd /a && python x.py > log.txt' 2>&1 | tee run.log",
		"for f in *.go; do gofmt -l $f; done > report.txt < list",
		`echo "abc`,
		"",
		strings.Repeat("x ", 3000),
	)
	// One parser across every input, forwards and backwards, must give what
	// a fresh parse gives, whatever the previous input left behind.
	var p ShellParser
	for _, order := range []func(int) int{func(i int) int { return i }, func(i int) int { return len(inputs) - 1 - i }} {
		for i := range inputs {
			cmd := inputs[order(i)]
			sameShell(t, ParseShell(cmd), p.Parse(cmd), fmt.Sprintf("reused parser on %q", cmd))
			sameShell(t, ParsePlain(cmd), p.ParsePlain(cmd), fmt.Sprintf("reused plain split of %q", cmd))
		}
	}
}

func TestShellParserAllocations(t *testing.T) {
	var p ShellParser
	for _, cmd := range []string{
		"ls -la /workspace",
		`cd /w && grep -n "func main" cmd/x.go 2>/dev/null | head -20`,
		"cat > x.py <<'EOF'\nprint(1)\nEOF\npython x.py",
	} {
		p.Parse(cmd)
		allocs := testing.AllocsPerRun(100, func() { p.Parse(cmd) })
		require.Zero(t, allocs, "a warm parser allocates on %q", cmd)
	}
}

func TestShellWrapperOfKnowsEveryWrapper(t *testing.T) {
	for name, wr := range shWrappers {
		require.Same(t, wr, shWrapperOf(name), "shWrapperOf must list %q", name)
	}
	require.Nil(t, shWrapperOf("curl"))
}

func TestShellPayloadAndIsWrapper(t *testing.T) {
	for _, c := range []struct {
		words   []string
		payload string
		ok      bool
	}{
		{[]string{"bash", "-lc", "git status"}, "git status", true},
		{[]string{"A=1", "/bin/sh", "-euo", "pipefail", "-c", "ls"}, "ls", true},
		{[]string{"zsh", "--rcfile", "x", "-c", "pwd"}, "pwd", true},
		{[]string{"bash", "script.sh"}, "", false},
		{[]string{"python", "-c", "print(1)"}, "", false},
		{nil, "", false},
	} {
		payload, ok := ShellPayload(c.words)
		require.Equal(t, c.ok, ok, "%q", c.words)
		require.Equal(t, c.payload, payload, "%q", c.words)
	}
	for _, name := range []string{"sudo", "env", "timeout", "nohup", "stdbuf"} {
		require.True(t, IsWrapper(name), name)
	}
	require.False(t, IsWrapper("curl"))
	require.False(t, IsWrapper("/usr/bin/sudo"), "a path is no wrapper name")
}
