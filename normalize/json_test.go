package normalize

import (
	"encoding/json"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/stretchr/testify/require"
)

func canon(v any, skip func(string) bool) string {
	return string(AppendCanonical(nil, v, skip))
}

func TestAppendCanonical(t *testing.T) {
	check := func(t *testing.T, in any, want string) {
		t.Helper()
		require.Equal(t, want, canon(in, nil))
	}
	check(t, nil, "null")
	check(t, map[string]any{"b": 1.0, "a": []any{"x", true, nil}}, `{"a":["x",true,null],"b":1}`)
	check(t, map[string]any{"z": map[string]any{"y": 1.5, "x": json.Number("10000000000000001")}}, `{"z":{"x":10000000000000001,"y":1.5}}`)
	check(t, "a\"b\\c\n\x01<", `"a\"b\\c\n\u0001<"`)
	check(t, "bad\xffutf8", "\"bad\ufffdutf8\"")
	check(t, []string{"a", "b"}, `["a","b"]`)
	check(t, map[string]string{"b": "1", "a": "2"}, `{"a":"2","b":"1"}`)
	check(t, map[int]string{1: "x"}, `"map[int]string"`)
	check(t, int8(-3), `-3`)
	check(t, uint(7), `7`)
	check(t, float32(0.5), `0.5`)
	check(t, 1e300, `1e+300`)
	check(t, json.Number("not a number"), `"not a number"`)
	check(t, struct{}{}, `"<struct {}>"`)
	x := 3
	check(t, &x, `3`)
}

func TestAppendCanonicalKeyOrderDoesNotMatter(t *testing.T) {
	var a, b map[string]any
	require.NoError(t, json.Unmarshal([]byte(`{"x":{"b":[1,{"d":1,"c":2}],"a":"s"},"w":null}`), &a))
	require.NoError(t, json.Unmarshal([]byte(`{"w":null,"x":{"a":"s","b":[1,{"c":2,"d":1}]}}`), &b))
	require.Equal(t, canon(a, nil), canon(b, nil))
}

func TestAppendCanonicalSkipsTopLevelKeysOnly(t *testing.T) {
	args := map[string]any{"command": "ls", "description": "1st", "nested": map[string]any{"description": "kept"}}
	skip := func(k string) bool { return k == "description" }
	require.Equal(t, `{"command":"ls","nested":{"description":"kept"}}`, canon(args, skip))
}

func TestAppendCanonicalBoundsHostileValues(t *testing.T) {
	self := map[string]any{"a": 1}
	self["self"] = self
	self["again"] = self
	require.Equal(t, `{"a":1,"again":"…","self":"…"}`, canon(self, nil))

	list := []any{1}
	list = append(list, nil)
	list[1] = list
	require.Equal(t, `[1,"…"]`, canon(list, nil))

	// A value that shares one sub-value at every level doubles at each
	// level; the node budget cuts it short.
	shared := map[string]any{"leaf": "x"}
	for range 40 {
		shared = map[string]any{"l": shared, "r": shared}
	}
	out := canon(shared, nil)
	require.Less(t, len(out), 4*MaxNodes*8)
	require.Contains(t, out, "…")

	deep := any("leaf")
	for range 10_000 {
		deep = map[string]any{"k": deep}
	}
	out = canon(deep, nil)
	require.Equal(t, MaxDepth+1, strings.Count(out, "{"))
}

func TestAppendCanonicalLimit(t *testing.T) {
	big := map[string]any{"a": strings.Repeat("x", 1000), "b": []any{1, 2, 3}, "c": "é" + strings.Repeat("é", 100)}
	out := string(AppendCanonicalLimit(nil, big, nil, 50))
	require.Less(t, len(out), 200)
	require.True(t, strings.HasPrefix(out, `{"a":"xxxx`))
	require.Contains(t, out, "…")
	require.True(t, utf8.ValidString(out))
	require.Equal(t, canon(big, nil), string(AppendCanonicalLimit(nil, big, nil, 1<<20)))
}
