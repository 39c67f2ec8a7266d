package normalize

import (
	"math/rand/v2"
	"reflect"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"
)

// fastPathInputs are command lines made only of fast-path bytes.
var fastPathInputs = []string{
	"ls -la /workspace",
	"ls",
	"  ls   -la  ",
	"FOO=1 BAR=2 make all",
	"A+=1 x",
	"1A=2 x",
	"a=b=c cmd",
	"a= cmd",
	"A=1",
	"A=1 B=2",
	"_=x cmd",
	"FOO=1 sudo timeout 5 /usr/bin/curl https://a.com",
	"timeout 30 curl -s -o out.bin https://a.com/x",
	"sudo -u bob env A=1 nice -n 5 python3 -m pytest -q tests/",
	"bash -c ls",
	"sh -lc pwd",
	"curl -sSLo out.bin https://a.com/x",
	"wget -O file.bin https://a.com",
	"tee -a log.txt",
	"time make",
	"time",
	"export A=1",
	"declare -x B",
	"let x=1",
	"if",
	"done",
	"in",
	"FOO=1 if",
	"FOO=1 time make",
	"function",
	"coproc",
	"git status --porcelain=v2",
	"npm i left-pad@1.3.0 --no-fund",
	"go test ./... -run TestX -count=1",
	"echo 100% a:b c,d e+f @x",
	"/",
	"-",
	"--",
	"= x",
	"./run.sh",
	"env",
	"env -",
	"command -v x",
	"A=1 sudo",
}

func TestFastPathAgrees(t *testing.T) {
	check := func(cmd string) {
		t.Helper()
		require.True(t, shFastEligible(cmd), "%q", cmd)
		require.Equal(t, parseSlow(cmd), ParseShell(cmd), "fast path and parser disagree on %q", cmd)
	}
	for _, cmd := range fastPathInputs {
		check(cmd)
	}
	// Random lines from words chosen to hit wrappers, assignments,
	// keywords and options.
	pool := strings.Fields("ls -la a=1 A+=2 1x=3 sudo -u bob env -i timeout 5 nice -n 3 time if then " +
		"export let bash -c -lc sh curl -o -sSLo out.bin wget -O tee -a git status go test -v " +
		"python3 -m pytest -q = - -- . / /usr/bin/curl x.py @ % : , +")
	r := rand.New(rand.NewPCG(1, 2))
	for range 3000 {
		n := 1 + r.IntN(7)
		words := make([]string, n)
		for i := range words {
			words[i] = pool[r.IntN(len(pool))]
		}
		check(strings.Join(words, strings.Repeat(" ", 1+r.IntN(2))))
	}
}

// shFastEligible reports whether cmd takes the fast path.
func shFastEligible(cmd string) bool {
	for i := 0; i < len(cmd); i++ {
		if !shFastBytes[cmd[i]] {
			return false
		}
	}
	return true
}

