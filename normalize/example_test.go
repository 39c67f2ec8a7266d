package normalize_test

import (
	"fmt"

	"github.com/loopbreaker/loopbreaker/normalize"
)

func ExampleParseShell() {
	sh := normalize.ParseShell(`cd /w && sudo timeout 60 curl -sS https://example.com/data.csv -o data.csv | tee log.txt`)
	for _, c := range sh.Commands {
		fmt.Println(c.Verb, c.Args)
	}
	fmt.Println("sinks:", sh.Sinks)
	// Output:
	// cd [/w]
	// curl [-sS https://example.com/data.csv -o data.csv]
	// tee [log.txt]
	// sinks: [data.csv log.txt]
}

func ExampleShellParser() {
	// A parser reused from one command line to the next: each result is
	// valid until the parser's next call, so keep what you need first.
	var p normalize.ShellParser
	var verbs []string
	for _, line := range []string{"ls -la", `grep -n "a\|b" f.py | head`, "bash -lc 'make test'"} {
		verbs = append(verbs, p.Parse(line).Verbs()...)
	}
	fmt.Println(verbs)
	// Output: [ls grep head make]
}

func ExampleStripVolatile() {
	fmt.Println(normalize.StripVolatile("curl", []string{"-sSL", "--max-time", "60", "https://example.com", "-o", "out.html"}))
	// Output: [https://example.com -o out.html]
}

func ExampleNormalizeURL() {
	u, ok := normalize.NormalizeURL("HTTPS://www.Example.com:443/a/./b/?utm_source=x&q=1", nil)
	fmt.Println(u.Identity(), ok)
	// Output: example.com/a/b?q=1 true
}
