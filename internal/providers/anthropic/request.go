package anthropic

import (
	"encoding/base64"
	"encoding/json"
	"fmt"
	"regexp"
	"strconv"
	"strings"

	sdk "github.com/anthropics/anthropic-sdk-go/v2"
	"github.com/anthropics/anthropic-sdk-go/v2/option"

	"github.com/zero-agent/zero/internal/llm"
	"github.com/zero-agent/zero/internal/llm/schema"
)

// Thinking budgets (tokens) for Request.ReasoningEffort when budget-based
// thinking is used. The API requires 1024 <= budget_tokens < max_tokens.
var thinkingBudget = map[string]int{"low": 2048, "medium": 8192, "high": 24576}

// minThinkingBudget is the API's lower bound for budget_tokens.
const minThinkingBudget = 1024

// buildParams translates a neutral request into Messages parameters, plus
// request options for fields the SDK's params no longer carry
// (temperature). tools are already cleaned for the Anthropic dialect and
// carry wire names; names maps the real names in history to wire names.
func (p *Provider) buildParams(model string, req llm.Request, tools []llm.ToolSpec, names *schema.NameMap) (sdk.MessageNewParams, []option.RequestOption, error) {
	maxTokens := req.MaxTokens
	if maxTokens <= 0 {
		maxTokens = p.opts.MaxTokens
	}
	// With no cap given, thinking gets its budget on top of the default
	// answer allowance instead of eating into it.
	defaulted := maxTokens <= 0
	if defaulted {
		maxTokens = DefaultMaxTokens
	}
	params := sdk.MessageNewParams{Model: sdk.Model(model), MaxTokens: int64(maxTokens)}
	var extra []option.RequestOption

	var systemTexts []string
	if strings.TrimSpace(req.System) != "" {
		systemTexts = append(systemTexts, req.System)
	}
	var convo []llm.Message
	for _, m := range req.Messages {
		if m.Role == llm.RoleSystem {
			if t := m.Text(); strings.TrimSpace(t) != "" {
				systemTexts = append(systemTexts, t)
			}
			continue
		}
		convo = append(convo, m)
	}
	for _, t := range systemTexts {
		params.System = append(params.System, sdk.TextBlockParam{Text: t})
	}
	if n := len(params.System); n > 0 {
		params.System[n-1].CacheControl = sdk.NewCacheControlEphemeralParam()
	}

	for _, t := range tools {
		schema, err := inputSchema(t.Parameters)
		if err != nil {
			return params, nil, fmt.Errorf("tool %q: %w", t.Name, err)
		}
		tp := sdk.ToolParam{Name: t.Name, InputSchema: schema}
		if t.Description != "" {
			tp.Description = sdk.String(t.Description)
		}
		params.Tools = append(params.Tools, sdk.ToolUnionParam{OfTool: &tp})
	}
	if n := len(params.Tools); n > 0 {
		params.Tools[n-1].OfTool.CacheControl = sdk.NewCacheControlEphemeralParam()
	}

	msgs, err := encodeMessages(convo, names)
	if err != nil {
		return params, nil, err
	}
	markLastMessage(msgs)
	params.Messages = msgs

	thinking := false
	if effort := strings.ToLower(req.ReasoningEffort); effort != "" && effort != "none" {
		thinking = true
		if p.opts.AdaptiveThinking || prefersAdaptive(model) {
			params.Thinking = sdk.ThinkingConfigParamUnion{OfAdaptive: &sdk.ThinkingConfigAdaptiveParam{}}
			params.OutputConfig = sdk.OutputConfigParam{Effort: sdk.OutputConfigEffort(effort)}
		} else {
			budget, ok := thinkingBudget[effort]
			if !ok {
				budget = thinkingBudget["medium"]
			}
			if defaulted {
				maxTokens += budget
				params.MaxTokens = int64(maxTokens)
			}
			if budget >= maxTokens {
				budget = maxTokens / 2
			}
			if budget >= minThinkingBudget {
				params.Thinking = sdk.ThinkingConfigParamOfEnabled(int64(budget))
			} else {
				thinking = false
			}
		}
	}
	// Thinking requires the server-default temperature.
	if req.Temperature != nil && !thinking {
		extra = append(extra, option.WithJSONSet("temperature", *req.Temperature))
	}
	if len(req.ResponseSchema) > 0 && structuredOutput(model) {
		if out := schema.ForOutput(schema.Anthropic, req.ResponseSchema); out.Schema != nil {
			var m map[string]any
			if json.Unmarshal(out.Schema, &m) == nil {
				params.OutputConfig.Format = sdk.JSONOutputFormatParam{Schema: m}
			}
		}
	}
	return params, extra, nil
}

