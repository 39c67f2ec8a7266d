package normalize

import (
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/require"
)

// urlRequireIdentity checks that raw is a URL with the given identity, and that
// the identity parses back to itself.
func urlRequireIdentity(t *testing.T, raw string, aliases map[string]string, want string) URL {
	t.Helper()
	u, ok := NormalizeURL(raw, aliases)
	require.True(t, ok, "NormalizeURL(%q) should be ok", raw)
	require.Equal(t, want, u.Identity(), "NormalizeURL(%q).Identity()", raw)
	urlRequireIdempotent(t, u)
	return u
}

// urlRequireIdempotent checks that re-parsing u's identity gives the same URL.
func urlRequireIdempotent(t *testing.T, u URL) {
	t.Helper()
	id := u.Identity()
	again, ok := NormalizeURL("https://"+id, nil)
	require.True(t, ok, "identity %q should parse again", id)
	require.Equal(t, id, again.Identity(), "identity %q is not stable", id)
}

// urlRequireNotURL checks that raw is rejected.
func urlRequireNotURL(t *testing.T, raw string) {
	t.Helper()
	u, ok := NormalizeURL(raw, nil)
	require.False(t, ok, "NormalizeURL(%q) should fail, got %+v", raw, u)
	require.Equal(t, URL{}, u, "a rejected URL must be the zero URL")
}

// urlRequireURL checks every field of the URL that raw normalises to.
func urlRequireURL(t *testing.T, raw string, want URL) {
	t.Helper()
	u, ok := NormalizeURL(raw, nil)
	require.True(t, ok, "NormalizeURL(%q) should be ok", raw)
	require.Equal(t, want, u, "NormalizeURL(%q)", raw)
	urlRequireIdempotent(t, u)
}

func TestNormalizeURLAliases(t *testing.T) {
	aliases := map[string]string{"open-data.canada.ca": "open.canada.ca"}
	for _, raw := range []string{
		"open-data.canada.ca/x",
		"https://open.canada.ca/x/",
		"https://open-data.canada.ca/x",
		"http://www.open-data.canada.ca/x#top",
		"HTTPS://OPEN-DATA.CANADA.CA:443/x//",
		"//open.canada.ca/x",
	} {
		t.Run(raw, func(t *testing.T) {
			urlRequireIdentity(t, raw, aliases, "open.canada.ca/x")
		})
	}

	odd := map[string]string{
		"a.example":     "WWW.B.Example.",
		"v6.example":    "::1",
		"v6b.example":   "[::1]",
		"bad.example":   "no spaces allowed",
		"empty.example": "",
		"ip.example":    "0x7f.1",
	}
	for _, tc := range []struct{ raw, want string }{
		{"https://a.example/p", "b.example/p"},
		{"https://v6.example:81/p", "[::1]:81/p"},
		{"https://v6b.example/p", "[::1]/p"},
		{"https://bad.example/p", "bad.example/p"},
		{"https://empty.example/p", "empty.example/p"},
		{"https://ip.example/p", "127.0.0.1/p"},
	} {
		t.Run(tc.raw, func(t *testing.T) {
			urlRequireIdentity(t, tc.raw, odd, tc.want)
		})
	}

	u, ok := NormalizeURL("https://v6.example/", odd)
	require.True(t, ok)
	require.True(t, u.Local, "Local follows the aliased host")
	require.Equal(t, "::1", u.Site)
}

