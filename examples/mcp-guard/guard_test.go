package main

import (
	"context"
	"fmt"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/loopbreaker/loopbreaker"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// countingServer is a server whose fetch_status handler counts its calls.
type countingServer struct {
	*mcp.Server
	fetches atomic.Int64
}

func newCountingServer(guard mcp.Middleware) *countingServer {
	s := &countingServer{Server: mcp.NewServer(&mcp.Implementation{Name: "test-server", Version: "v0.0.1"}, nil)}
	mcp.AddTool(s.Server, &mcp.Tool{Name: "fetch_status"},
		func(_ context.Context, _ *mcp.CallToolRequest, in FetchStatusInput) (*mcp.CallToolResult, any, error) {
			// The answer changes from call to call, as a real status does.
			n := s.fetches.Add(1)
			return textResult(fmt.Sprintf("%s: deploying, check %d", in.URL, n)), nil, nil
		})
	mcp.AddTool(s.Server, &mcp.Tool{Name: "echo"},
		func(_ context.Context, _ *mcp.CallToolRequest, in EchoInput) (*mcp.CallToolResult, any, error) {
			return textResult(in.Text), nil, nil
		})
	s.AddReceivingMiddleware(guard)
	return s
}

// connect connects a real SDK client to server over the in-memory transport.
func connect(t *testing.T, server *mcp.Server) *mcp.ClientSession {
	t.Helper()
	serverTransport, clientTransport := mcp.NewInMemoryTransports()
	if _, err := server.Connect(t.Context(), serverTransport, nil); err != nil {
		t.Fatal(err)
	}
	client := mcp.NewClient(&mcp.Implementation{Name: "test-client", Version: "v0.0.1"}, nil)
	session, err := client.Connect(t.Context(), clientTransport, nil)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { session.Close() })
	return session
}

