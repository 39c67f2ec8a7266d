package normalize

import (
	"strings"
	"testing"

	"github.com/stretchr/testify/require"
)

// checkStrip compares StripVolatile(verb, args) with want, both written as
// space-separated words.
func checkStrip(t *testing.T, verb, args, want string) {
	t.Helper()
	in := strings.Fields(args)
	orig := append([]string(nil), in...)
	got := StripVolatile(verb, in)
	w := strings.Fields(want)
	if len(w) == 0 {
		w = []string{}
	}
	if got == nil {
		got = []string{}
	}
	require.Equal(t, w, got, "StripVolatile(%q, %q)", verb, args)
	require.Equal(t, orig, in, "StripVolatile modified its input")
	require.LessOrEqual(t, len(got), len(in))
}

func TestStripVolatileAcceptance(t *testing.T) {
	want := []string{"https://a.example.com/x", "-o", "f"}
	require.Equal(t, want, StripVolatile("curl",
		[]string{"-sS", "--max-time", "60", "--retry", "3", "https://a.example.com/x", "-o", "f"}))
	require.Equal(t, want, StripVolatile("curl",
		[]string{"--max-time", "30", "--retry", "0", "https://a.example.com/x", "-o", "f"}))

	sh := ParseShell("timeout 30 curl -s -o out.bin https://a.com/x")
	require.Equal(t, "curl", sh.Commands[0].Verb)
	require.Equal(t, []string{"-o", "out.bin", "https://a.com/x"}, StripVolatile("curl", sh.Commands[0].Args))
}

func TestStripVolatileCurl(t *testing.T) {
	checkStrip(t, "curl", "-s --silent -S --show-error -L --location -v --verbose -f --fail https://a", "https://a")
	checkStrip(t, "curl", "--fail-with-body -k --insecure --compressed -# --progress-bar --no-progress-meter u", "u")
	checkStrip(t, "curl", "-m 5 -m5 --max-time=5 --connect-timeout 3 --retry 2 --retry-delay 1 u", "u")
	checkStrip(t, "curl", "--retry-max-time 9 --retry-all-errors --retry-connrefused u", "u")
	checkStrip(t, "curl", "-i --include -N u", "u")
	checkStrip(t, "curl", "-sSL u", "u")
	checkStrip(t, "curl", "-sSLo out u", "-o out u")
	checkStrip(t, "curl", "-sSLoout u", "-oout u")
	checkStrip(t, "curl", "-sSm 5 u", "u")
	checkStrip(t, "curl", "-sX POST u", "-X POST u")
	checkStrip(t, "curl", "-sI u", "-I u")
	checkStrip(t, "curl", "-O u", "-O u")
	checkStrip(t, "curl", "-H -v u", "-H -v u")
	checkStrip(t, "curl", "-d -s -w %{http_code} u", "-d -s -w %{http_code} u")
	checkStrip(t, "curl", "u -- -s", "u -- -s")
	checkStrip(t, "/usr/bin/curl", "-s u", "u")
	checkStrip(t, "curl", "--max-time", "")
	// Junk clusters whose remains would read as a long option stay whole,
	// with their value (found by the fuzzer: stripping must be idempotent).
	checkStrip(t, "curl", "-#-A x u", "-#-A x u")
	checkStrip(t, "curl", "-#-m 5 u", "-#-m 5 u")
	checkStrip(t, "curl", "-", "-")
}

func TestStripVolatileWget(t *testing.T) {
	checkStrip(t, "wget", "-q --quiet -v --verbose -nv --no-verbose --show-progress u", "u")
	checkStrip(t, "wget", "--progress=dot -t 3 --tries=3 -T 5 --timeout=5 --read-timeout=5 u", "u")
	checkStrip(t, "wget", "--connect-timeout=5 --dns-timeout=5 --waitretry=2 --retry-connrefused u", "u")
	checkStrip(t, "wget", "-qO- u", "-O- u")
	checkStrip(t, "wget", "-q -O out.bin u", "-O out.bin u")
	checkStrip(t, "wget", "-nc -np -nv u", "-nc -np u")
	checkStrip(t, "wget", "-c u", "-c u")
}