func TestNormalizeURLIdentity(t *testing.T) {
	for _, tc := range []struct{ raw, want string }{
		{"HTTP://WWW.Example.COM:443/a/#frag", "example.com/a"},
		{"http://example.com:80", "example.com"},
		{"https://example.com:80/", "example.com"},
		{"http://example.com:443/", "example.com"},
		{"https://example.com:8443/x", "example.com:8443/x"},
		{"https://example.com:08443/x", "example.com:8443/x"},
		{"https://example.com:0080/x", "example.com/x"},
		{"https://example.com:/x", "example.com/x"},
		{"https://example.com:0/x", "example.com:0/x"},
		{"https://example.com/?b=2&a=1&utm_source=x", "example.com?a=1&b=2"},
		{"https://example.com?b=2&a=1", "example.com?a=1&b=2"},
		{"https://example.com//a//b/", "example.com/a/b"},
		{"https://example.com/", "example.com"},
		{"https://example.com///", "example.com"},
		{"https://example.com", "example.com"},
		{"https://example.com/#x", "example.com"},
		{"https://example.com/a?#x", "example.com/a"},
		{"https://example.com/a?q=1#x?y=2", "example.com/a?q=1"},
		{"https://user:pass@example.com/a", "example.com/a"},
		{"https://a@b@example.com/a", "example.com/a"},
		{"//host/x", "host/x"},
		{"//user@example.com/x", "example.com/x"},
		{"  https://example.com/x \n", "example.com/x"},
		{"https://www.www.example.com/", "example.com"},
		{"https://www.com/", "www.com"},
		{"https://www.www.com/", "www.com"},
		{"https://example.com./", "example.com"},
		{"https://intranet/x", "intranet/x"},
		{"https://my_host.example.com/x", "my_host.example.com/x"},
		{"hTtPs://Example.com/CaseKept", "example.com/CaseKept"},
		{"https://api.github.com/repos/o/r/commits?per_page=100&page=2", "api.github.com/repos/o/r/commits?page=2&per_page=100"},
		{"a.b/c", "a.b/c"},
		{"www.foo", "www.foo"},
		{"www.foo.bar/x", "foo.bar/x"},
		{"localhost./x", "localhost/x"},
		{"https://e.com/@user", "e.com/@user"},
		{"https://e.com/a:b;c=d", "e.com/a:b;c=d"},
		{"open-data.canada.ca/x", "open-data.canada.ca/x"},
		{"example.com:8080/x", "example.com:8080/x"},
		{"localhost", "localhost"},
		{"localhost:8080/api", "localhost:8080/api"},
		{"LOCALHOST:8080", "localhost:8080"},
		{"127.0.0.1:8000/x", "127.0.0.1:8000/x"},
		{"[::1]:8080/api", "[::1]:8080/api"},
		{"example.com?q=1", "example.com?q=1"},
		{"https://example.com/a/./b/../c", "example.com/a/c"},
		{"https://example.com/../../a", "example.com/a"},
		{"https://example.com/a/..", "example.com"},
		{"https://example.com/a/%2e%2e/b", "example.com/a/%2e%2e/b"},
		{"https://example.com/a%2Fb%zz", "example.com/a%2Fb%zz"},
		{"https://example.com/a b", "example.com/a%20b"},
		{"https://example.com/München", "example.com/M%C3%BCnchen"},
		{"https://example.com/M%C3%BCnchen", "example.com/M%C3%BCnchen"},
		{"https://example.com/a\x00b", "example.com/a%00b"},
		{"https://example.com/a\\b", "example.com/a\\b"},
	} {
		t.Run(tc.raw, func(t *testing.T) {
			urlRequireIdentity(t, tc.raw, nil, tc.want)
		})
	}
}

func TestNormalizeURLFields(t *testing.T) {
	urlRequireURL(t, "https://open.canada.ca/data/en/dataset/?q=x", URL{
		Host: "open.canada.ca", Path: "/data/en/dataset", Query: "q=x", Site: "canada.ca",
	})
	urlRequireURL(t, "www.open-data.canada.ca", URL{Host: "open-data.canada.ca", Site: "canada.ca"})
	urlRequireURL(t, "http://192.168.111.90:8080/x", URL{
		Host: "192.168.111.90", Port: "8080", Path: "/x", Site: "192.168.111.90", Local: true,
	})
	urlRequireURL(t, "http://[::1]:3000/", URL{Host: "::1", Port: "3000", Site: "::1", Local: true})
	urlRequireURL(t, "http://localhost:3000/", URL{Host: "localhost", Port: "3000", Site: "localhost", Local: true})
	urlRequireURL(t, "https://example.com/?b=2&a=1&utm_source=x", URL{Host: "example.com", Query: "a=1&b=2", Site: "example.com"})
	urlRequireURL(t, "https://example.com//a//b/", URL{Host: "example.com", Path: "/a/b", Site: "example.com"})
}

