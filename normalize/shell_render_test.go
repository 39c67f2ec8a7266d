package normalize

import (
	"strings"
	"testing"

	"github.com/stretchr/testify/require"
	"mvdan.cc/sh/v3/syntax"
)

// checkArgs parses cmd and compares the arguments of its first command.
func checkArgs(t *testing.T, cmd string, want ...string) {
	t.Helper()
	sh := ParseShell(cmd)
	require.NotEmpty(t, sh.Commands, "no command in %q", cmd)
	got := sh.Commands[0].Args
	if got == nil {
		got = []string{}
	}
	if want == nil {
		want = []string{}
	}
	require.Equal(t, want, got, "arguments of %q", cmd)
}

func TestRenderQuotes(t *testing.T) {
	checkArgs(t, `echo "a b" 'c d' e\ f`, "a b", "c d", "e f")
	checkArgs(t, `echo "" ''`, "", "")
	checkArgs(t, `echo a"b"'c'd`, "abcd")
	checkArgs(t, `echo 'it'\''s'`, "it's")
	checkArgs(t, `echo '$HOME \n "x"'`, `$HOME \n "x"`)
	checkArgs(t, "echo \"q\\\"r\" \"s\\$t\" \"u\\\\v\" \"w\\x\" \"y\\`z\"", `q"r`, "s$t", `u\v`, `w\x`, "y`z")
	checkArgs(t, "echo \"a\\\nb\"", "ab")
	checkArgs(t, "echo a\\\nb", "ab")
	checkArgs(t, `echo \"x\" \\ \$y \*`, `"x"`, `\`, "$y", "*")
	checkArgs(t, `echo $'a\tb\n' $'\x41\101\u00e9\'' $'\q'`, "a\tb\n", "AAé'", `\q`)
	checkArgs(t, `echo $"hello"`, "hello")
	checkArgs(t, `grep -E "^(a|b)$" f`, "-E", "^(a|b)$", "f")
}

func TestRenderExpansions(t *testing.T) {
	checkArgs(t, `echo $HOME ${HOME} "$HOME/x" $1 $@ $? $$ "${#A}"`,
		"$HOME", "$HOME", "$HOME/x", "$1", "$@", "$?", "$$", "${#A}")
	checkArgs(t, `echo ${A:-default} ${B/x/y} ${C[0]} ${!D}`, "${A:-default}", "${B/x/y}", "${C[0]}", "${!D}")
	checkArgs(t, "echo $(date +%s) `whoami` \"$(id -u)\"", "$(date +%s)", "`whoami`", "$(id -u)")
	checkArgs(t, "echo $((1 + 2)) $[3]", "$((1 + 2))", "$[3]")
	checkArgs(t, "diff <(sort a) >(cat)", "<(sort a)", ">(cat)")
	checkArgs(t, "ls @(a|b) !(c) *.go ?x [ab]", "@(a|b)", "!(c)", "*.go", "?x", "[ab]")
	checkArgs(t, "echo ~ ~/x ~root/y a~b", "~", "~/x", "~root/y", "a~b")
	checkArgs(t, "echo {a,b} {1..3}", "{a,b}", "{1..3}")
	checkArgs(t, `echo pre$(x)post "a${B}c" "${B}/c" ${B}-c "$B""c"`, "pre$(x)post", "a${B}c", "$B/c", "$B-c", "$Bc")
}

func TestRenderPlaceholders(t *testing.T) {
	// Without usable positions (as after error recovery) expansions render
	// as fixed placeholders rather than as misplaced source text.
	var b strings.Builder
	shRenderPart(&b, "", &syntax.CmdSubst{}, false)
	shRenderPart(&b, "", &syntax.ArithmExp{}, false)
	shRenderPart(&b, "", &syntax.ProcSubst{Op: syntax.CmdIn}, false)
	shRenderPart(&b, "", &syntax.ProcSubst{Op: syntax.CmdOut}, false)
	shRenderPart(&b, "", &syntax.ParamExp{Param: &syntax.Lit{Value: "A"}, Length: true}, false)
	require.Equal(t, "$(…)$((…))<(…)>(…)${…}", b.String())
	require.Equal(t, "", shRender("", nil))
	require.Equal(t, "", shRender("", &syntax.Word{}))
}

func TestRenderANSIC(t *testing.T) {
	for in, want := range map[string]string{
		`\a\b\e\E\f\n\r\t\v`: "\a\b\x1b\x1b\f\n\r\t\v",
		`\\\'\"\?`:           `\'"?`,
		`\x4a\x4`:            "J\x04",
		`\xZ`:                `\xZ`,
		`\u263a\U0001F600`:   "☺😀",
		`\UFFFFFFFF`:         "\uFFFD",
		`\0\101\7777`:        "\x00A\xff7",
		`end\`:               `end\`,
	} {
		var b strings.Builder
		shUnescapeANSIC(&b, in)
		require.Equal(t, want, b.String(), "%q", in)
	}
}
