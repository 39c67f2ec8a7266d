package fingerprint_test

import (
	"fmt"

	"github.com/loopbreaker/loopbreaker/fingerprint"
)

func ExampleAnalyzer_Analyze() {
	a := fingerprint.New(fingerprint.Options{
		ShellTools: []string{"bash"},
		IgnoreArgs: map[string][]string{"*": {"description"}},
	})
	args := map[string]any{
		"command":     "curl -s --max-time 60 https://www.example.com/report.csv -o report.csv",
		"description": "Download the report",
	}
	an := a.Analyze("bash", args)
	for _, p := range an.Prints {
		if p.Kind == fingerprint.Exact {
			// The exact: text is written only on demand.
			fmt.Println(a.ExactText("bash", args, 0))
			continue
		}
		fmt.Println(p.Text)
	}
	// Output:
	// exact:bash:{"command":"curl -s --max-time 60 https://www.example.com/report.csv -o report.csv"}
	// cmd:curl https://www.example.com/report.csv -o report.csv
	// net:example.com/report.csv
	// site:example.com
	// sink:report.csv
	// family:http-fetch
	// verb:curl
}
