package main

import (
	"context"
	"errors"
	"fmt"
	"os/exec"
	"strings"
	"time"

	"github.com/loopbreaker/loopbreaker"
	"github.com/openai/openai-go/v3"
)

// Executor runs one shell command and returns its settled result, with Text
// written the way the model should read it. Run uses it for the bash tool;
// tests swap in a fake so that no command ever runs.
type Executor func(ctx context.Context, command string) loopbreaker.Result

// maxOutput bounds the command output handed back to the model.
const maxOutput = 16 << 10

// BashExecutor runs commands with `bash -c`, stopping each one after timeout.
// The result text is the combined output, cut to 16 KiB, followed by the exit
// code or the timeout when the command did not succeed.
func BashExecutor(timeout time.Duration) Executor {
	return func(ctx context.Context, command string) loopbreaker.Result {
		ctx, cancel := context.WithTimeout(ctx, timeout)
		defer cancel()
		cmd := exec.CommandContext(ctx, "bash", "-c", command)
		cmd.WaitDelay = time.Second // do not wait for children that hold the pipes open
		out, err := cmd.CombinedOutput()
		text := strings.TrimRight(string(out), "\n")
		if len(text) > maxOutput {
			text = text[:maxOutput] + "\n[output truncated]"
		}

		var res loopbreaker.Result
		var exitErr *exec.ExitError
		switch {
		case errors.Is(ctx.Err(), context.DeadlineExceeded):
			res.TimedOut, res.IsError = true, true
			text += fmt.Sprintf("\n[timed out after %s]", timeout)
		case errors.As(err, &exitErr):
			code := exitErr.ExitCode()
			res.ExitCode, res.IsError = &code, true
			text += fmt.Sprintf("\n[exit code %d]", code)
		case err != nil:
			res.IsError = true
			text += "\n[could not run: " + err.Error() + "]"
		default:
			code := 0
			res.ExitCode = &code
		}
		res.Text = strings.TrimPrefix(text, "\n")
		if res.Text == "" {
			res.Text = "(no output)"
		}
		return res
	}
}

// bashTool declares the one tool the agent offers the model.
var bashTool = openai.ChatCompletionFunctionTool(openai.FunctionDefinitionParam{
	Name:        "bash",
	Description: openai.String("Run a shell command with bash -c and return its combined output."),
	Parameters: openai.FunctionParameters{
		"type": "object",
		"properties": map[string]any{
			"command":     map[string]any{"type": "string", "description": "The command line to run."},
			"description": map[string]any{"type": "string", "description": "A few words on what the command is for."},
		},
		"required":             []string{"command", "description"},
		"additionalProperties": false,
	},
})

// Options tunes Run. The zero Options is usable.
type Options struct {
	// Model is the model name sent to the endpoint; empty means DefaultModel.
	Model string
	// AgentID names the agent to the breaker; empty means "agent".
	AgentID string
	// MaxSteps bounds the number of model requests; 0 means 25.
	MaxSteps int
	// System is an optional system prompt.
	System string
}

// DefaultModel is the model Run asks for when Options.Model is empty.
const DefaultModel = openai.ChatModelGPT5Mini

// Outcome says how a run ended.
type Outcome string

const (
	// Finished: the model answered without asking for a tool.
	Finished Outcome = "finished"
	// Stopped: the breaker stopped the run; it did not finish.
	Stopped Outcome = "stopped"
	// OutOfSteps: the run hit Options.MaxSteps.
	OutOfSteps Outcome = "max steps reached"
	// Failed: the endpoint failed; Run returns the error.
	Failed Outcome = "failed"
)

// Step is one tool call the model asked for and what became of it.
type Step struct {
	// Attempt numbers the tool calls of the run from 1.
	Attempt     int
	Tool        string
	Command     string
	Description string
	// Verdict is the breaker's final verdict (after Resolve for an Ask).
	Verdict loopbreaker.Verdict
	// Executed reports that the executor ran the command.
	Executed bool
	// Output is the tool result the model received.
	Output string
}

// Trajectory is the record of one run.
type Trajectory struct {
	Steps   []Step
	Outcome Outcome
	// Final is the model's last answer when the run finished.
	Final string
}

