package normalize

import (
	"bytes"
	"cmp"
	"net/netip"
	"slices"
	"strings"
	"unicode"
	"unicode/utf8"

	"golang.org/x/net/idna"
	"golang.org/x/net/publicsuffix"
)

// URL is the identity of an http or https resource after folding away the
// spellings that do not change which resource is meant: scheme, letter case
// of the host, "www.", default ports, user-info, fragments, repeated or
// trailing slashes, dot segments, parameter order and tracking parameters.
// Two URLs that name the same resource in these respects have equal fields.
//
// The zero URL is not a resource: it has no host and its Identity is "".
//
// NormalizeURL, ExtractURLs, IsLocalHost, SiteOf and the methods of URL are
// pure functions of their arguments, with no I/O and no shared state, so they
// are safe for concurrent use.
type URL struct {
	// Host is the canonical host: lower-case ASCII, with internationalised
	// names in punycode, no trailing dot, no leading "www." (unless that
	// would leave a single label) and host aliases applied. An IPv4 address
	// is in dotted-decimal form; an IPv6 address is in the form of
	// [netip.Addr.String], without brackets or zone.
	Host string
	// Port is the port in decimal without leading zeros, or "" when none was
	// given or it was 80 or 443 (both are treated as default whatever the
	// scheme).
	Port string
	// Path is the path with runs of "/" collapsed, "." and ".." segments
	// resolved and a trailing "/" removed; "" for the root. Existing
	// percent-escapes are kept as written; spaces, control bytes and
	// non-ASCII bytes are percent-encoded.
	Path string
	// Query is the query without the leading "?": parameters sorted by key,
	// then value, with empty and tracking parameters (utm_*, fbclid, gclid
	// and the like) removed; "" when none remain. Bytes are escaped as in
	// Path.
	Query string
	// Site is the registrable domain of Host, as computed by [SiteOf].
	Site string
	// Local reports whether Host is a local or private address, as computed
	// by [IsLocalHost].
	Local bool
}

// Identity returns the resource identity Host[:Port]Path[?Query], for
// example "open.canada.ca/x" or "api.github.com/repos/o/r/commits?page=2".
// An IPv6 host is written in brackets ("[::1]:8080/api") so that the port
// stays unambiguous. Identity contains no whitespace, and parsing
// "https://" + Identity() with [NormalizeURL] gives back the same Identity.
func (u URL) Identity() string { return u.PrefixedIdentity("") }

// PrefixedIdentity returns prefix followed by u.Identity(), written in one
// buffer ("net:" + the identity is a net: fingerprint).
func (u URL) PrefixedIdentity(prefix string) string {
	v6 := strings.IndexByte(u.Host, ':') >= 0
	var b strings.Builder
	b.Grow(len(prefix) + u.identityLen())
	b.WriteString(prefix)
	if v6 {
		b.WriteByte('[')
	}
	b.WriteString(u.Host)
	if v6 {
		b.WriteByte(']')
	}
	if u.Port != "" {
		b.WriteByte(':')
		b.WriteString(u.Port)
	}
	b.WriteString(u.Path)
	if u.Query != "" {
		b.WriteByte('?')
		b.WriteString(u.Query)
	}
	return b.String()
}

// identityLen returns len(u.Identity()).
func (u URL) identityLen() int {
	n := len(u.Host) + len(u.Path)
	if strings.IndexByte(u.Host, ':') >= 0 {
		n += 2
	}
	if u.Port != "" {
		n += 1 + len(u.Port)
	}
	if u.Query != "" {
		n += 1 + len(u.Query)
	}
	return n
}

// urlMaxInput is the longest text NormalizeURL accepts.
const urlMaxInput = 8 << 10

// urlMaxIdentity is the longest Identity NormalizeURL produces, so that
// "https://" + Identity() is always accepted.
const urlMaxIdentity = urlMaxInput - len("https://")

// urlMaxExtract caps the number of URLs ExtractURLs returns.
const urlMaxExtract = 64

