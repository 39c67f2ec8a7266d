// Command openai-agent is a tool-calling agent with one bash tool, written
// with the official OpenAI Go SDK and guarded by loopbreaker: every tool call
// the model makes is checked by the breaker before it runs.
//
// With OPENAI_BASE_URL set, it talks to that OpenAI-compatible endpoint
// (with OPENAI_API_KEY, and the model named by OPENAI_MODEL) and really runs
// the model's commands with bash -c in the current directory:
//
//	OPENAI_BASE_URL=https://api.openai.com/v1 OPENAI_API_KEY=... go run . -task "..."
//
// Without it, it starts a scripted model on 127.0.0.1 that keeps asking for
// the same command, and runs nothing: the commands are only echoed. This
// shows the breaker's refusal reaching the model, offline:
//
//	go run .
package main

import (
	"context"
	"flag"
	"fmt"
	"io"
	"log"
	"net"
	"net/http"
	"os"
	"os/signal"
	"strings"
	"time"

	"github.com/loopbreaker/loopbreaker"
	"github.com/openai/openai-go/v3"
	"github.com/openai/openai-go/v3/option"
)

const defaultTask = "Find out whether the build in this directory has finished, and tell me its final status."

const systemPrompt = "You are a careful assistant working in a terminal. " +
	"Use the bash tool to inspect the current directory; do not change or delete anything."

func main() {
	task := flag.String("task", defaultTask, "the user's task for the agent")
	maxSteps := flag.Int("max-steps", 25, "the most model requests in one run")
	timeout := flag.Duration("timeout", 30*time.Second, "time limit of each command")
	flag.Parse()
	log.SetFlags(0)

	breaker, err := loopbreaker.New(loopbreaker.Config{})
	if err != nil {
		log.Fatal(err)
	}

	var client openai.Client
	var executor Executor
	if os.Getenv("OPENAI_BASE_URL") == "" {
		url, stop, err := serveScripted()
		if err != nil {
			log.Fatal(err)
		}
		defer stop()
		fmt.Printf("OPENAI_BASE_URL is not set: using the scripted model at %s; commands are echoed, not run.\n\n", url)
		client = openai.NewClient(option.WithBaseURL(url), option.WithAPIKey("scripted"))
		executor = echoExecutor
	} else {
		client = openai.NewClient() // reads OPENAI_BASE_URL and OPENAI_API_KEY
		executor = BashExecutor(*timeout)
	}

	ctx, cancel := signal.NotifyContext(context.Background(), os.Interrupt)
	defer cancel()
	t, err := Run(ctx, client, breaker, executor, *task, Options{
		Model:    os.Getenv("OPENAI_MODEL"),
		MaxSteps: *maxSteps,
		System:   systemPrompt,
	})
	printTrajectory(os.Stdout, t)
	if err != nil {
		log.Fatal(err)
	}
}

// serveScripted serves a ScriptedModel on a free loopback port and returns
// its base URL and a function that shuts it down.
func serveScripted() (string, func(), error) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return "", nil, err
	}
	srv := &http.Server{Handler: &ScriptedModel{}, ReadHeaderTimeout: 10 * time.Second}
	go srv.Serve(ln)
	return "http://" + ln.Addr().String() + "/v1", func() { srv.Close() }, nil
}

// echoExecutor stands in for bash when the model is scripted: nothing runs.
func echoExecutor(_ context.Context, command string) loopbreaker.Result {
	return loopbreaker.Result{Text: "(echo executor, not run) $ " + command}
}

// printTrajectory writes one block per tool call, then how the run ended.
func printTrajectory(w io.Writer, t *Trajectory) {
	for _, s := range t.Steps {
		fmt.Fprintf(w, "#%d %-5s %s: %s", s.Attempt, s.Verdict, s.Tool, s.Command)
		if s.Description != "" {
			fmt.Fprintf(w, "  # %s", s.Description)
		}
		fmt.Fprintln(w)
		fmt.Fprintln(w, indent(s.Output, 12))
	}
	fmt.Fprintf(w, "outcome: %s\n", t.Outcome)
	if t.Final != "" {
		fmt.Fprintf(w, "answer: %s\n", t.Final)
	}
}

// indent prefixes each line of s with a bar, keeping at most maxLines lines.
func indent(s string, maxLines int) string {
	lines := strings.Split(s, "\n")
	if len(lines) > maxLines {
		lines = append(lines[:maxLines], fmt.Sprintf("[%d more lines]", len(lines)-maxLines))
	}
	for i, l := range lines {
		lines[i] = strings.TrimRight("    | "+l, " ")
	}
	return strings.Join(lines, "\n")
}