func TestNormalizeURLQuery(t *testing.T) {
	for _, tc := range []struct{ raw, want string }{
		{"https://e.com/?page=2", "page=2"},
		{"https://e.com/?page=3", "page=3"},
		{"https://e.com/?", ""},
		{"https://e.com/?&&", ""},
		{"https://e.com/?a=1&&b=2&", "a=1&b=2"},
		{"https://e.com/?b=1&a=2&a=1", "a=1&a=2&b=1"},
		{"https://e.com/?a=1&a=1", "a=1&a=1"},
		{"https://e.com/?a=&a", "a&a="},
		{"https://e.com/?a-b=1&a=2", "a=2&a-b=1"},
		{"https://e.com/?x=1&utm_source=a&UTM_Medium=b&utm_=c", "x=1"},
		{"https://e.com/?fbclid=1&gclid=2&dclid=3&msclkid=4&mc_cid=5&mc_eid=6", ""},
		{"https://e.com/?_ga=1&_gl=2&igshid=3&yclid=4&ref_src=5&spm=6&FBCLID=7", ""},
		{"https://e.com/?utm=1&ref=2&spmx=3", "ref=2&spmx=3&utm=1"},
		{"https://e.com/?q=a b&r=ü", "q=a%20b&r=%C3%BC"},
		{"https://e.com/?q=a+b&r=%zz", "q=a+b&r=%zz"},
		{"https://e.com/?q=?x=/y", "q=?x=/y"},
		{"https://e.com/?b=%01&b=%", "b=%&b=%01"},
	} {
		t.Run(tc.raw, func(t *testing.T) {
			u := urlRequireIdentity(t, tc.raw, nil, strings.TrimSuffix("e.com?"+tc.want, "?"))
			require.Equal(t, tc.want, u.Query)
		})
	}

	a, _ := NormalizeURL("https://e.com/x?page=2", nil)
	b, _ := NormalizeURL("https://e.com/x?page=3", nil)
	require.NotEqual(t, a.Identity(), b.Identity())
}

func TestNormalizeURLIPLiterals(t *testing.T) {
	for _, tc := range []struct {
		raw, host string
		local     bool
	}{
		{"http://192.168.111.90:8080/x", "192.168.111.90", true},
		{"http://[::1]:3000/", "::1", true},
		{"http://[2606:4700:0:0::1111]/", "2606:4700::1111", false},
		{"http://[2606:4700:0000:0000:0000:0000:0000:1111]/", "2606:4700::1111", false},
		{"http://[2606:4700::ABCD]/", "2606:4700::abcd", false},
		{"http://[fe80::1%25eth0]/", "fe80::1", true},
		{"http://[::ffff:127.0.0.1]/", "::ffff:127.0.0.1", true},
		{"http://[::ffff:8.8.8.8]/", "::ffff:8.8.8.8", false},
		{"http://8.8.8.8/", "8.8.8.8", false},
		{"http://127.0.0.1./", "127.0.0.1", true},
		{"http://0x7f.1/", "127.0.0.1", true},
		{"http://2130706433/", "127.0.0.1", true},
		{"http://017700000001/", "127.0.0.1", true},
		{"http://0x7F000001/", "127.0.0.1", true},
		{"http://10.1/", "10.0.0.1", true},
		{"http://192.168.257/", "192.168.1.1", true},
		{"http://0/", "0.0.0.0", true},
		{"http://1.2.3.0x/", "1.2.3.0", false},
	} {
		t.Run(tc.raw, func(t *testing.T) {
			u, ok := NormalizeURL(tc.raw, nil)
			require.True(t, ok)
			require.Equal(t, tc.host, u.Host)
			require.Equal(t, tc.host, u.Site, "an IP literal is its own site")
			require.Equal(t, tc.local, u.Local)
			urlRequireIdempotent(t, u)
		})
	}
	urlRequireIdentity(t, "http://[::1]:3000/", nil, "[::1]:3000")
	urlRequireIdentity(t, "http://[2606:4700:0:0::1111]/a", nil, "[2606:4700::1111]/a")
}

func TestNormalizeURLIDN(t *testing.T) {
	for _, tc := range []struct{ raw, host, site string }{
		{"https://BÜCHER.example/x", "xn--bcher-kva.example", "xn--bcher-kva.example"},
		{"https://bücher.example/x", "xn--bcher-kva.example", "xn--bcher-kva.example"},
		{"https://xn--bcher-kva.example/x", "xn--bcher-kva.example", "xn--bcher-kva.example"},
		{"https://XN--BCHER-KVA.example/x", "xn--bcher-kva.example", "xn--bcher-kva.example"},
		{"https://münchen.de", "xn--mnchen-3ya.de", "xn--mnchen-3ya.de"},
		{"https://www.münchen.de", "xn--mnchen-3ya.de", "xn--mnchen-3ya.de"},
		{"https://stadt.münchen.de", "stadt.xn--mnchen-3ya.de", "xn--mnchen-3ya.de"},
		{"https://example。com/", "example.com", "example.com"},
		{"https://ＥＸＡＭＰＬＥ.com/", "example.com", "example.com"},
		{"bücher.example/x", "xn--bcher-kva.example", "xn--bcher-kva.example"},
	} {
		t.Run(tc.raw, func(t *testing.T) {
			u, ok := NormalizeURL(tc.raw, nil)
			require.True(t, ok)
			require.Equal(t, tc.host, u.Host)
			require.Equal(t, tc.site, u.Site)
			urlRequireIdempotent(t, u)
		})
	}
}