// NormalizeURL parses raw as an http or https URL and folds it into a URL.
//
// Surrounding whitespace is ignored. The scheme is matched without regard to
// case and defaults to https when missing, so "open.canada.ca/x" and
// "//open.canada.ca/x" are accepted; any other scheme gives ok=false.
// User-info and the fragment are dropped.
//
// Text without a scheme and without a leading "//" is accepted only when it
// looks like a host: its host must contain a dot, be "localhost" or be an IP
// literal (a dotted-quad IPv4 address or a bracketed IPv6 one), and it must
// not contain user-info. This keeps words, file paths ("src/main.go" has no
// dot before its first slash), version numbers ("1.2.3") and e-mail addresses
// from being taken for URLs. With a scheme or "//", single-label hosts are
// accepted and IPv4 hosts may be written in any form browsers accept
// ("0x7f.1", "2130706433"); they are converted to dotted-quad form.
//
// aliases maps a folded host (lower-case, punycode, without "www.") to the
// host it should be counted as, for example "open-data.canada.ca" to
// "open.canada.ca". It is consulted once, after the other host folding; the
// replacement is folded the same way and ignored if it is not a valid host.
// A nil map is fine.
//
// ok is false for text longer than 8 KiB, a result whose Identity would not
// fit in 8 KiB with its scheme, an empty host, a host containing characters
// that cannot appear in a host name (spaces, quotes, "$", "{", "%", ...), a
// malformed port, a malformed IP literal, and any other text that is not an
// http(s) URL. NormalizeURL never panics.
func NormalizeURL(raw string, aliases map[string]string) (u URL, ok bool) {
	if len(raw) > urlMaxInput {
		return URL{}, false
	}
	rest, bare, ok := urlSplitScheme(strings.TrimSpace(raw))
	if !ok {
		return URL{}, false
	}

	end := len(rest)
	for i := 0; i < len(rest); i++ {
		if c := rest[i]; c == '/' || c == '?' || c == '#' {
			end = i
			break
		}
	}
	auth, tail := rest[:end], rest[end:]
	if at := strings.LastIndexByte(auth, '@'); at >= 0 {
		if bare {
			return URL{}, false
		}
		auth = auth[at+1:]
	}
	hostText, port, ok := urlSplitHostPort(auth)
	if !ok {
		return URL{}, false
	}
	host, isIP, ok := hostFold(hostText, bare)
	if !ok {
		return URL{}, false
	}
	if bare && !isIP && host != "localhost" && strings.IndexByte(host, '.') < 0 {
		return URL{}, false
	}
	if len(aliases) > 0 {
		if target, found := aliases[host]; found {
			if folded, ok := hostFoldAlias(target); ok {
				host = folded
			}
		}
	}

	if i := strings.IndexByte(tail, '#'); i >= 0 {
		tail = tail[:i]
	}
	path, query, _ := strings.Cut(tail, "?")
	u = URL{Host: host, Port: port, Path: urlCleanPath(path), Query: urlCleanQuery(query)}
	// Escaping can lengthen the text; refuse an identity that could not be
	// parsed again.
	if u.identityLen() > urlMaxIdentity {
		return URL{}, false
	}
	u.Site = SiteOf(host)
	u.Local = IsLocalHost(host)
	return u, true
}

// urlSplitScheme removes an http(s) scheme and the "//" that follows it, or a
// bare leading "//". bare reports that s had neither, so the stricter rules
// for scheme-less text apply. ok is false for any other scheme.
func urlSplitScheme(s string) (rest string, bare, ok bool) {
	if strings.HasPrefix(s, "//") {
		return s[2:], false, true
	}
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch {
		case 'a' <= c && c <= 'z', 'A' <= c && c <= 'Z':
		case i > 0 && ('0' <= c && c <= '9' || c == '+' || c == '-' || c == '.'):
		case i > 0 && c == ':':
			after := s[i+1:]
			if strings.HasPrefix(after, "//") {
				scheme := s[:i]
				if strings.EqualFold(scheme, "https") || strings.EqualFold(scheme, "http") {
					return after[2:], false, true
				}
				return "", false, false
			}
			// "localhost:8080/x" is a host and a port, not a scheme.
			if urlIsPortThenPath(after) {
				return s, true, true
			}
			return "", false, false
		default:
			return s, true, true
		}
	}
	return s, true, true
}

// urlIsPortThenPath reports whether s is a run of digits (possibly empty)
// followed by the end of the authority.
func urlIsPortThenPath(s string) bool {
	for i := 0; i < len(s); i++ {
		c := s[i]
		if c == '/' || c == '?' || c == '#' {
			return true
		}
		if c < '0' || c > '9' {
			return false
		}
	}
	return true
}