func TestStripVolatileHTTPie(t *testing.T) {
	checkStrip(t, "http", "--timeout 5 -v --verbose --pretty all GET u", "GET u")
	checkStrip(t, "https", "--pretty=none --print=hb u", "--print=hb u")
	checkStrip(t, "xh", "-v -p b u", "-p b u")
}

func TestStripVolatilePytest(t *testing.T) {
	checkStrip(t, "pytest", "-q -v -vv -s --tb=short --tb short -x --no-header -rA tests/", "-x -rA tests/")
	checkStrip(t, "pytest", "--color=yes -p no:cacheprovider --disable-warnings -k foo t.py", "-p no:cacheprovider -k foo t.py")
	checkStrip(t, "pytest", "-xvs t.py", "-x t.py")
	checkStrip(t, "py.test", "-q t.py", "t.py")
	checkStrip(t, "python", "-m pytest -q t.py", "-m pytest t.py")
	checkStrip(t, "python3", "-u -m pytest -vv --tb=line t.py", "-m pytest t.py")
	checkStrip(t, "python3.12", "-m pytest -q t.py", "-m pytest t.py")
	checkStrip(t, "python3", "-mpytest -q t.py", "-mpytest t.py")
	// Arguments of a script or of -c code are not python's.
	checkStrip(t, "python3", "-u script.py -v -q", "script.py -v -q")
	checkStrip(t, "python3", "-c print(1) -u", "-c print(1) -u")
	checkStrip(t, "python3", "-m http.server -v", "-m http.server -v")
	checkStrip(t, "python3", "-m pip install -q --no-cache-dir x", "-m pip install x")
}

func TestStripVolatileGit(t *testing.T) {
	checkStrip(t, "git", "status --short", "status")
	checkStrip(t, "git", "status -s", "status")
	checkStrip(t, "git", "status -sb", "status")
	checkStrip(t, "git", "status -b --branch --porcelain --porcelain=v2 --long -v", "status")
	checkStrip(t, "git", "status -uno", "status -uno")
	checkStrip(t, "git", "status --untracked-files=no -- -s", "status --untracked-files=no -- -s")
	checkStrip(t, "git", "--no-pager log -5", "log -5")
	checkStrip(t, "git", "--no-pager diff --color=never HEAD", "diff HEAD")
	checkStrip(t, "git", "-c color.ui=always status -s", "status")
	checkStrip(t, "git", "-c core.pager=cat -c user.name=x commit -m msg", "-c user.name=x commit -m msg")
	checkStrip(t, "git", "-C /repo --no-pager status -sb", "-C /repo status")
	checkStrip(t, "git", "-P log", "log")
	// Options of another subcommand that look like status's stay.
	checkStrip(t, "git", "log -s", "log -s")
	checkStrip(t, "git", "commit -v -m x", "commit -v -m x")
}

func TestStripVolatileGo(t *testing.T) {
	checkStrip(t, "go", "test -v -count=1 ./...", "test ./...")
	checkStrip(t, "go", "test -count 1 -timeout 30s -run TestX ./pkg", "test -run TestX ./pkg")
	checkStrip(t, "go", "test ./... -v --count=1", "test ./...")
	checkStrip(t, "go", "test -race -json -v ./...", "test -race -json ./...")
	checkStrip(t, "go", "test -run -v ./...", "test -run -v ./...")
	checkStrip(t, "go", "test . -args -v -count=1", "test . -args -v -count=1")
	checkStrip(t, "go", "build -v ./...", "build -v ./...")
	checkStrip(t, "go", "-C /src test -v .", "-C /src test .")
}

