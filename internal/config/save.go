package config

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strings"

	"github.com/tailscale/hujson"
	"github.com/zero-agent/zero/internal/jsonc"

	"github.com/zero-agent/zero/internal/atomicfile"
)

// MaskKey returns a printable form of a secret: "sk-…abcd" (first three
// and last four characters) for keys of 12 characters or more, "…" for
// shorter non-empty ones, "" for none.
func MaskKey(k string) string {
	switch {
	case k == "":
		return ""
	case len(k) < 12:
		return "…"
	}
	return k[:3] + "…" + k[len(k)-4:]
}

// secretHeader reports whether a header's value is a credential.
func secretHeader(name string) bool {
	n := strings.ToLower(name)
	for _, s := range []string{"authorization", "key", "token", "secret", "cookie", "password"} {
		if strings.Contains(n, s) {
			return true
		}
	}
	return false
}

// Masked returns a copy of c that is safe to print (`zero config`): every
// API key and credential header is masked with MaskKey.
func (c *Config) Masked() *Config {
	m := *c
	m.Providers = make([]Provider, len(c.Providers))
	for i, p := range c.Providers {
		p.APIKey = MaskKey(p.APIKey)
		p.Headers = maskHeaders(p.Headers)
		m.Providers[i] = p
	}
	if c.Active != nil {
		a := *c.Active
		a.APIKey = MaskKey(a.APIKey)
		a.Headers = maskHeaders(a.Headers)
		m.Active = &a
	}
	m.Files = append([]string(nil), c.Files...)
	m.Warnings = append([]string(nil), c.Warnings...)
	m.profiles = nil
	return &m
}

func maskHeaders(h map[string]string) map[string]string {
	if h == nil {
		return nil
	}
	out := make(map[string]string, len(h))
	for k, v := range h {
		if secretHeader(k) {
			v = MaskKey(v)
		}
		out[k] = v
	}
	return out
}

// SaveUser edits the user config file (`zero providers add|remove|use`):
// it reads the file, lets fn change it, and writes it back atomically with
// mode 0600. Only the top-level fields fn changed are rewritten; comments,
// unknown fields and the other fields are kept. A missing file is created.
func SaveUser(fn func(*File)) error {
	path, err := UserPath()
	if err != nil {
		return err
	}
	return SaveFile(path, fn)
}

// SaveFile is SaveUser for an explicit path.
func SaveFile(path string, fn func(*File)) error {
	data, err := os.ReadFile(path)
	if err != nil && !errors.Is(err, os.ErrNotExist) {
		return fmt.Errorf("config: %w", err)
	}
	if len(bytes.TrimSpace(data)) == 0 {
		data = []byte("{}\n")
	}
	before, _, err := ParseFile(path, data)
	if err != nil {
		return err
	}
	after := cloneFile(before)
	fn(after)
	if err := after.validate(); err != nil {
		return fmt.Errorf("config: %s: %w", path, err)
	}
	patch, err := topLevelPatch(before, after)
	if err != nil {
		return err
	}
	// a BOM is kept as the file had it; hujson parses what follows it
	body, hadBOM := bytes.CutPrefix(data, jsonc.BOM)
	v, err := hujson.Parse(body)
	if err != nil {
		return fmt.Errorf("config: %s: %w", path, err)
	}
	if err := applyPatch(&v, patch); err != nil {
		return fmt.Errorf("config: %s: %w", path, err)
	}
	out := v.Pack()
	if hadBOM {
		out = append(bytes.Clone(jsonc.BOM), out...)
	}
	if !bytes.HasSuffix(out, []byte("\n")) {
		out = append(out, '\n')
	}
	return writeAtomic(path, out)
}

// patchOp is one RFC 6902 operation.
type patchOp struct {
	Op    string          `json:"op"`
	Path  string          `json:"path"`
	Value json.RawMessage `json:"value,omitempty"`
}

// applyPatch applies ops to v. A "replace" swaps the value in place so the
// comments around the member survive; "add" and "remove" go through
// hujson's RFC 6902 Patch. The result is formatted when anything changed.
func applyPatch(v *hujson.Value, ops []patchOp) error {
	if len(ops) == 0 {
		return nil
	}
	for _, o := range ops {
		if o.Op == "replace" {
			if target := v.Find(o.Path); target != nil {
				nv, err := hujson.Parse(o.Value)
				if err != nil {
					return err
				}
				target.Value = nv.Value
				continue
			}
			o.Op = "add"
		}
		b, err := json.Marshal([]patchOp{o})
		if err != nil {
			return err
		}
		if err := v.Patch(b); err != nil {
			return err
		}
	}
	v.Format()
	return nil
}

func cloneFile(f *File) *File {
	b, _ := json.Marshal(f)
	var c File
	_ = json.Unmarshal(b, &c)
	return &c
}

// topLevelPatch is the RFC 6902 patch turning before into after, one
// "add" (which replaces) or "remove" per changed top-level field.
func topLevelPatch(before, after *File) ([]patchOp, error) {
	fields := func(f *File) map[string]json.RawMessage {
		b, _ := json.Marshal(f)
		var m map[string]json.RawMessage
		_ = json.Unmarshal(b, &m)
		return m
	}
	b, a := fields(before), fields(after)
	keys := map[string]bool{}
	for k := range b {
		keys[k] = true
	}
	for k := range a {
		keys[k] = true
	}
	var names []string
	for k := range keys {
		names = append(names, k)
	}
	sort.Strings(names)
	var ops []patchOp
	for _, k := range names {
		av, inA := a[k]
		bv, inB := b[k]
		switch {
		case !inA:
			ops = append(ops, patchOp{Op: "remove", Path: "/" + k})
		case !inB:
			ops = append(ops, patchOp{Op: "add", Path: "/" + k, Value: av})
		case !bytes.Equal(av, bv):
			ops = append(ops, patchOp{Op: "replace", Path: "/" + k, Value: av})
		}
	}
	return ops, nil
}

func writeAtomic(path string, data []byte) error {
	if err := os.MkdirAll(filepath.Dir(path), 0o700); err != nil {
		return fmt.Errorf("config: %w", err)
	}
	if err := atomicfile.Write(path, data, 0o600); err != nil {
		return fmt.Errorf("config: %w", err)
	}
	return nil
}