// urlSplitHostPort splits an authority without user-info into its host (with
// brackets if it is an IPv6 literal) and its canonical port.
func urlSplitHostPort(auth string) (host, port string, ok bool) {
	if strings.HasPrefix(auth, "[") {
		j := strings.IndexByte(auth, ']')
		if j < 0 {
			return "", "", false
		}
		host, after := auth[:j+1], auth[j+1:]
		if after == "" {
			return host, "", true
		}
		if after[0] != ':' {
			return "", "", false
		}
		port, ok = urlCanonPort(after[1:])
		return host, port, ok
	}
	if i := strings.LastIndexByte(auth, ':'); i >= 0 {
		port, ok = urlCanonPort(auth[i+1:])
		return auth[:i], port, ok
	}
	return auth, "", true
}

// urlCanonPort checks that p is a decimal port number and returns it without
// leading zeros, or "" when it is empty, 80 or 443.
func urlCanonPort(p string) (string, bool) {
	for i := 0; i < len(p); i++ {
		if p[i] < '0' || p[i] > '9' {
			return "", false
		}
	}
	for len(p) > 1 && p[0] == '0' {
		p = p[1:]
	}
	if len(p) > 5 {
		return "", false
	}
	n := 0
	for i := 0; i < len(p); i++ {
		n = n*10 + int(p[i]-'0')
	}
	if n > 65535 {
		return "", false
	}
	if p == "80" || p == "443" {
		return "", true
	}
	return p, true
}

// hostFold folds the host part of an authority. isIP reports an IP literal.
// bare selects the rules for scheme-less text, which accept only the
// canonical dotted-quad spelling of IPv4 addresses.
func hostFold(h string, bare bool) (host string, isIP, ok bool) {
	if h == "" {
		return "", false, false
	}
	if h[0] == '[' {
		if len(h) < 2 || h[len(h)-1] != ']' {
			return "", false, false
		}
		v6, ok := hostFoldIPv6(h[1 : len(h)-1])
		return v6, true, ok
	}
	upper, nonASCII, ok := hostScan(h)
	if !ok {
		return "", false, false
	}
	if nonASCII {
		if !utf8.ValidString(h) {
			return "", false, false
		}
		a, err := idna.Lookup.ToASCII(h)
		if err != nil {
			return "", false, false
		}
		upper, nonASCII, ok = hostScan(a)
		if !ok || nonASCII {
			return "", false, false
		}
		h = a
	}
	if upper {
		h = strings.ToLower(h)
	}
	h = strings.TrimSuffix(h, ".")
	if h == "" || h[0] == '.' || h[len(h)-1] == '.' || strings.Contains(h, "..") {
		return "", false, false
	}
	if hostEndsInNumber(h) {
		if a, err := netip.ParseAddr(h); err == nil && a.Is4() {
			return h, true, true
		}
		if bare {
			return "", false, false
		}
		a, ok := hostParseIPv4(h)
		if !ok {
			return "", false, false
		}
		return a.String(), true, true
	}
	for strings.HasPrefix(h, "www.") && strings.IndexByte(h[4:], '.') >= 0 {
		h = h[4:]
	}
	return h, false, true
}

// hostFoldAlias folds the replacement host of an alias. It also accepts an
// IPv6 address without brackets.
func hostFoldAlias(target string) (string, bool) {
	if target != "" && target[0] != '[' && strings.IndexByte(target, ':') >= 0 {
		return hostFoldIPv6(target)
	}
	h, _, ok := hostFold(target, false)
	return h, ok
}

// hostFoldIPv6 returns the canonical spelling of an IPv6 literal, dropping
// any zone ("%eth0" or the URL form "%25eth0").
func hostFoldIPv6(s string) (string, bool) {
	if i := strings.IndexByte(s, '%'); i >= 0 {
		s = s[:i]
	}
	a, err := netip.ParseAddr(s)
	if err != nil || !a.Is6() {
		return "", false
	}
	return a.String(), true
}

// hostScan checks that h contains only bytes that can occur in a host name:
// ASCII letters, digits, '-', '.', '_', and non-ASCII bytes (left to IDNA).
func hostScan(h string) (upper, nonASCII, ok bool) {
	for i := 0; i < len(h); i++ {
		c := h[i]
		switch {
		case 'a' <= c && c <= 'z', '0' <= c && c <= '9', c == '-', c == '.', c == '_':
		case 'A' <= c && c <= 'Z':
			upper = true
		case c >= utf8.RuneSelf:
			nonASCII = true
		default:
			return false, false, false
		}
	}
	return upper, nonASCII, true
}

