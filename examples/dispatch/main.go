// Command dispatch is a minimal agent dispatch loop guarded by loopbreaker.
//
// A scripted "model" keeps asking for the same download, disguised the way
// real models disguise it: a new description each time, a churning
// --max-time, and two spellings of the host. The breaker lets the first
// attempts through and denies the loop before the tool runs again.
//
//	go run ./examples/dispatch
package main

import (
	"fmt"
	"io"
	"log"
	"os"
	"strings"

	"github.com/loopbreaker/loopbreaker"
)

func main() {
	if err := run(os.Stdout); err != nil {
		log.Fatal(err)
	}
}

// run plays the scripted session and writes what happens to w.
func run(w io.Writer) error {
	breaker, err := loopbreaker.New(loopbreaker.Config{})
	if err != nil {
		return err
	}
	const agent = "main"
	breaker.UserTurn(agent) // the task prompt

	hosts := []string{"open-data.canada.ca", "open.canada.ca"}
	descriptions := []string{"1st", "2nd", "3rd", "4th", "5th", "6th"}
	for i, desc := range descriptions {
		command := fmt.Sprintf("curl -s --max-time %d https://%s/data/census.csv -o /workspace/census.csv", 30*(i+1), hosts[i%2])
		call := loopbreaker.Call{Tool: "bash", Args: map[string]any{"command": command, "description": desc}}

		d := breaker.Check(agent, call)
		fmt.Fprintf(w, "call %d: %s\n  -> %s\n", i+1, command, d.Verdict)
		switch d.Verdict {
		case loopbreaker.Allow:
			res := runTool(command)
			breaker.Record(agent, call, res)
		case loopbreaker.Deny, loopbreaker.Stop:
			// The tool never runs; the model receives the message instead.
			fmt.Fprintln(w, indent(d.Message))
		case loopbreaker.Ask:
			fmt.Fprintln(w, indent(d.Prompt))
			d = breaker.Resolve(agent, d, false) // nobody is there to approve
			fmt.Fprintf(w, "  -> %s after the operator declined\n", d.Verdict)
		}
	}
	return nil
}

// runTool stands in for the real shell: the download keeps failing the same
// way, which is what drives the model to retry.
func runTool(string) loopbreaker.Result {
	code := 22
	return loopbreaker.Result{Text: "curl: (22) The requested URL returned error: 404", IsError: true, ExitCode: &code}
}

func indent(s string) string {
	return "     | " + strings.ReplaceAll(s, "\n", "\n     | ")
}