// structuredOutput reports models that take output_config.format: Claude
// Opus 4.1, the 4.5 models and every later one
// (https://platform.claude.com/docs/en/build-with-claude/structured-outputs).
// Older models reject the field, so they get the prompt's instruction only.
func structuredOutput(model string) bool {
	m := claudeVersion.FindStringSubmatch(model)
	if m == nil {
		return false
	}
	major, _ := strconv.Atoi(m[2])
	minor, _ := strconv.Atoi(m[3])
	switch {
	case major > 4:
		return true
	case major < 4:
		return false
	}
	return minor >= 5 || (m[1] == "opus" && minor >= 1)
}

// claudeVersion reads family, major and minor from ids such as
// claude-sonnet-4-5-20250929, claude-opus-4-1 or claude-haiku-4-5; a
// date suffix (eight digits) is not a minor version.
var claudeVersion = regexp.MustCompile(`^claude-(opus|sonnet|haiku)-(\d+)(?:-(\d{1,2})(?:-|$|@))?`)

// prefersAdaptive reports models for which budget-based thinking is
// deprecated in favour of adaptive thinking (the SDK warns on stderr for
// them, which would corrupt a terminal UI).
func prefersAdaptive(model string) bool {
	for _, p := range []string{"claude-opus-4-6", "claude-mythos"} {
		if strings.HasPrefix(model, p) {
			return true
		}
	}
	return false
}

// inputSchema converts a JSON Schema object into the SDK's tool input
// schema, keeping every keyword: properties and required as fields, the
// rest as extra fields. An empty schema becomes {"type":"object"}.
func inputSchema(raw json.RawMessage) (sdk.ToolInputSchemaParam, error) {
	var s sdk.ToolInputSchemaParam
	if len(strings.TrimSpace(string(raw))) == 0 || string(raw) == "null" {
		return s, nil
	}
	var m map[string]any
	if err := json.Unmarshal(raw, &m); err != nil {
		return s, fmt.Errorf("parameters are not a JSON object: %w", err)
	}
	for k, v := range m {
		switch k {
		case "type":
			// Always "object" for tool input.
		case "properties":
			s.Properties = v
		case "required":
			arr, _ := v.([]any)
			for _, r := range arr {
				if name, ok := r.(string); ok {
					s.Required = append(s.Required, name)
				}
			}
		default:
			if s.ExtraFields == nil {
				s.ExtraFields = map[string]any{}
			}
			s.ExtraFields[k] = v
		}
	}
	return s, nil
}

// encodeMessages turns the neutral conversation into Messages turns:
// RoleTool messages become user turns with tool_result blocks, consecutive
// turns of one role are merged, and in a user turn every tool_result block
// precedes other content. Turns left with no content are dropped.
func encodeMessages(msgs []llm.Message, names *schema.NameMap) ([]sdk.MessageParam, error) {
	type turn struct {
		assistant bool
		blocks    []sdk.ContentBlockParamUnion
	}
	var turns []turn
	for i, m := range msgs {
		var blocks []sdk.ContentBlockParamUnion
		var err error
		assistant := m.Role == llm.RoleAssistant
		switch m.Role {
		case llm.RoleAssistant:
			blocks, err = assistantBlocks(m, names)
		case llm.RoleUser, llm.RoleTool:
			blocks = userBlocks(m)
		default:
			err = fmt.Errorf("message %d: unknown role %q", i, m.Role)
		}
		if err != nil {
			return nil, fmt.Errorf("message %d: %w", i, err)
		}
		if len(blocks) == 0 {
			continue
		}
		if n := len(turns); n > 0 && turns[n-1].assistant == assistant {
			turns[n-1].blocks = append(turns[n-1].blocks, blocks...)
			continue
		}
		turns = append(turns, turn{assistant: assistant, blocks: blocks})
	}
	out := make([]sdk.MessageParam, 0, len(turns))
	for _, t := range turns {
		if t.assistant {
			out = append(out, sdk.NewAssistantMessage(t.blocks...))
			continue
		}
		out = append(out, sdk.NewUserMessage(resultsFirst(t.blocks)...))
	}
	return out, nil
}

