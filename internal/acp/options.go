package acp

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"strings"
	"time"

	acpsdk "github.com/coder/acp-go-sdk"

	"github.com/zero-agent/zero/internal/permission"
	"github.com/zero-agent/zero/internal/run"
)

// Config option ids (https://agentclientprotocol.com/protocol/session-config-options).
const (
	optionMode    = "mode"
	optionModel   = "model"
	optionThought = "thought_level"
	// thoughtDefault is the thought level that sends no effort: the
	// provider's default.
	thoughtDefault = "default"
)

// configOptions are the session's options: the permission mode, the
// model (the models the provider lists, once fetched; until then the one
// in use) and, for a model that takes a reasoning effort
// (run.Session.ReasoningEfforts), the thought level. A model or level
// queued during a prompt shows as the current value.
func (s *session) configOptions() []acpsdk.SessionConfigOption {
	var modes acpsdk.SessionConfigSelectOptionsUngrouped
	for _, m := range sessionModes {
		modes = append(modes, acpsdk.SessionConfigSelectOption{Value: acpsdk.SessionConfigValueId(m.Id), Name: m.Name, Description: m.Description})
	}
	model, _ := s.rt.ModelWindow()
	s.mu.Lock()
	ids := s.models
	model = firstNonEmpty(s.next.model, model)
	effort := s.effort
	if s.next.effort != nil {
		effort = *s.next.effort
	}
	s.mu.Unlock()
	if !slices.Contains(ids, model) {
		ids = append([]string{model}, ids...)
	}
	var models acpsdk.SessionConfigSelectOptionsUngrouped
	for _, id := range ids {
		models = append(models, acpsdk.SessionConfigSelectOption{Value: acpsdk.SessionConfigValueId(id), Name: id})
	}
	sel := func(id, name string, cat acpsdk.SessionConfigOptionCategory, cur string, opts acpsdk.SessionConfigSelectOptionsUngrouped) acpsdk.SessionConfigOption {
		o := acpsdk.NewSessionConfigOptionSelect(acpsdk.SessionConfigValueId(cur), acpsdk.SessionConfigSelectOptions{Ungrouped: &opts})
		o.Select.Id, o.Select.Name, o.Select.Category = acpsdk.SessionConfigId(id), name, &cat
		return o
	}
	opts := []acpsdk.SessionConfigOption{
		sel(optionMode, "Mode", acpsdk.SessionConfigOptionCategoryMode, string(s.rt.Mode()), modes),
		sel(optionModel, "Model", acpsdk.SessionConfigOptionCategoryModel, model, models),
	}
	if efforts := s.s.ReasoningEfforts(); len(efforts) > 0 {
		levels := acpsdk.SessionConfigSelectOptionsUngrouped{{Value: thoughtDefault, Name: "Default", Description: acpsdk.Ptr("The provider's default")}}
		for _, e := range efforts {
			levels = append(levels, acpsdk.SessionConfigSelectOption{Value: acpsdk.SessionConfigValueId(e), Name: strings.ToUpper(e[:1]) + e[1:]})
		}
		cur := firstNonEmpty(effort, thoughtDefault)
		opts = append(opts, sel(optionThought, "Thought level", acpsdk.SessionConfigOptionCategoryThoughtLevel, cur, levels))
	}
	return opts
}

// fetchModels lists the provider's models in the background (a local
// server's GET /models, the catalog for vendor APIs) and sends the
// options again with them.
func (s *session) fetchModels() {
	r := *s.rt.Active
	r.Model, _ = s.rt.ModelWindow()
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	ids, err := run.ModelIDs(ctx, &r)
	if err != nil || len(ids) == 0 {
		return
	}
	s.mu.Lock()
	s.models = ids
	s.mu.Unlock()
	s.updates.send(acpsdk.SessionUpdate{ConfigOptionUpdate: &acpsdk.SessionConfigOptionUpdate{ConfigOptions: s.configOptions()}})
}

// setOption sets option id to value. During a prompt the mode's
// permissions apply at once (setMode); a model or thought level is
// queued for the prompt's end, so the turn under way keeps the model it
// started with.
func (s *session) setOption(id, value string) error {
	switch id {
	case optionMode:
		m, err := permission.ParseMode(value)
		if err != nil {
			return err
		}
		s.setMode(m)
		return nil
	case optionModel:
		if value == "" {
			return errors.New("the model option needs a model name")
		}
		s.mu.Lock()
		defer s.mu.Unlock()
		if s.cancel != nil {
			s.next.model = value
			return nil
		}
		s.useModel(value)
		return nil
	case optionThought:
		return s.setThought(value)
	}
	return errors.New("unknown config option " + id + " (mode, model, thought_level)")
}

// useModel switches the model; a thought level the new model does not
// take goes back to the default. s.mu is held, no prompt runs.
func (s *session) useModel(name string) {
	s.s.SetModel(name)
	if !slices.Contains(s.s.ReasoningEfforts(), s.effort) {
		s.useEffort("")
	}
}

// useEffort sets the thought level. s.mu is held, no prompt runs.
func (s *session) useEffort(effort string) {
	if effort != "" && !slices.Contains(s.s.ReasoningEfforts(), effort) {
		effort = "" // queued for a model switched from since
	}
	s.effort = effort
	s.s.SetReasoningEffort(effort)
}

// setThought sets the thought level (queued during a prompt): one of
// the model's reasoning efforts, or default.
func (s *session) setThought(value string) error {
	efforts := s.s.ReasoningEfforts()
	if len(efforts) == 0 {
		return errors.New("this model takes no thought level")
	}
	if value == thoughtDefault {
		value = ""
	} else if !slices.Contains(efforts, value) {
		return fmt.Errorf("unknown thought level %q (%s, %s)", value, thoughtDefault, strings.Join(efforts, ", "))
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.cancel != nil {
		s.next.effort = &value
		return nil
	}
	s.useEffort(value)
	return nil
}
