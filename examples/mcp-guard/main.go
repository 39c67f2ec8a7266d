// Command mcp-guard shows loopbreaker guarding the tools of an MCP server
// written with the official MCP Go SDK.
//
// The server offers fetch_status and echo, with [Guard] installed as
// receiving middleware. An in-process client, connected over the SDK's
// in-memory transport, then behaves like a model polling a deployment: it
// calls fetch_status on the same URL again and again, giving a new reason
// each time. The breaker lets the first calls through and answers the
// repeat with a tool error instead of running the handler; a different call
// still goes through. Nothing leaves the process:
//
//	go run .
package main

import (
	"context"
	"encoding/json"
	"fmt"
	"log"
	"strings"
	"sync/atomic"

	"github.com/loopbreaker/loopbreaker"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// FetchStatusInput is the input of the fetch_status tool.
type FetchStatusInput struct {
	URL    string `json:"url" jsonschema:"the status endpoint to query"`
	Reason string `json:"reason,omitempty" jsonschema:"why the status is needed, for the log"`
}

// EchoInput is the input of the echo tool.
type EchoInput struct {
	Text string `json:"text" jsonschema:"the text to send back"`
}

// newServer returns the demo server. fetch_status is simulated: the
// deployment it reports on creeps forward and never finishes, which is what
// tempts a model to poll it in a loop.
func newServer() *mcp.Server {
	server := mcp.NewServer(&mcp.Implementation{Name: "status-server", Version: "v0.1.0"}, nil)
	var polls atomic.Int64
	mcp.AddTool(server, &mcp.Tool{Name: "fetch_status", Description: "Report the status of a deployment."},
		func(_ context.Context, _ *mcp.CallToolRequest, in FetchStatusInput) (*mcp.CallToolResult, any, error) {
			done := min(10*polls.Add(1), 90)
			return textResult(fmt.Sprintf("%s: deploying, %d%% done (simulated)", in.URL, done)), nil, nil
		})
	mcp.AddTool(server, &mcp.Tool{Name: "echo", Description: "Send the text back."},
		func(_ context.Context, _ *mcp.CallToolRequest, in EchoInput) (*mcp.CallToolResult, any, error) {
			return textResult(in.Text), nil, nil
		})
	return server
}

func textResult(text string) *mcp.CallToolResult {
	return &mcp.CallToolResult{Content: []mcp.Content{&mcp.TextContent{Text: text}}}
}

func main() {
	log.SetFlags(0)
	ctx := context.Background()

	breaker, err := loopbreaker.New(loopbreaker.Config{})
	if err != nil {
		log.Fatal(err)
	}
	server := newServer()
	server.AddReceivingMiddleware(Guard(breaker))

	serverTransport, clientTransport := mcp.NewInMemoryTransports()
	if _, err := server.Connect(ctx, serverTransport, nil); err != nil {
		log.Fatal(err)
	}
	client := mcp.NewClient(&mcp.Implementation{Name: "looping-client", Version: "v0.1.0"}, nil)
	session, err := client.Connect(ctx, clientTransport, nil)
	if err != nil {
		log.Fatal(err)
	}
	defer session.Close()

	const url = "https://deploy.example.com/api/status"
	reasons := []string{"check the deploy", "is it done yet", "poll again", "one more look", "surely done now", "last try"}
	for _, reason := range reasons {
		call(ctx, session, "fetch_status", map[string]any{"url": url, "reason": reason})
	}
	call(ctx, session, "echo", map[string]any{"text": "a different call is still allowed"})
}

// call calls a tool and prints what the client got back.
func call(ctx context.Context, session *mcp.ClientSession, tool string, args map[string]any) {
	res, err := session.CallTool(ctx, &mcp.CallToolParams{Name: tool, Arguments: args})
	if err != nil {
		log.Fatal(err)
	}
	status := "ok"
	if res.IsError {
		status = "tool error"
	}
	argsJSON, _ := json.Marshal(args)
	fmt.Printf("%s %s -> %s\n", tool, argsJSON, status)
	for _, c := range res.Content {
		if t, ok := c.(*mcp.TextContent); ok {
			fmt.Println("    | " + strings.ReplaceAll(t.Text, "\n", "\n    | "))
		}
	}
}