// hostEndsInNumber reports whether the last label of the lower-case host h
// is a number (decimal digits, or "0x" and hex digits), which makes h an IPv4
// address or invalid.
func hostEndsInNumber(h string) bool {
	last := h[strings.LastIndexByte(h, '.')+1:]
	if last == "" {
		return false
	}
	if strings.HasPrefix(last, "0x") {
		for i := 2; i < len(last); i++ {
			if hostHexVal(last[i]) < 0 {
				return false
			}
		}
		return true
	}
	for i := 0; i < len(last); i++ {
		if last[i] < '0' || last[i] > '9' {
			return false
		}
	}
	return true
}

// hostIsDigitsAndDots reports whether h holds only decimal digits and dots.
func hostIsDigitsAndDots(h string) bool {
	for i := 0; i < len(h); i++ {
		if c := h[i]; c != '.' && (c < '0' || c > '9') {
			return false
		}
	}
	return true
}

// hostEndsInDigits reports whether the last label of h is all decimal digits.
func hostEndsInDigits(h string) bool {
	last := h[strings.LastIndexByte(h, '.')+1:]
	for i := 0; i < len(last); i++ {
		if last[i] < '0' || last[i] > '9' {
			return false
		}
	}
	return last != ""
}

// hostParseIPv4 parses the lenient IPv4 syntax browsers accept: one to four
// dot-separated numbers, each decimal, octal (leading "0") or hexadecimal
// (leading "0x"), where the last number fills the remaining bytes.
func hostParseIPv4(h string) (netip.Addr, bool) {
	parts := strings.Count(h, ".") + 1
	if parts > 4 {
		return netip.Addr{}, false
	}
	var addr uint64
	for i := 0; i < parts; i++ {
		part := h
		if j := strings.IndexByte(h, '.'); j >= 0 {
			part, h = h[:j], h[j+1:]
		}
		n, ok := hostParseIPv4Number(part)
		if !ok {
			return netip.Addr{}, false
		}
		if i < parts-1 {
			if n > 255 {
				return netip.Addr{}, false
			}
			addr |= n << (8 * (3 - i))
			continue
		}
		if n >= 1<<(8*(5-parts)) {
			return netip.Addr{}, false
		}
		addr |= n
	}
	return netip.AddrFrom4([4]byte{byte(addr >> 24), byte(addr >> 16), byte(addr >> 8), byte(addr)}), true
}

// hostParseIPv4Number parses one part of a lenient IPv4 address. Values that
// cannot fit in 32 bits are rejected.
func hostParseIPv4Number(s string) (uint64, bool) {
	base := uint64(10)
	switch {
	case strings.HasPrefix(s, "0x"):
		base, s = 16, s[2:]
	case len(s) > 1 && s[0] == '0':
		base, s = 8, s[1:]
	}
	var n uint64
	for i := 0; i < len(s); i++ {
		d := hostHexVal(s[i])
		if d < 0 || uint64(d) >= base {
			return 0, false
		}
		n = n*base + uint64(d)
		if n > 1<<32-1 {
			return 0, false
		}
	}
	return n, true
}

// hostHexVal returns the value of a lower-case hex digit, or -1.
func hostHexVal(c byte) int {
	switch {
	case '0' <= c && c <= '9':
		return int(c - '0')
	case 'a' <= c && c <= 'f':
		return int(c-'a') + 10
	}
	return -1
}

// urlMustEscape reports the bytes that are percent-encoded in paths and
// queries: space, controls, DEL and every byte of a non-ASCII character.
func urlMustEscape(c byte) bool {
	return c <= ' ' || c >= 0x7f
}

// urlAppendEscaped appends s to b with the bytes of urlMustEscape
// percent-encoded.
func urlAppendEscaped(b []byte, s string) []byte {
	const hex = "0123456789ABCDEF"
	for i := 0; i < len(s); i++ {
		c := s[i]
		if urlMustEscape(c) {
			b = append(b, '%', hex[c>>4], hex[c&15])
			continue
		}
		b = append(b, c)
	}
	return b
}

// urlEscape returns s with the bytes of urlMustEscape percent-encoded.
func urlEscape(s string) string {
	for i := 0; i < len(s); i++ {
		if urlMustEscape(s[i]) {
			return string(urlAppendEscaped(make([]byte, 0, len(s)+16), s))
		}
	}
	return s
}

// urlPathIsClean reports whether urlCleanPath would return p unchanged.
func urlPathIsClean(p string) bool {
	if p != "" && p[0] != '/' {
		return false
	}
	for i := 0; i < len(p); i++ {
		c := p[i]
		if urlMustEscape(c) {
			return false
		}
		if c != '/' {
			continue
		}
		seg := p[i+1:]
		if j := strings.IndexByte(seg, '/'); j >= 0 {
			seg = seg[:j]
		}
		if seg == "" || seg == "." || seg == ".." {
			return false
		}
	}
	return true
}

