package loopbreaker

import (
	"encoding/json"
	"fmt"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"
)

// A restored agent is denied at the same call as one that never stopped.
func TestSnapshotRestoreKeepsTheBudget(t *testing.T) {
	calls := []Call{
		cmd("curl -s https://open-data.canada.ca/x -o od.bin"),
		cmd("ls"),
		cmd("curl -s https://open.canada.ca/x -o od.bin"),
		cmd("python check.py"),
		cmd("curl -s --max-time 9 https://open.canada.ca/x -o od.bin"),
		cmd("curl -s https://open-data.canada.ca/x/ -o od.bin"),
		cmd("curl -s https://open.canada.ca/x -o od.bin"),
	}
	for cut := range len(calls) {
		steady, err := New(Config{})
		require.NoError(t, err)
		first, err := New(Config{})
		require.NoError(t, err)
		var want, got []Verdict
		for i, c := range calls {
			d := steady.Check("A", c)
			want = append(want, d.Verdict)
			if d.Verdict == Allow {
				steady.Record("A", c, Result{Text: fmt.Sprint("result ", i)})
			}
		}
		for i, c := range calls[:cut] {
			d := first.Check("A", c)
			got = append(got, d.Verdict)
			if d.Verdict == Allow {
				first.Record("A", c, Result{Text: fmt.Sprint("result ", i)})
			}
		}
		data, err := first.Snapshot("A")
		require.NoError(t, err)
		second, err := New(Config{}) // another process
		require.NoError(t, err)
		require.NoError(t, second.Restore("A", data))
		for i, c := range calls[cut:] {
			d := second.Check("A", c)
			got = append(got, d.Verdict)
			if d.Verdict == Allow {
				second.Record("A", c, Result{Text: fmt.Sprint("result ", cut+i)})
			}
		}
		require.Equal(t, want, got, "cut after %d calls", cut)
		require.Contains(t, want, Deny)
	}
}

func TestSnapshotRoundTrip(t *testing.T) {
	b, err := New(Config{})
	require.NoError(t, err)
	empty, err := b.Snapshot("nobody")
	require.NoError(t, err)
	require.JSONEq(t, `{"version":1,"window":12,"calls":[]}`, string(empty))

	for i := range 15 {
		c := cmd(fmt.Sprint("echo ", i%4))
		b.Check("A", c)
		b.Record("A", c, Result{Text: fmt.Sprint("out <", i), IsError: i%2 == 0})
	}
	data, err := b.Snapshot("A")
	require.NoError(t, err)
	other, err := New(Config{})
	require.NoError(t, err)
	require.NoError(t, other.Restore("B", data))
	again, err := other.Snapshot("B")
	require.NoError(t, err)
	require.JSONEq(t, string(data), string(again))
}

func TestRestoreErrors(t *testing.T) {
	b, err := New(Config{})
	require.NoError(t, err)
	good, err := b.Snapshot("x")
	require.NoError(t, err)
	key := strings.Repeat("0", 15) + "1"
	cases := map[string]string{
		"version 2 is not supported":  `{"version":2,"window":12,"calls":[]}`,
		"window of 8 calls":           `{"version":1,"window":8,"calls":[]}`,
		"unknown field":               `{"version":1,"window":12,"calls":[],"more":1}`,
		"want 16 hexadecimal digits":  `{"version":1,"window":12,"calls":[{"keys":["xyz"]}]}`,
		"flags must be a number":      `{"version":1,"window":12,"calls":[{"keys":["` + key + `/0"]}]}`,
		"do not fit a window":         `{"version":1,"window":12,"calls":[` + strings.Repeat(`{"keys":[]},`, 12) + `{"keys":[]}]}`,
		"history[0].subject":          `{"version":1,"window":12,"calls":[],"history":[{"observe":"` + key + `","verb":"` + key + `","subject":"1","result":"` + key + `"}]}`,
		"denials: must be >= 0":       `{"version":1,"window":12,"calls":[],"denials":-1}`,
		"unexpected data":             string(good) + ` {}`,
		"snapshot: unexpected EOF":    `{"version":1`,
		"cannot unmarshal":            `[]`,
		"snapshot: invalid character": `nonsense`,
	}
	for want, data := range cases {
		err := b.Restore("A", []byte(data))
		require.ErrorContains(t, err, want, data)
		require.True(t, strings.HasPrefix(err.Error(), "loopbreaker: snapshot:"), err.Error())
	}
	require.Zero(t, b.Stats().Agents, "a failed restore creates no agent")
}

func FuzzRestore(f *testing.F) {
	b, err := New(Config{})
	if err != nil {
		f.Fatal(err)
	}
	for i := range 8 {
		c := cmd(fmt.Sprint("curl https://a.example.com/", i%3))
		b.Check("A", c)
		b.Record("A", c, Result{Text: fmt.Sprint(i), IsError: i%2 == 1})
	}
	seed, err := b.Snapshot("A")
	if err != nil {
		f.Fatal(err)
	}
	f.Add(seed)
	f.Add([]byte(`{"version":1,"window":12,"calls":[]}`))
	f.Fuzz(func(t *testing.T, data []byte) {
		r, err := New(Config{})
		if err != nil {
			t.Fatal(err)
		}
		if err := r.Restore("A", data); err != nil {
			return
		}
		out, err := r.Snapshot("A")
		if err != nil {
			t.Fatal(err)
		}
		var v map[string]any
		if err := json.Unmarshal(out, &v); err != nil {
			t.Fatal(err)
		}
		r2, _ := New(Config{})
		if err := r2.Restore("A", out); err != nil {
			t.Fatalf("a snapshot of a restored agent does not restore: %v", err)
		}
		r.Check("A", cmd("curl https://a.example.com/0"))
	})
}
