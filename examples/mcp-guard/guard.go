package main

import (
	"context"
	"fmt"
	"slices"
	"strings"
	"sync"
	"sync/atomic"

	"github.com/loopbreaker/loopbreaker"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// Guard returns receiving middleware for an MCP server that checks every
// tools/call with b before the tool's handler runs:
//
//	server.AddReceivingMiddleware(Guard(breaker))
//
// Each session is one agent: the agent id is the session id, or, for
// transports without one (the in-memory, stdio and SSE transports), an id
// of the connection that lasts as long as it does.
//
// A denied call never reaches the handler: the client receives
// CallToolResult{IsError: true} whose text is the breaker's message, starting
// with REPEAT_TOOL_BLOCKED, which the model reads as the tool's error. An MCP
// server cannot end the agent's turn, so a Stop is answered the same way, and
// as the server has no operator to ask, an Ask is resolved as declined. An
// allowed call runs and its result (text and IsError) is recorded, so that
// later denials can quote it.
//
// Requests other than tools/call pass through untouched, and so do the
// retries of a call that asked the client for input (they carry
// inputResponses or requestState): they finish a call that was already
// checked.
func Guard(b *loopbreaker.Breaker) mcp.Middleware {
	return GuardWith(b, sessionAgent(b))
}

// GuardWith is [Guard] with the agent of each call chosen by agentOf. Use it
// when one agent spans several sessions or one session serves several agents,
// for instance with a stateless HTTP handler, where every request is a
// session of its own; agentOf might then read a header from req.Extra.
func GuardWith(b *loopbreaker.Breaker, agentOf func(*mcp.CallToolRequest) string) mcp.Middleware {
	return func(next mcp.MethodHandler) mcp.MethodHandler {
		return func(ctx context.Context, method string, req mcp.Request) (mcp.Result, error) {
			call, ok := req.(*mcp.CallToolRequest)
			if method != "tools/call" || !ok || call.Params == nil || isRetry(call.Params) {
				return next(ctx, method, req)
			}
			agent := agentOf(call)
			c, err := loopbreaker.ParseCall(call.Params.Name, call.Params.Arguments)
			if err != nil {
				// Not an object: let the server reject the arguments as usual.
				return next(ctx, method, req)
			}

			d := b.Check(agent, c)
			if d.Verdict == loopbreaker.Ask {
				d = b.Resolve(agent, d, false) // no operator here: declined
			}
			if d.Verdict != loopbreaker.Allow {
				return &mcp.CallToolResult{
					IsError: true,
					Content: []mcp.Content{&mcp.TextContent{Text: d.Message}},
				}, nil
			}

			res, err := next(ctx, method, req)
			if err != nil {
				b.Record(agent, c, loopbreaker.Result{Text: err.Error(), IsError: true})
				return res, err
			}
			r, ok := res.(*mcp.CallToolResult)
			if !ok || r.NeedsInput() {
				return res, nil // not settled yet
			}
			b.Record(agent, c, loopbreaker.Result{Text: resultText(r), IsError: r.IsError})
			if d.Advice != "" {
				// Tell the model once that it is close to a limit.
				withAdvice := *r
				withAdvice.Content = append(slices.Clip(r.Content), &mcp.TextContent{Text: d.Advice})
				return &withAdvice, nil
			}
			return r, nil
		}
	}
}

// isRetry reports whether a call continues an earlier one that asked for
// input.
func isRetry(p *mcp.CallToolParamsRaw) bool {
	return len(p.InputResponses) > 0 || p.RequestState != ""
}

// resultText joins the text content of a result.
func resultText(r *mcp.CallToolResult) string {
	var parts []string
	for _, c := range r.Content {
		if t, ok := c.(*mcp.TextContent); ok {
			parts = append(parts, t.Text)
		}
	}
	return strings.Join(parts, "\n")
}

// connSeq numbers connections without a session id, across all guards, so
// that two guards sharing one breaker never share an agent by accident.
var connSeq atomic.Uint64

// sessionAgent returns the agent function of [Guard]: the session id when
// the transport has one, and otherwise "mcp-conn-N", an id given to the
// session on its first call and dropped, with the agent's state in b, when
// the session ends.
func sessionAgent(b *loopbreaker.Breaker) func(*mcp.CallToolRequest) string {
	var (
		mu  sync.Mutex
		ids = map[*mcp.ServerSession]string{}
	)
	return func(req *mcp.CallToolRequest) string {
		ss := req.Session
		if ss == nil {
			return ""
		}
		if id := ss.ID(); id != "" {
			return id
		}
		mu.Lock()
		defer mu.Unlock()
		if id, ok := ids[ss]; ok {
			return id
		}
		id := fmt.Sprintf("mcp-conn-%d", connSeq.Add(1))
		ids[ss] = id
		go func() {
			_ = ss.Wait()
			mu.Lock()
			delete(ids, ss)
			mu.Unlock()
			b.Forget(id)
		}()
		return id
	}
}