func TestNormalizeURLSite(t *testing.T) {
	for _, tc := range []struct{ raw, site string }{
		{"www.open-data.canada.ca", "canada.ca"},
		{"https://news.bbc.co.uk/x", "bbc.co.uk"},
		{"https://user.github.io/p", "user.github.io"},
		{"https://a.b.user.github.io/p", "user.github.io"},
		{"https://api.github.com/x", "github.com"},
		{"https://co.uk/", "co.uk"},
		{"https://github.io/", "github.io"},
		{"https://com/", "com"},
		{"https://localhost/", "localhost"},
		{"https://api.localhost/", "api.localhost"},
		{"https://intranet/", "intranet"},
		{"https://host.unknowntld/", "host.unknowntld"},
		{"https://a.host.unknowntld/", "host.unknowntld"},
		{"http://192.168.111.90/", "192.168.111.90"},
		{"http://[::1]/", "::1"},
	} {
		t.Run(tc.raw, func(t *testing.T) {
			u, ok := NormalizeURL(tc.raw, nil)
			require.True(t, ok)
			require.Equal(t, tc.site, u.Site)
		})
	}
}

func TestNormalizeURLRejects(t *testing.T) {
	for _, raw := range []string{
		"", "   ", "ls -la", "ls", "not a url", "foo", "src/main.go", "./a.b", "../a.b", "/etc/passwd",
		"~/x", "C:\\Users\\x", "1.2.3", "3.14", "42", "1.2.3.4.5",
		"ftp://x.com/", "file:///etc/passwd", "mailto:a@b.com", "javascript:alert(1)",
		"data:text/plain,x", "git+https://x.com/", "http:example.com", "https:/example.com",
		"http://", "https://", "https:///x", "https://?q", "https://#f", "//", "///x",
		"https://exa mple.com", "https://exa\"mple.com", "https://exa'mple.com", "https://$HOST/x",
		"https://{host}/x", "https://ex%61mple.com", "https://exa\\mple.com", "https://a,b.com",
		"https://.example.com", "https://a..b.com", "https://example.com..", "https://.",
		"https://example.com:x/", "https://example.com:65536/", "https://example.com:123456/",
		"https://example.com:-1/", "https://example.com:80:80/", "https://[::1/", "https://[::1]x/",
		"https://[127.0.0.1]/", "https://[zz::1]/", "https://::1/", "https://[]/",
		"https://1.2.3.4.5/", "https://256.1.1.1/", "https://1.2.3.256/", "https://1.2.65536/",
		"https://0x100000000/", "https://4294967296/", "https://example.123/", "https://08/",
		"https://example.0x1f/", "https://exa\x00mple.com", "https://exa\u00a0mple.com",
		"https://ex$ample.com", "https://\xff\xfe.com", "https://xn--a-.com\u00e9",
		"a@b.com", "user@example.com/x", "user:pass@example.com/x", "git@github.com:o/r.git",
		"example.com:x", "01.2.3.4/x", "0x7f.1/x", "localhost.:x",
	} {
		t.Run(raw, func(t *testing.T) {
			urlRequireNotURL(t, raw)
		})
	}
}

func TestNormalizeURLLimits(t *testing.T) {
	path := "/" + strings.Repeat("a", urlMaxInput-len("https://e.com/"))
	urlRequireIdentity(t, "https://e.com"+path, nil, "e.com"+path)
	urlRequireNotURL(t, "https://e.com"+path+"a")
	urlRequireNotURL(t, "https://e.com/"+strings.Repeat("a/", 1<<19))
	// Escaping triples these bytes: the identity would not parse again.
	urlRequireNotURL(t, "https://e.com/"+strings.Repeat("\x14", 3000))
	urlRequireNotURL(t, "https://e.com/?q="+strings.Repeat("\u00e9", 1500))
	urlRequireIdentity(t, "https://e.com/"+strings.Repeat("\x14", 2000), nil, "e.com/"+strings.Repeat("%14", 2000))

	// Odd input must never panic.
	for _, raw := range []string{
		"%zz", "https://e.com/%zz?%zz=%zz", "https://e.com/\xff\xfe", "\x00", "https://\x00",
		"https://e.com/?\xff=\x00", "https://[", "https://]", "https://[::1]:", "https://@",
		"https://:", "https://e.com:", "https://e.com/" + strings.Repeat("../", 2000),
		"https://e.com/?" + strings.Repeat("&", 3000), "https://e.com/?" + strings.Repeat("b=1&a=1&", 400),
	} {
		require.NotPanics(t, func() {
			if u, ok := NormalizeURL(raw, nil); ok {
				urlRequireIdempotent(t, u)
			}
		}, "input %q", raw)
	}
}

