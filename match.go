package loopbreaker

import "strings"

// toolPatterns matches tool names against Exclude or Include entries:
// case-insensitive, with * standing for any run of characters.
type toolPatterns []string

func compilePatterns(list []string) toolPatterns {
	out := make(toolPatterns, len(list))
	for i, p := range list {
		out[i] = strings.ToLower(p)
	}
	return out
}

func (ps toolPatterns) match(name string) bool {
	lower := strings.ToLower(name)
	for _, p := range ps {
		if wildcardMatch(p, lower) {
			return true
		}
	}
	return false
}

// wildcardMatch reports whether s matches pattern, where * matches any run of
// characters (including none) and every other character matches itself.
func wildcardMatch(pattern, s string) bool {
	star := strings.IndexByte(pattern, '*')
	if star < 0 {
		return pattern == s
	}
	if !strings.HasPrefix(s, pattern[:star]) {
		return false
	}
	s = s[star:]
	parts := strings.Split(pattern[star+1:], "*")
	last := len(parts) - 1
	for i, part := range parts {
		if i == last {
			return strings.HasSuffix(s, part)
		}
		j := strings.Index(s, part)
		if j < 0 {
			return false
		}
		s = s[j+len(part):]
	}
	return true
}