func newBreaker(t *testing.T) *loopbreaker.Breaker {
	t.Helper()
	b, err := loopbreaker.New(loopbreaker.Config{})
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// limit is the breaker's default cap on one exact call or URL.
var limit = loopbreaker.DefaultConfig().Limits["exact"]

const statusURL = "https://deploy.example.com/api/status"

func fetch(t *testing.T, session *mcp.ClientSession, url, reason string) *mcp.CallToolResult {
	t.Helper()
	res, err := session.CallTool(t.Context(), &mcp.CallToolParams{
		Name:      "fetch_status",
		Arguments: map[string]any{"url": url, "reason": reason},
	})
	if err != nil {
		t.Fatal(err)
	}
	return res
}

func text(res *mcp.CallToolResult) string {
	var sb strings.Builder
	for _, c := range res.Content {
		if t, ok := c.(*mcp.TextContent); ok {
			sb.WriteString(t.Text)
		}
	}
	return sb.String()
}

func TestRepeatedCallIsDeniedWithoutRunningTheHandler(t *testing.T) {
	server := newCountingServer(Guard(newBreaker(t)))
	session := connect(t, server.Server)

	// The reason changes every time, which does not make a new call.
	for i := 1; i < limit; i++ {
		if res := fetch(t, session, statusURL, fmt.Sprintf("poll %d", i)); res.IsError {
			t.Fatalf("call %d was refused: %s", i, text(res))
		}
	}
	if n := server.fetches.Load(); n != int64(limit-1) {
		t.Fatalf("handler ran %d times, want %d", n, limit-1)
	}

	res := fetch(t, session, statusURL, fmt.Sprintf("poll %d", limit))
	if !res.IsError || !strings.HasPrefix(text(res), loopbreaker.BlockedPrefix) {
		t.Fatalf("call %d: IsError %v, text %q; want a tool error starting with %s",
			limit, res.IsError, text(res), loopbreaker.BlockedPrefix)
	}
	if n := server.fetches.Load(); n != int64(limit-1) {
		t.Errorf("handler ran on the denied call: %d runs, want %d", n, limit-1)
	}
	// Record worked: the denial quotes what the handler returned.
	if !strings.Contains(text(res), fmt.Sprintf("%s: deploying, check %d", statusURL, limit-1)) {
		t.Errorf("denial does not quote the previous result: %q", text(res))
	}

	// A different call is still allowed, and so is another tool.
	if res := fetch(t, session, "https://deploy.example.com/api/health", "different"); res.IsError {
		t.Errorf("a different URL was refused: %s", text(res))
	}
	if n := server.fetches.Load(); n != int64(limit) {
		t.Errorf("handler ran %d times after the different call, want %d", n, limit)
	}
	echo, err := session.CallTool(t.Context(), &mcp.CallToolParams{Name: "echo", Arguments: map[string]any{"text": "hi"}})
	if err != nil || echo.IsError || text(echo) != "hi" {
		t.Errorf("echo: %v, %+v", err, echo)
	}
}

func TestConnectionsAreSeparateAgents(t *testing.T) {
	var mu sync.Mutex
	var agents []string // the agent of every decision, in order
	breaker, err := loopbreaker.New(loopbreaker.Config{OnDecision: func(e loopbreaker.Event) {
		mu.Lock()
		defer mu.Unlock()
		agents = append(agents, e.Agent)
	}})
	if err != nil {
		t.Fatal(err)
	}
	server := newCountingServer(Guard(breaker))
	first, second := connect(t, server.Server), connect(t, server.Server)

	for range limit - 1 {
		fetch(t, first, statusURL, "")
	}
	if res := fetch(t, first, statusURL, ""); !res.IsError {
		t.Fatal("the first connection's repeat was allowed")
	}
	if res := fetch(t, second, statusURL, ""); res.IsError {
		t.Errorf("the second connection inherited the first one's window: %s", text(res))
	}

	// The in-memory transport has no session id: each connection gets one
	// id of its own, kept for all its calls.
	mu.Lock()
	defer mu.Unlock()
	a, b := agents[0], agents[len(agents)-1]
	if !strings.HasPrefix(a, "mcp-conn-") || !strings.HasPrefix(b, "mcp-conn-") || a == b {
		t.Errorf("agents %q and %q; want two distinct connection ids", a, b)
	}
	for _, id := range agents[:limit] {
		if id != a {
			t.Errorf("the first connection's calls went to agents %q", agents[:limit])
			break
		}
	}
}

func TestAgentIsForgottenWhenTheConnectionEnds(t *testing.T) {
	breaker := newBreaker(t)
	server := newCountingServer(Guard(breaker))
	session := connect(t, server.Server)
	fetch(t, session, statusURL, "")
	if n := breaker.Stats().Agents; n != 1 {
		t.Fatalf("breaker holds %d agents, want 1", n)
	}
	session.Close()
	deadline := time.Now().Add(5 * time.Second)
	for breaker.Stats().Agents != 0 {
		if time.Now().After(deadline) {
			t.Fatal("the agent of a closed connection was not forgotten")
		}
		time.Sleep(5 * time.Millisecond)
	}
}

func TestGuardWithSharesAnAgentAcrossConnections(t *testing.T) {
	one := func(*mcp.CallToolRequest) string { return "the-agent" }
	server := newCountingServer(GuardWith(newBreaker(t), one))
	first, second := connect(t, server.Server), connect(t, server.Server)

	for range limit - 1 {
		fetch(t, first, statusURL, "")
	}
	if res := fetch(t, second, statusURL, ""); !res.IsError {
		t.Error("one agent on two connections escaped the breaker")
	}
	if n := server.fetches.Load(); n != int64(limit-1) {
		t.Errorf("handler ran %d times, want %d", n, limit-1)
	}
}

func TestOtherRequestsPassThrough(t *testing.T) {
	server := newCountingServer(Guard(newBreaker(t)))
	session := connect(t, server.Server)
	for range limit + 1 {
		res, err := session.ListTools(t.Context(), nil)
		if err != nil || len(res.Tools) != 2 {
			t.Fatalf("tools/list: %v, %+v", err, res)
		}
	}
}