// quickPathInputs are command lines near the edges of the quick path's
// subset, accepted or not.
var quickPathInputs = []string{
	`cd /w && grep -n "a b" f.py 2>/dev/null | head -5`,
	`sed -n '1,80p' x.py; echo done`,
	`find . -name "*.py" -exec grep -l foo {} \;`,
	"a \\\n b",
	"a\\\nb",
	`echo a\ b \'c\' \"d\" \\`,
	"echo a # comment\nls",
	"echo a#b",
	"a;#x",
	"#x\nls",
	"echo >#x",
	"echo 2>x 2>>y 1>&2 >&2 2>&1 >&- &>all &>>all2 <in 0<in2",
	"echo a2>x b>y",
	"echo 2 >x",
	`echo "2">x`,
	"echo 99999999999999999999>x",
	"echo >&file",
	"echo >& file",
	"echo 2>&file",
	"a & b &",
	"a &",
	"a & && b",
	"a && b || c | d ; e",
	"a |\n\n b",
	"a &&",
	"a |",
	"| a",
	"; a",
	"a ;; b",
	"a ;& b",
	"a |& b",
	"a >| f",
	"a <> f",
	"a <& 0",
	"a <<< x",
	"> f",
	"> f a",
	"A=1 > f",
	"A=1 > f B=2 cmd",
	`A="x y" B='z' cmd "A=1"`,
	"a[1]=x cmd",
	"cmd a[1]=x",
	"A\\=1 cmd",
	"{ a; }",
	"{a,b} c",
	"echo {} }",
	"echo {a",
	"{fd}>x echo",
	"[[ -f x ]]",
	"[ -f x ] && echo y",
	"if true",
	"echo if then",
	"x; time y",
	`"if" x`,
	"echo 'a\nb' \"c\nd\"",
	"echo 'unterminated",
	`echo "unterminated`,
	`echo "$HOME"`,
	`echo "a\"b"`,
	"echo ~ ~/x a~b",
	"echo *.go ?x [ab] ^c %d @e",
	"echo é ü 日本",
	"echo \xff",
	"echo a\tb",
	"echo a\x00b",
	"\n\n a \n\n",
	"a\r\nb",
	"echo \\",
	"ls \\\n",
	"bash -c 'ls -l && pwd > out'",
	"sudo -u bob tee /etc/x < in",
	"curl -sSLo out.bin https://a.com/x && tee log",
	"cat > f.py <<'EOF'\nimport os\nprint($(x) `y` \\z)\nEOF\npython3 f.py",
	"cat <<EOF > f.txt\nplain body\nEOF",
	"cat <<EOF > f.txt\n$HOME\nEOF",
	"cat <<\"EOF\" | grep x\nbody\nEOF",
	"cat <<EOF |\nbody\nEOF\ngrep x",
	"cat <<EOF; echo hi\nbody\nEOF\necho after",
	"cat <<EOF # comment\nbody\nEOF",
	"cat <<EOF>out\nbody\nEOF",
	"cat << 'EOF'\nbody\nEOF",
	"cat <<-EOF\n\tbody\n\tEOF",
	"cat <<A <<B\na\nA\nb\nB",
	"cat <<EOF\nbody\nEOF ",
	"cat <<EOF\nbody",
	"cat <<EOF",
	"cat 0<<EOF\nx\nEOF",
	"cat <<'E-F'\nx\nE-F",
	"cat <<E\\OF\nx\nEOF",
	"cat <<'EOF'\n\nEOF\n\n",
	`grep -n "aggregate\|as_sql" compiler.py`,
	`echo "cost: \$5, path: \\, quote: \", tick: \` + "`" + `, plain: \x" > out.txt`,
	`echo "\\"`,
	`echo "a\`,
	`echo "$HOME\$HOME"`,
	`ls -R | grep ":$" | head -n 5`,
	"locate java | grep /bin/java$",
	"DISCUSSION\nIt's unclear what went wrong; let's look again.\nls -la",
	`echo "never closed && ls`,
	`echo ok; echo 'never closed`,
	"python -m pytest \\\n  tests/test_a.py \\\n  -q",
	"cd /w && \\\n  make test \\\n",
	"a &&\\\nb",
	"a \\\n&& b",
	"echo x\\\ny",
	"echo 'a \\\nb' \"c \\\nd\"",
	"cat <<EOF\nx \\\ny\nEOF",
	"cat <<EOF\nx \\\nEOF\nEOF",
	"cat <<'EOF' \\\n> out\nx \\\nEOF\nEOF",
	"ls # note \\\nls",
}

func TestQuickPathAgrees(t *testing.T) {
	for _, cmd := range quickPathInputs {
		require.Equal(t, parseSlow(cmd), ParseShell(cmd), "quick path and parser disagree on %q", cmd)
	}
	// Random lines from tokens that sit on the edges of the subset.
	pool := []string{"a", "ls", "-n", "A=1", "B+=2", "a[1]=x", "{", "}", "{}", "if", "time", "[[", "#", "#x",
		"2", "99", ">", ">>", "2>", "2>>", ">&", "&>", "&>>", "<", "1>&2", "2>&1", ">&-", ">|", "<<", "<&",
		"|", "||", "&&", "&", ";", ";;", "\n", " ", "\t", "'a b'", `"c d"`, `"`, "'", `\`, `\ `, "\\\n",
		"é", "~", "*", "bash -c", "'ls; pwd'", "tee", "f.txt", "/dev/null", "curl -o", "$", "(", ")", "!",
		"<<EOF", "<<'EOF'", `<<"EOF"`, "<<-EOF", "EOF", "\nEOF\n", "\nEOF", "cat <<'EOF'\nx $y\nEOF\n",
		"cat <<EOF\n$y\nEOF\n", " EOF", "\tEOF", "$HOME", "$x/y", "a$b", "${y}", `"$HOME/a b"`, `"$"`, "$1", "$?",
		"$(", "$x[1]", "$_a9", `"x$y"z`, "=$A", "$A=1", `"a\|b"`, `"\$x"`, `"\\"`, `"\""`, `"\`, `\"`,
		"\"a\\`b\"", "\"a\\\nb\"", `":$"`, "java$", `"$ x"`, "It's", `"open`, " \\\n", "\t\\\n"}
	r := rand.New(rand.NewPCG(3, 4))
	accepted := 0
	for range 20000 {
		var sb strings.Builder
		for range 1 + r.IntN(9) {
			sb.WriteString(pool[r.IntN(len(pool))])
			if r.IntN(3) > 0 {
				sb.WriteByte(' ')
			}
		}
		cmd := sb.String()
		got := ParseShell(cmd)
		if !reflect.DeepEqual(parseSlow(cmd), got) {
			require.Equal(t, parseSlow(cmd), got, "quick path and parser disagree on %q", cmd)
		}
		if b := shNewBuilder(0); b.quick(cmd, 0) {
			accepted++
		}
	}
	require.Greater(t, accepted, 2000, "the random lines should often take the quick path")
}