func TestURLIdentityZero(t *testing.T) {
	require.Empty(t, URL{}.Identity())
	require.Equal(t, "[::1]:8080/api?a=1", URL{Host: "::1", Port: "8080", Path: "/api", Query: "a=1"}.Identity())
}

func TestIsLocalHost(t *testing.T) {
	for _, host := range []string{
		"localhost", "LocalHost", "localhost.", "api.localhost", "a.b.localhost",
		"127.0.0.1", "127.9.9.9", "::1", "[::1]", "10.1.2.3", "192.168.111.90", "172.16.0.1",
		"172.31.255.255", "169.254.1.1", "0.0.0.0", "::", "fd00::1", "fc00::1", "fe80::1",
		"fe80::1%eth0", "[fe80::1]", "::ffff:127.0.0.1", "::ffff:10.0.0.1", "::ffff:192.168.0.1",
	} {
		require.True(t, IsLocalHost(host), "IsLocalHost(%q)", host)
	}
	for _, host := range []string{
		"", "example.com", "open.canada.ca", "8.8.8.8", "172.32.0.1", "172.15.0.1",
		"192.169.0.1", "2606:4700::1111", "::ffff:8.8.8.8", "notlocalhost", ".localhost",
		"localhost.example.com", "[::1", "11.0.0.1", "169.255.0.1", "fec0::1",
	} {
		require.False(t, IsLocalHost(host), "IsLocalHost(%q)", host)
	}
}

func TestHostFunctionsOddInput(t *testing.T) {
	big := strings.Repeat("a.", 1<<19) + "com"
	for _, host := range []string{big, "\xff\xfe", "\x00", "[", "]", "[]", ".", "..", "%zz", "::ffff:", "1.2.3.4.5"} {
		require.NotPanics(t, func() {
			_ = IsLocalHost(host)
			_ = SiteOf(host)
		}, "host %q", host[:min(len(host), 20)])
	}
	require.Equal(t, "a.com", SiteOf(big))
}

func TestSiteOf(t *testing.T) {
	for _, tc := range []struct{ host, site string }{
		{"", ""},
		{"news.bbc.co.uk", "bbc.co.uk"},
		{"bbc.co.uk", "bbc.co.uk"},
		{"co.uk", "co.uk"},
		{"user.github.io", "user.github.io"},
		{"api.github.com", "github.com"},
		{"canada.ca", "canada.ca"},
		{"open.canada.ca", "canada.ca"},
		{"localhost", "localhost"},
		{"192.168.111.90", "192.168.111.90"},
		{"8.8.8.8", "8.8.8.8"},
		{"::1", "::1"},
		{"2606:4700::1111", "2606:4700::1111"},
		{"xn--mnchen-3ya.de", "xn--mnchen-3ya.de"},
		{"a.b.example.co2", "example.co2"},
	} {
		require.Equal(t, tc.site, SiteOf(tc.host), "SiteOf(%q)", tc.host)
	}
}

// urlRequireExtract checks the URLs ExtractURLs finds in text.
func urlRequireExtract(t *testing.T, text string, want ...string) {
	t.Helper()
	got := ExtractURLs(text)
	if len(want) == 0 {
		require.Empty(t, got, "ExtractURLs(%q)", text)
		return
	}
	require.Equal(t, want, got, "ExtractURLs(%q)", text)
}