// resultsFirst returns blocks with tool_result blocks moved to the front,
// keeping the relative order within each group.
func resultsFirst(blocks []sdk.ContentBlockParamUnion) []sdk.ContentBlockParamUnion {
	out := make([]sdk.ContentBlockParamUnion, 0, len(blocks))
	for _, b := range blocks {
		if b.OfToolResult != nil {
			out = append(out, b)
		}
	}
	for _, b := range blocks {
		if b.OfToolResult == nil {
			out = append(out, b)
		}
	}
	return out
}

func userBlocks(m llm.Message) []sdk.ContentBlockParamUnion {
	var out []sdk.ContentBlockParamUnion
	for _, p := range m.Parts {
		switch p.Type {
		case llm.PartText:
			if p.Text != "" {
				out = append(out, sdk.NewTextBlock(p.Text))
			}
		case llm.PartImage:
			if p.Image != nil && len(p.Image.Data) > 0 {
				out = append(out, sdk.NewImageBlockBase64(p.Image.MediaType, base64.StdEncoding.EncodeToString(p.Image.Data)))
			}
		case llm.PartToolResult:
			if r := p.ToolResult; r != nil {
				b := sdk.ToolResultBlockParam{ToolUseID: r.CallID}
				if r.Content != "" {
					b.Content = []sdk.ToolResultBlockParamContentUnion{{OfText: &sdk.TextBlockParam{Text: r.Content}}}
				}
				for _, img := range r.Images { // image blocks inside tool_result
					b.Content = append(b.Content, sdk.ToolResultBlockParamContentUnion{OfImage: sdk.NewImageBlockBase64(img.MediaType, base64.StdEncoding.EncodeToString(img.Data)).OfImage})
				}
				if r.IsError {
					b.IsError = sdk.Bool(true)
				}
				out = append(out, sdk.ContentBlockParamUnion{OfToolResult: &b})
			}
		}
	}
	return out
}

// assistantBlocks replays an assistant message: signed reasoning as
// thinking blocks (verbatim), redacted reasoning as redacted_thinking,
// text, then tool_use blocks. Unsigned reasoning is not replayable and is
// dropped.
func assistantBlocks(m llm.Message, names *schema.NameMap) ([]sdk.ContentBlockParamUnion, error) {
	var out []sdk.ContentBlockParamUnion
	for _, p := range m.Parts {
		switch p.Type {
		case llm.PartReasoning:
			switch {
			case p.Redacted:
				out = append(out, sdk.NewRedactedThinkingBlock(p.Text))
			case p.Signature != "":
				out = append(out, sdk.NewThinkingBlock(p.Signature, p.Text))
			}
		case llm.PartText:
			if p.Text != "" {
				out = append(out, sdk.NewTextBlock(p.Text))
			}
		case llm.PartToolCall:
			c := p.ToolCall
			if c == nil {
				continue
			}
			// tool_use.input must be a JSON object: arguments the model
			// wrote as broken JSON go back wrapped under
			// llm.InvalidArgumentsKey, so the history stays sendable and
			// the model still sees its text beside the error result the
			// loop answered the call with.
			out = append(out, sdk.NewToolUseBlock(c.ID, c.ArgumentsObject(), names.Add("", c.Name)))
		}
	}
	return out, nil
}

// markLastMessage puts a cache breakpoint on the last cacheable block of the
// last turn, so the next request reads the whole conversation prefix from
// the prompt cache.
func markLastMessage(msgs []sdk.MessageParam) {
	if len(msgs) == 0 {
		return
	}
	m := msgs[len(msgs)-1]
	var blocks []sdk.ContentBlockParamUnion
	switch {
	case m.OfUser != nil:
		blocks = m.OfUser.Content
	case m.OfAssistant != nil:
		blocks = m.OfAssistant.Content
	}
	for i := len(blocks) - 1; i >= 0; i-- {
		if cc := blocks[i].GetCacheControl(); cc != nil {
			*cc = sdk.NewCacheControlEphemeralParam()
			return
		}
	}
}
