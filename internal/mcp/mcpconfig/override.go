package mcpconfig

import (
	"encoding/json"
	"fmt"
	"time"
)

// override is an entry of Zero's file with no command and no url: it
// changes the settings of the server of that name from another source
// (Zero edits only its own file, so this is how `zero mcp disable` turns
// off a server of Claude's or Codex's).
type override struct {
	name, path string
	e          jsonEntry
	s          Server // e's values, parsed
}

type overrides []override

// parseOverride reads an override entry.
func parseOverride(doc *jsonDoc, m member) (override, []string, error) {
	ov := override{name: m.Key, path: fmt.Sprintf("%s:%s", doc.path, doc.position(m.Offset))}
	if err := json.Unmarshal(m.Value, &ov.e); err != nil {
		return ov, nil, entryErr(err, m.Value)
	}
	if err := ov.e.zeroExtras(&ov.s); err != nil {
		return ov, nil, err
	}
	return ov, unknownKeys(doc, m), nil
}

// apply changes the winning servers as the overrides and the shadowed
// Zero entries say.
func (over overrides) apply(l *Loaded) {
	byName := map[string]*Server{}
	for i := range l.Servers {
		byName[l.Servers[i].Name] = &l.Servers[i]
	}
	for _, sh := range l.Shadowed {
		if w := byName[sh.Name]; w != nil && sh.Origin == OriginZero && !sh.Enabled {
			w.Enabled = false // the user's switch in Zero's file holds
		}
	}
	skipped := map[string]bool{}
	for _, sk := range l.Skipped {
		skipped[sk.Name] = true
	}
	for _, ov := range over {
		w := byName[ov.name]
		if w == nil {
			if !skipped[ov.name] {
				l.Warnings = append(l.Warnings, fmt.Sprintf("%s: %q has no command or url and no other source defines a server of that name", ov.path, ov.name))
			}
			continue
		}
		ov.onto(w)
	}
}

// onto sets the settings the override writes on s.
func (ov override) onto(s *Server) {
	e, v := ov.e, ov.s
	if e.Enabled != nil {
		s.Enabled = *e.Enabled
	}
	s.Required = s.Required || e.Required
	if e.EnabledTools != nil {
		s.EnabledTools = v.EnabledTools
	}
	if e.DisabledTools != nil {
		s.DisabledTools = v.DisabledTools
	}
	if len(e.AlwaysLoad) > 0 {
		s.AlwaysLoad, s.AlwaysLoadTools = v.AlwaysLoad, v.AlwaysLoadTools
	}
	for _, t := range []struct{ from, to *time.Duration }{{&v.StartupTimeout, &s.StartupTimeout}, {&v.ToolTimeout, &s.ToolTimeout}} {
		if *t.from > 0 {
			*t.to = *t.from
		}
	}
	s.OverridePath = ov.path
}