func TestExtractURLs(t *testing.T) {
	for _, tc := range []struct {
		text string
		want []string
	}{
		{"see https://a.com/x. and (https://b.com/y), https://a.com/x", []string{"https://a.com/x", "https://b.com/y"}},
		{`curl -s "https://x.com/a?b=1" -o f`, []string{"https://x.com/a?b=1"}},
		{"wiki https://en.wikipedia.org/wiki/Foo_(bar)", []string{"https://en.wikipedia.org/wiki/Foo_(bar)"}},
		{"(wiki https://en.wikipedia.org/wiki/Foo_(bar))", []string{"https://en.wikipedia.org/wiki/Foo_(bar)"}},
		{"[link](https://a.com/x)", []string{"https://a.com/x"}},
		{"{https://a.com/x}", []string{"https://a.com/x"}},
		{"https://a.com/[1]!?", []string{"https://a.com/[1]"}},
		{"https://a.com/x...;:!?,", []string{"https://a.com/x"}},
		{"HTTPS://A.com/X HtTp://b.com", []string{"HTTPS://A.com/X", "HtTp://b.com"}},
		{`{"url":"https://api.github.com/repos/o/r"}`, []string{"https://api.github.com/repos/o/r"}},
		{`echo 'http://a.com/x'` + "`http://b.com`", []string{"http://a.com/x", "http://b.com"}},
		{"<https://a.com/x>", []string{"https://a.com/x"}},
		{`"https:\/\/a.com\/x"`, nil},
		{"a\\https://a.com/x\\n", []string{"https://a.com/x"}},
		{"https://a.com/x\thttps://b.com/y\nhttps://c.com\r\n", []string{"https://a.com/x", "https://b.com/y", "https://c.com"}},
		{"https://a.com/x\u00a0https://b.com/y\u3000z", []string{"https://a.com/x", "https://b.com/y"}},
		{"https://a.com/?u=https://b.com/", []string{"https://a.com/?u=https://b.com/"}},
		{"git+https://github.com/o/r.git", []string{"https://github.com/o/r.git"}},
		{"xhttp://a.com", []string{"http://a.com"}},
		{"https://münchen.de/straße", []string{"https://münchen.de/straße"}},
		{"https:// http://. ftp://a.com file:///x ://x http:/a.com", nil},
		{"", nil},
		{"no urls here", nil},
		{"https://a.com https://a.com https://a.com.", []string{"https://a.com"}},
		{"http://a.com/x\x00y", []string{"http://a.com/x"}},
		{"http://a.com/\xff\xfe", []string{"http://a.com/\xff\xfe"}},
	} {
		t.Run(tc.text, func(t *testing.T) {
			urlRequireExtract(t, tc.text, tc.want...)
		})
	}
}

func TestExtractURLsLimits(t *testing.T) {
	var sb strings.Builder
	for i := range 100 {
		sb.WriteString("https://h")
		sb.WriteString(strings.Repeat("x", i))
		sb.WriteString(".com ")
	}
	got := ExtractURLs(sb.String())
	require.Len(t, got, urlMaxExtract)
	require.Equal(t, "https://h.com", got[0])

	// Adversarial inputs stay linear: a megabyte of each takes far less
	// than the time a quadratic scan would.
	for _, text := range []string{
		"https://" + strings.Repeat(")", 1<<20),
		strings.Repeat("https://a.com ", 1<<16),
		strings.Repeat("://", 1<<18),
		strings.Repeat("http://", 1<<17),
		"https://a.com/" + strings.Repeat("(", 1<<20),
		"https://a.com/" + strings.Repeat(".", 1<<20),
	} {
		start := time.Now()
		ExtractURLs(text)
		require.Less(t, time.Since(start), 2*time.Second)
	}
}

func BenchmarkNormalizeURL(b *testing.B) {
	for _, bc := range []struct{ name, raw string }{
		{"typical", "https://api.github.com/repos/o/r/commits?page=2&per_page=100"},
		{"messy", "HTTP://WWW.Example.COM:443//a//b/?utm_source=x&b=2&a=1#frag"},
		{"schemeless", "open-data.canada.ca/data/en/dataset"},
		{"idn", "https://bücher.example/x"},
	} {
		aliases := map[string]string{"open-data.canada.ca": "open.canada.ca"}
		b.Run(bc.name, func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				u, _ := NormalizeURL(bc.raw, aliases)
				_ = u.Identity()
			}
		})
	}
}

func BenchmarkExtractURLs(b *testing.B) {
	text := `curl -sSL -H "Accept: application/json" "https://api.github.com/repos/o/r/commits?page=2" ` +
		`| jq '.[] | .sha' && echo "see https://docs.github.com/en/rest (docs)." > out.txt`
	b.ReportAllocs()
	for b.Loop() {
		_ = ExtractURLs(text)
	}
}

func TestPrefixedIdentity(t *testing.T) {
	u, ok := NormalizeURL("http://[::1]:3000/a?b=1", nil)
	require.True(t, ok)
	require.Equal(t, "net:"+u.Identity(), u.PrefixedIdentity("net:"))
	require.Equal(t, "[::1]:3000/a?b=1", u.Identity())
}