func TestFastPathTaken(t *testing.T) {
	for _, c := range []struct {
		cmd  string
		fast bool
	}{
		{"ls -la /workspace", true},
		{"FOO=1 make", true},
		{"time make", false},
		{"FOO=1 export A", false},
		{"ls *.go", false},
		{"echo 'x'", false},
		{"a && b", false},
		{"echo ~", false},
		{"ls\tx", false},
	} {
		b := shNewBuilder(len(c.cmd))
		require.Equal(t, c.fast, b.fast(c.cmd, 0), "%q", c.cmd)
	}
}

func TestShScanBytes(t *testing.T) {
	naive := func(s string) (control, high bool) {
		for i := 0; i < len(s); i++ {
			if shControl[s[i]] {
				return true, false
			}
			high = high || s[i] >= 0x80
		}
		return false, high
	}
	// Every byte value at every position of a word, with every neighbour
	// class around it.
	for c := range 256 {
		for pos := range 16 {
			for _, fill := range []byte{'a', '\n', 0xc3, 0x1f} {
				b := []byte(strings.Repeat(string(fill), 16))
				b[pos] = byte(c)
				control, high := shScanBytes(string(b))
				wantControl, wantHigh := naive(string(b))
				require.Equal(t, wantControl, control, "control in %q", b)
				if !control {
					require.Equal(t, wantHigh, high, "high in %q", b)
				}
			}
		}
	}
	r := rand.New(rand.NewPCG(5, 6))
	// Mostly printable text with, now and then, a byte of any value, at
	// every offset and length around the eight-byte words.
	for range 20000 {
		b := make([]byte, r.IntN(40))
		for i := range b {
			b[i] = byte(' ' + r.IntN(95))
			if r.IntN(12) == 0 {
				b[i] = byte(r.IntN(256))
			}
		}
		control, high := shScanBytes(string(b))
		wantControl, wantHigh := naive(string(b))
		require.Equal(t, wantControl, control, "control in %q", b)
		if !control {
			require.Equal(t, wantHigh, high, "high in %q", b)
		}
	}
}

func TestQuickPathTakesBackslashesInDoubleQuotes(t *testing.T) {
	for _, c := range []struct {
		cmd  string
		args []string
	}{
		{`grep -n "aggregate\|as_sql" compiler.py`, []string{"-n", `aggregate\|as_sql`, "compiler.py"}},
		{`echo "a \$HOME \\ \" b"`, []string{`a $HOME \ " b`}},
		{`echo "$HOME\$HOME"`, []string{`$HOME$HOME`}},
	} {
		b := shNewBuilder(len(c.cmd))
		require.True(t, b.quick(c.cmd, 0), "quick declined %q", c.cmd)
		require.Equal(t, c.args, b.result().Commands[0].Args, "%q", c.cmd)
	}
}

func TestQuickPathTakesLoneDollarsAndUnclosedQuotes(t *testing.T) {
	for _, c := range []struct {
		cmd    string
		parsed bool
	}{
		{`ls -R | grep ":$" | head -n 5`, true},
		{"locate java | grep /bin/java$", true},
		{"DISCUSSION\nIt's unclear what went wrong.\nls -la", false},
		{`echo "never closed && ls`, false},
	} {
		b := shNewBuilder(len(c.cmd))
		b.sh.Parsed = true
		require.True(t, b.quick(c.cmd, 0), "quick declined %q", c.cmd)
		require.Equal(t, c.parsed, b.sh.Parsed, "%q", c.cmd)
		require.Equal(t, parseSlow(c.cmd), b.result(), "%q", c.cmd)
	}
}

func TestQuickPathTakesContinuedLines(t *testing.T) {
	for _, cmd := range []string{
		"python -m pytest \\\n  tests/test_a.py \\\n  -q",
		"cd /w && \\\n  make test",
	} {
		b := shNewBuilder(len(cmd))
		b.sh.Parsed = true
		require.True(t, b.quick(cmd, 0), "quick declined %q", cmd)
		require.Equal(t, parseSlow(cmd), b.result(), "%q", cmd)
	}
	for _, cmd := range []string{"a &&\\\nb", "echo x\\\ny", "cat <<EOF\nx \\\nEOF\nEOF"} {
		require.False(t, shNewBuilder(len(cmd)).quick(cmd, 0), "quick took %q", cmd)
	}
}
