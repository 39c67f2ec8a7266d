package main

import (
	"encoding/json"
	"fmt"
	"net/http"
	"strings"
	"sync"
	"time"

	"github.com/loopbreaker/loopbreaker"
)

// DefaultScriptedCommand is the command the scripted model keeps asking for.
const DefaultScriptedCommand = "tail -n 20 build.log"

// GiveUpAnswer is the scripted model's last answer, once it has been refused.
const GiveUpAnswer = "I was blocked from repeating the call; stopping."

// ScriptedModel is an OpenAI-compatible chat-completions endpoint that plays
// a model stuck in a loop. It answers every POST /chat/completions (or
// /v1/chat/completions) with the same bash tool call, changing only the
// description the way real models do, until the last message it receives is
// a tool result carrying loopbreaker.BlockedPrefix; then it gives up with a
// plain assistant message. Replies are non-streaming JSON.
//
// It decides from the conversation alone, so one ScriptedModel can serve
// any number of runs, and it keeps every request it received for tests.
type ScriptedModel struct {
	// Command is the command it asks for; empty means DefaultScriptedCommand.
	Command string
	// Patience is the number of refusals it takes before it gives up; 0
	// means 1. A patient model lets tests reach the breaker's Stop.
	Patience int

	mu       sync.Mutex
	received []ChatRequest
}

// ChatRequest is the part of a chat-completions request the scripted model
// reads.
type ChatRequest struct {
	Model    string        `json:"model"`
	Messages []ChatMessage `json:"messages"`
	Tools    []ToolSpec    `json:"tools"`
	Stream   bool          `json:"stream"`
}

// ChatMessage is one message of a request.
type ChatMessage struct {
	Role string `json:"role"`
	// Content is a string or an array of content parts.
	Content    json.RawMessage `json:"content"`
	ToolCallID string          `json:"tool_call_id"`
	ToolCalls  []ToolCall      `json:"tool_calls"`
}

// Text returns the message's text: the content string, or its text parts
// joined.
func (m ChatMessage) Text() string {
	var s string
	if json.Unmarshal(m.Content, &s) == nil {
		return s
	}
	var parts []struct {
		Text string `json:"text"`
	}
	_ = json.Unmarshal(m.Content, &parts)
	var sb strings.Builder
	for _, p := range parts {
		sb.WriteString(p.Text)
	}
	return sb.String()
}

// ToolSpec is a tool offered in a request.
type ToolSpec struct {
	Type     string `json:"type"`
	Function struct {
		Name       string         `json:"name"`
		Parameters map[string]any `json:"parameters"`
	} `json:"function"`
}

// ToolCall is a function call of an assistant message, in requests and in
// the scripted model's replies.
type ToolCall struct {
	ID       string `json:"id"`
	Type     string `json:"type"`
	Function struct {
		Name      string `json:"name"`
		Arguments string `json:"arguments"`
	} `json:"function"`
}

// Received returns a copy of the requests served so far, oldest first.
func (s *ScriptedModel) Received() []ChatRequest {
	s.mu.Lock()
	defer s.mu.Unlock()
	return append([]ChatRequest(nil), s.received...)
}

// ServeHTTP implements http.Handler.
func (s *ScriptedModel) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	if r.URL.Path != "/chat/completions" && r.URL.Path != "/v1/chat/completions" {
		writeError(w, http.StatusNotFound, "the scripted model only serves POST /chat/completions")
		return
	}
	if r.Method != http.MethodPost {
		writeError(w, http.StatusMethodNotAllowed, "use POST")
		return
	}
	var req ChatRequest
	if err := json.NewDecoder(http.MaxBytesReader(w, r.Body, 8<<20)).Decode(&req); err != nil {
		writeError(w, http.StatusBadRequest, "invalid request body: "+err.Error())
		return
	}
	if len(req.Messages) == 0 {
		writeError(w, http.StatusBadRequest, "messages must not be empty")
		return
	}
	if req.Stream {
		writeError(w, http.StatusBadRequest, "the scripted model does not stream")
		return
	}
	s.mu.Lock()
	s.received = append(s.received, req)
	n := len(s.received)
	s.mu.Unlock()

	msg, finish := s.reply(req.Messages)
	w.Header().Set("Content-Type", "application/json")
	_ = json.NewEncoder(w).Encode(completion{
		ID:      fmt.Sprintf("chatcmpl-scripted-%d", n),
		Object:  "chat.completion",
		Created: time.Now().Unix(),
		Model:   req.Model,
		Choices: []choice{{Message: msg, FinishReason: finish}},
	})
}

// reply is the scripted model's next move: another tool call, or giving up
// when the last message refused the previous one. messages is not empty.
func (s *ScriptedModel) reply(messages []ChatMessage) (replyMessage, string) {
	attempt, refusals := 1, 0
	for _, m := range messages {
		if m.Role == "tool" {
			attempt++
			if strings.Contains(m.Text(), loopbreaker.BlockedPrefix) {
				refusals++
			}
		}
	}
	last := messages[len(messages)-1]
	if last.Role == "tool" && strings.Contains(last.Text(), loopbreaker.BlockedPrefix) && refusals >= max(s.Patience, 1) {
		answer := GiveUpAnswer
		return replyMessage{Role: "assistant", Content: &answer}, "stop"
	}

	command := s.Command
	if command == "" {
		command = DefaultScriptedCommand
	}
	args, _ := json.Marshal(map[string]string{
		"command":     command,
		"description": fmt.Sprintf("%s (attempt %d)", descriptions[(attempt-1)%len(descriptions)], attempt),
	})
	var call ToolCall
	call.ID = fmt.Sprintf("call_%d", attempt)
	call.Type = "function"
	call.Function.Name = "bash"
	call.Function.Arguments = string(args)
	return replyMessage{Role: "assistant", ToolCalls: []ToolCall{call}}, "tool_calls"
}

// descriptions are the scripted model's excuses for running the command again.
var descriptions = []string{
	"Check whether the build has finished",
	"Look at the end of the build log again",
	"See if the build is done yet",
	"Re-read the build log for the final status",
}

// completion is a chat-completions response in the OpenAI shape.
type completion struct {
	ID      string   `json:"id"`
	Object  string   `json:"object"`
	Created int64    `json:"created"`
	Model   string   `json:"model"`
	Choices []choice `json:"choices"`
	Usage   struct {
		PromptTokens     int `json:"prompt_tokens"`
		CompletionTokens int `json:"completion_tokens"`
		TotalTokens      int `json:"total_tokens"`
	} `json:"usage"`
}

type choice struct {
	Index        int          `json:"index"`
	Message      replyMessage `json:"message"`
	FinishReason string       `json:"finish_reason"`
	Logprobs     *struct{}    `json:"logprobs"` // always null
}

type replyMessage struct {
	Role      string     `json:"role"`
	Content   *string    `json:"content"` // null when the reply is a tool call
	Refusal   *string    `json:"refusal"` // always null
	ToolCalls []ToolCall `json:"tool_calls,omitempty"`
}

// writeError answers with an error in the OpenAI shape.
func writeError(w http.ResponseWriter, status int, message string) {
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(status)
	var body struct {
		Error struct {
			Message string `json:"message"`
			Type    string `json:"type"`
		} `json:"error"`
	}
	body.Error.Message, body.Error.Type = message, "invalid_request_error"
	_ = json.NewEncoder(w).Encode(body)
}