// urlCleanPath collapses runs of "/", resolves "." and ".." segments, drops
// a trailing "/" (so the root is "") and escapes bytes that are not allowed
// to stay raw. Existing percent-escapes are left alone.
func urlCleanPath(p string) string {
	if urlPathIsClean(p) {
		return p
	}
	buf := make([]byte, 0, len(p)+8)
	for seg := range strings.SplitSeq(p, "/") {
		switch seg {
		case "", ".":
			continue
		case "..":
			if i := bytes.LastIndexByte(buf, '/'); i >= 0 {
				buf = buf[:i]
			}
			continue
		}
		buf = append(buf, '/')
		buf = urlAppendEscaped(buf, seg)
	}
	return string(buf)
}

// urlIsTracking reports whether the query parameter param (key=value) only
// identifies a campaign or a click, never the resource: keys starting with
// "utm_", and fbclid, gclid, dclid, msclkid, mc_cid, mc_eid, _ga, _gl,
// igshid, yclid, ref_src and spm. Keys are matched without regard to case.
func urlIsTracking(param string) bool {
	key := param
	if i := strings.IndexByte(param, '='); i >= 0 {
		key = param[:i]
	}
	var names []string
	switch len(key) {
	case 0, 1, 2:
		return false
	case 3:
		names = []string{"_ga", "_gl", "spm"}
	case 5:
		names = []string{"gclid", "dclid", "yclid"}
	case 6:
		names = []string{"fbclid", "mc_cid", "mc_eid", "igshid"}
	case 7:
		names = []string{"msclkid", "ref_src"}
	}
	for _, name := range names {
		if strings.EqualFold(key, name) {
			return true
		}
	}
	return len(key) >= 4 && strings.EqualFold(key[:4], "utm_")
}

// urlCompareParams orders query parameters by key, then value, then their
// full text (which only separates "k" from "k=").
func urlCompareParams(a, b string) int {
	ka, va, _ := strings.Cut(a, "=")
	kb, vb, _ := strings.Cut(b, "=")
	if c := cmp.Compare(ka, kb); c != 0 {
		return c
	}
	if c := cmp.Compare(va, vb); c != 0 {
		return c
	}
	return cmp.Compare(a, b)
}

// urlQueryIsClean reports whether urlCleanQuery would return q unchanged.
func urlQueryIsClean(q string) bool {
	prev := ""
	for first := true; ; first = false {
		param := q
		i := strings.IndexByte(q, '&')
		if i >= 0 {
			param, q = q[:i], q[i+1:]
		}
		if param == "" || urlIsTracking(param) {
			return false
		}
		for j := 0; j < len(param); j++ {
			if urlMustEscape(param[j]) {
				return false
			}
		}
		if !first && urlCompareParams(prev, param) > 0 {
			return false
		}
		if i < 0 {
			return true
		}
		prev = param
	}
}

// urlCleanQuery escapes, filters and sorts the parameters of q.
func urlCleanQuery(q string) string {
	if q == "" || urlQueryIsClean(q) {
		return q
	}
	var stack [16]string
	params := stack[:0]
	size := 0
	for param := range strings.SplitSeq(q, "&") {
		if param == "" || urlIsTracking(param) {
			continue
		}
		param = urlEscape(param)
		params = append(params, param)
		size += len(param) + 1
	}
	if len(params) == 0 {
		return ""
	}
	slices.SortFunc(params, urlCompareParams)
	var b strings.Builder
	b.Grow(size - 1)
	for i, param := range params {
		if i > 0 {
			b.WriteByte('&')
		}
		b.WriteString(param)
	}
	return b.String()
}