func TestStripVolatilePackageManagers(t *testing.T) {
	checkStrip(t, "npm", "install --silent --no-fund --no-audit --loglevel error x", "install x")
	checkStrip(t, "npm", "ci -s --loglevel=warn --yes", "ci")
	checkStrip(t, "pnpm", "install --silent --reporter=silent", "install")
	checkStrip(t, "yarn", "install --silent", "install")
	checkStrip(t, "npx", "-y create-app x --yes", "create-app x --yes")
	checkStrip(t, "npx", "--yes tsc -s", "tsc -s")
	checkStrip(t, "pip", "install -q --quiet -v --no-cache-dir --disable-pip-version-check x", "install x")
	checkStrip(t, "pip3", "install --progress-bar off --timeout 60 --retries 5 --default-timeout=100 x", "install x")
	checkStrip(t, "pip", "install -qqq -r req.txt", "install -r req.txt")
	checkStrip(t, "apt-get", "install -y -q -qq --quiet --yes curl", "install curl")
	checkStrip(t, "apt", "-yq install curl", "install curl")
	checkStrip(t, "apt-get", "-o Dpkg::Options::=--force-confnew install -y x", "-o Dpkg::Options::=--force-confnew install x")
	checkStrip(t, "mvn", "-q -B --batch-mode -e -ntp --no-transfer-progress test", "test")
	checkStrip(t, "mvn", "-X -Dtest=Foo -pl core test", "-X -Dtest=Foo -pl core test")
	checkStrip(t, "mvnw", "-q test", "test")
	checkStrip(t, "cargo", "test -q --color never -- --nocapture -q", "test -- --nocapture -q")
}

func TestStripVolatileSearch(t *testing.T) {
	checkStrip(t, "grep", "--color=auto -rn foo .", "-rn foo .")
	checkStrip(t, "grep", "--color -n foo f", "-n foo f")
	checkStrip(t, "grep", "-e --color=x f", "-e --color=x f")
	checkStrip(t, "rg", "--color never -n foo", "-n foo")
	checkStrip(t, "rg", "--color=always foo", "foo")
}

func TestStripVolatileOthers(t *testing.T) {
	checkStrip(t, "ls", "-la /tmp", "-la /tmp")
	checkStrip(t, "sleep", "5", "5")
	checkStrip(t, "unknown", "-s -v --max-time 5", "-s -v --max-time 5")
	require.Nil(t, StripVolatile("curl", nil))
	require.Nil(t, StripVolatile("ls", nil))
	require.Equal(t, []string{}, StripVolatile("curl", []string{}))

	// The result never shares memory with the input.
	in := []string{"-la", "x"}
	out := StripVolatile("ls", in)
	out[0] = "changed"
	require.Equal(t, "-la", in[0])
	in = []string{"-o", "f", "u"}
	out = StripVolatile("curl", in)
	out[0] = "changed"
	require.Equal(t, "-o", in[0])
}

func TestVolatileTablesWellFormed(t *testing.T) {
	var visit func(name string, c *cmdSpec, depth int)
	visit = func(name string, c *cmdSpec, depth int) {
		require.NotNil(t, c.opts, name)
		require.Less(t, depth, 4, name)
		for _, r := range c.opts.long {
			if r.when != nil {
				require.True(t, r.volatile, name)
			}
		}
		for k := range c.opts.long {
			require.True(t, strings.HasPrefix(k, "-"), "%s: %q", name, k)
			if !c.opts.singleDash {
				require.True(t, strings.HasPrefix(k, "--"), "%s: short option %q stored as long", name, k)
			}
		}
		for k, s := range c.subs {
			visit(name+" "+k, s, depth+1)
		}
		if c.anySub != nil {
			visit(name+" *", c.anySub, depth+1)
		}
	}
	for name, c := range volatileSpecs {
		visit(name, c, 0)
	}
}

func TestHasVolatileFlags(t *testing.T) {
	for _, v := range []string{"curl", "/usr/bin/curl", "wget", "git", "pytest"} {
		require.True(t, HasVolatileFlags(v), v)
	}
	for _, v := range []string{"ls", "cat", "", "python3-config"} {
		require.False(t, HasVolatileFlags(v), v)
	}
}