// Run gives the model task as a user message and runs the tool-calling loop:
// every tool call goes through the breaker before it is dispatched, allowed
// calls run on executor and are recorded, denied calls come back to the model as
// their tool result, and a Stop ends the run. It returns the trajectory so
// far together with any error from the endpoint.
func Run(ctx context.Context, client openai.Client, breaker *loopbreaker.Breaker, executor Executor, task string, opts Options) (*Trajectory, error) {
	if opts.Model == "" {
		opts.Model = DefaultModel
	}
	if opts.AgentID == "" {
		opts.AgentID = "agent"
	}
	if opts.MaxSteps == 0 {
		opts.MaxSteps = 25
	}

	var messages []openai.ChatCompletionMessageParamUnion
	if opts.System != "" {
		messages = append(messages, openai.SystemMessage(opts.System))
	}
	messages = append(messages, openai.UserMessage(task))
	breaker.UserTurn(opts.AgentID) // a real user message starts a new turn

	t := &Trajectory{}
	for range opts.MaxSteps {
		completion, err := client.Chat.Completions.New(ctx, openai.ChatCompletionNewParams{
			Model:    opts.Model,
			Messages: messages,
			Tools:    []openai.ChatCompletionToolUnionParam{bashTool},
		})
		if err != nil {
			t.Outcome = Failed
			return t, err
		}
		if len(completion.Choices) == 0 {
			t.Outcome = Failed
			return t, errors.New("the endpoint returned no choices")
		}
		msg := completion.Choices[0].Message
		messages = append(messages, msg.ToParam())
		if len(msg.ToolCalls) == 0 {
			t.Outcome, t.Final = Finished, msg.Content
			return t, nil
		}
		for _, tc := range msg.ToolCalls {
			step := dispatch(ctx, breaker, executor, opts.AgentID, tc)
			step.Attempt = len(t.Steps) + 1
			t.Steps = append(t.Steps, step)
			if step.Verdict == loopbreaker.Stop {
				t.Outcome = Stopped
				return t, nil
			}
			messages = append(messages, openai.ToolMessage(step.Output, tc.ID))
		}
	}
	t.Outcome = OutOfSteps
	return t, nil
}

// dispatch checks one tool call with the breaker and, if it is allowed, runs
// it. Every call is checked, even a malformed one, so that a model repeating
// the same broken call is stopped too.
func dispatch(ctx context.Context, breaker *loopbreaker.Breaker, executor Executor, agent string, tc openai.ChatCompletionMessageToolCallUnion) Step {
	call, err := loopbreaker.ParseCall(tc.Function.Name, []byte(tc.Function.Arguments))
	if err != nil {
		call = loopbreaker.Call{Tool: tc.Function.Name, Args: map[string]any{"arguments": tc.Function.Arguments}}
	}
	command, _ := call.Args["command"].(string)
	description, _ := call.Args["description"].(string)
	step := Step{Tool: call.Tool, Command: command, Description: description}

	d := breaker.Check(agent, call)
	if d.Verdict == loopbreaker.Ask {
		// Nobody is there to answer: an unanswered question is a no.
		d = breaker.Resolve(agent, d, false)
	}
	step.Verdict = d.Verdict
	if d.Verdict != loopbreaker.Allow {
		step.Output = d.Message // the model reads the refusal as the tool's result
		return step
	}

	var res loopbreaker.Result
	switch {
	case tc.Type != "function" || call.Tool != "bash":
		res = loopbreaker.Result{Text: fmt.Sprintf("error: unknown tool %q; the only tool is bash", call.Tool), IsError: true}
	case err != nil:
		res = loopbreaker.Result{Text: "error: the arguments are not a JSON object: " + err.Error(), IsError: true}
	case command == "":
		res = loopbreaker.Result{Text: "error: the command argument is missing or empty", IsError: true}
	default:
		res = executor(ctx, command)
		step.Executed = true
	}
	breaker.Record(agent, call, res)

	step.Output = res.Text
	if d.Advice != "" {
		step.Output += "\n\n" + d.Advice
	}
	return step
}