// ExtractURLs returns the http:// and https:// URLs found in free text such
// as a shell command or a JSON document, as raw substrings of text, in order
// of first appearance and without duplicates. It returns nil when there are
// none, and at most 64 URLs.
//
// The scheme is matched without regard to case and wherever it occurs. A URL
// ends at whitespace, a control character, a quote (' " `), '<', '>' or a
// backslash. Sentence punctuation at its end (". , ; : ! ?") is not part of
// it, nor is a closing ')', ']' or '}' without a matching opener inside the
// URL, so "(see https://a.com/x)." gives "https://a.com/x" while
// "https://en.wikipedia.org/wiki/Foo_(bar)" is kept whole. Text after a URL's
// scheme up to its end belongs to that URL, including any further "http://".
// The work done is linear in the length of text.
func ExtractURLs(text string) []string {
	var out []string
	i := 0
	for len(out) < urlMaxExtract {
		j := strings.Index(text[i:], "://")
		if j < 0 {
			break
		}
		j += i
		start := -1
		switch {
		case j-5 >= i && strings.EqualFold(text[j-5:j], "https"):
			start = j - 5
		case j-4 >= i && strings.EqualFold(text[j-4:j], "http"):
			start = j - 4
		}
		body := j + 3
		if start < 0 {
			i = body
			continue
		}
		end := urlScanEnd(text, body)
		i = end
		found := urlTrimTail(text[start:end], body-start)
		if len(found) > body-start && !slices.Contains(out, found) {
			out = append(out, found)
		}
	}
	return out
}

// urlScanEnd returns the index at which a URL starting before i ends.
func urlScanEnd(text string, i int) int {
	for i < len(text) {
		c := text[i]
		if c < utf8.RuneSelf {
			if c <= ' ' || c == 0x7f || c == '"' || c == '\'' || c == '`' || c == '<' || c == '>' || c == '\\' {
				return i
			}
			i++
			continue
		}
		r, size := utf8.DecodeRuneInString(text[i:])
		if unicode.IsSpace(r) {
			return i
		}
		i += size
	}
	return i
}

// urlTrimTail removes trailing punctuation and unmatched closing brackets
// from s, never shortening it below keep bytes.
func urlTrimTail(s string, keep int) string {
	var opens, closes [3]int // (), [], {}
	for i := 0; i < len(s); i++ {
		switch s[i] {
		case '(':
			opens[0]++
		case ')':
			closes[0]++
		case '[':
			opens[1]++
		case ']':
			closes[1]++
		case '{':
			opens[2]++
		case '}':
			closes[2]++
		}
	}
	for len(s) > keep {
		k := -1
		switch s[len(s)-1] {
		case '.', ',', ';', ':', '!', '?':
			s = s[:len(s)-1]
			continue
		case ')':
			k = 0
		case ']':
			k = 1
		case '}':
			k = 2
		}
		if k < 0 || closes[k] <= opens[k] {
			break
		}
		closes[k]--
		s = s[:len(s)-1]
	}
	return s
}

// IsLocalHost reports whether host names this machine or a private network:
// "localhost" and its subdomains, loopback (127.0.0.0/8, ::1), unspecified
// (0.0.0.0, ::), private (10/8, 172.16/12, 192.168/16, fc00::/7) and
// link-local (169.254/16, fe80::/10) addresses, including IPv4-mapped IPv6
// forms of these. host is expected in the form of URL.Host; brackets around
// an IPv6 address, a zone and a trailing dot are also accepted. Names are not
// resolved, so any other name is not local.
func IsLocalHost(host string) bool {
	h := host
	if len(h) >= 2 && h[0] == '[' && h[len(h)-1] == ']' {
		h = h[1 : len(h)-1]
	}
	h = strings.TrimSuffix(h, ".")
	if h == "" {
		return false
	}
	const name = "localhost"
	if strings.EqualFold(h, name) {
		return true
	}
	if n := len(h) - len(name); n >= 2 && h[n-1] == '.' && strings.EqualFold(h[n:], name) {
		return true
	}
	if strings.IndexByte(h, ':') < 0 && !hostIsDigitsAndDots(h) {
		return false // neither IPv6 nor IPv4: spare ParseAddr its error
	}
	a, err := netip.ParseAddr(h)
	if err != nil {
		return false
	}
	a = a.Unmap()
	return a.IsLoopback() || a.IsUnspecified() || a.IsPrivate() || a.IsLinkLocalUnicast()
}

// SiteOf returns the registrable site of a host in the form of URL.Host: the
// public suffix plus one label as given by
// [publicsuffix.EffectiveTLDPlusOne], so "news.bbc.co.uk" gives "bbc.co.uk"
// and "user.github.io" gives itself. An IP address, a single-label host such
// as "localhost", and a host that is itself a public suffix ("co.uk") are
// their own site.
func SiteOf(host string) string {
	if host == "" || strings.IndexByte(host, ':') >= 0 || strings.IndexByte(host, '.') < 0 {
		return host
	}
	if hostEndsInDigits(host) {
		// A numeric last label is never a public suffix: the host is an
		// address.
		return host
	}
	site, err := publicsuffix.EffectiveTLDPlusOne(host)
	if err != nil {
		return host
	}
	return site
}
